#!/usr/bin/env python3
"""Splits a CPU profile of serve into the layers of a request, for docs/benchmarks.md.

    scripts/profile-layers.py BINARY PROFILE

BINARY is the quickphotos binary that was profiled, PROFILE a CPU profile of it (pprof's
/debug/pprof/profile). Each sample goes to one layer: the collector's work and stack growth by
what the runtime was doing, any other sample to the layer of its innermost frame that belongs to
one (so an allocation counts for the layer that made it). It prints each layer's share of the
samples, and the share of all samples spent allocating (runtime.mallocgc) across the layers.
"""
import collections
import re
import subprocess
import sys

# By the runtime's own work, whatever goroutine it ran on.
GC = r"^runtime\.(gcBgMarkWorker|bgsweep|bgscavenge|gcAssist|gcDrain|markroot|scanstack|gcStart|gcMarkDone|sweepone)"
STACK = r"^runtime\.(newstack|copystack|morestack)"
SCHED = r"^runtime\.(newproc|newproc1|gopark|goready|schedule|findRunnable|mcall|park_m|goexit|wakep|startm|stopm|notesleep|futexsleep)"
# By the innermost frame that matches, first match wins.
LAYERS = [
    ("the engine (ddb, bbolt)", r"quickphotos/ddb[/.]|go\.etcd\.io/bbolt"),
    ("dynamo and the AWS SDK's types", r"quickphotos/dynamo\.|aws-sdk-go-v2|smithy"),
    ("dataloaders", r"graph-gophers/dataloader|quickphotos/loaders\."),
    ("resolvers (and signed URLs)", r"quickphotos/resolvers\.|quickphotos/media"),
    ("the request's checks", r"quickphotos/api\.(checkJSON|checkRequest|checkJSONText|requestChecks|walkSelection|withDocumentRequest|postedDocumentID|\(\*jsonChecker\))|quickphotos/selection\."),
    ("telemetry (access log, metrics, spans)", r"quickphotos/telemetry|go\.opentelemetry|prometheus|^log/slog"),
    ("gqlgen parsing and validation", r"gqlparser/v2/(parser|validator|lexer)"),
    ("gqlgen execution", r"quickphotos/graph\.|99designs/gqlgen/graphql\.|99designs/gqlgen/graphql/executor"),
    ("request and answer JSON", r"99designs/gqlgen/graphql/handler|encoding/json|quickphotos/api\.(postJSON|writeResponse|writeEscaped)"),
    ("the API's middleware", r"quickphotos/api\."),
    ("net/http, syscalls", r"^net/http|^net\.|^bufio|internal/poll|^syscall|internal/runtime/syscall|^os\."),
]


def samples(binary, profile):
    raw = subprocess.run(["go", "tool", "pprof", "-raw", binary, profile], capture_output=True, text=True, check=True).stdout
    locations, mode, current, stacks = {}, None, None, []
    for line in raw.split("\n"):
        if line.startswith("Samples:"):
            mode = "samples"
            continue
        if line.startswith("Locations"):
            mode = "locations"
            continue
        if line.startswith("Mappings"):
            mode = None
            continue
        if mode == "samples":
            m = re.match(r"^\s+([\d ]+): ([\d ]+)", line)
            if m:
                # The values are count and nanoseconds: weigh by time.
                stacks.append((int(m.group(1).split()[-1]), [int(x) for x in m.group(2).split()]))
        elif mode == "locations":
            m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ M=\d+ (\S+)", line)
            if m:
                current = int(m.group(1))
                locations[current] = [m.group(2)]
                continue
            m = re.match(r"^\s+(\S+) ", line)
            if m and current is not None:
                locations[current].append(m.group(1))
    for value, ids in stacks:
        yield value, [f for i in ids for f in locations.get(i, ["?"])]


def layer(frames):
    for name, pattern in (("garbage collection", GC), ("stack growth", STACK)):
        if any(re.match(pattern, f) for f in frames):
            return name
    for f in frames:
        for name, pattern in LAYERS:
            if re.search(pattern, f):
                return name
    if any(re.match(SCHED, f) for f in frames):
        return "goroutines: creation, scheduling"
    return "other runtime"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    shares, total, malloc = collections.Counter(), 0, 0
    for value, frames in samples(sys.argv[1], sys.argv[2]):
        total += value
        shares[layer(frames)] += value
        if any(f.startswith("runtime.mallocgc") for f in frames):
            malloc += value
    if not total:
        sys.exit("no samples")
    for name, value in shares.most_common():
        print(f"{name:40s} {100 * value / total:5.1f}%")
    print(f"{'(allocation, across the layers)':40s} {100 * malloc / total:5.1f}%")
    print(f"{total / 1e9:.1f} s of samples")


if __name__ == "__main__":
    main()
