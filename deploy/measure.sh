#!/usr/bin/env bash
# Measures what the API's operations cost, for the cost estimate in deploy/README.md: runs serve
# with the sample on the embedded engine (in memory, on loopback), drives it with
# `quickphotos loadtest --mix feed`, and prints per GraphQL operation its count, mean handler
# duration, DynamoDB requests and read/write capacity units (from serve's request log, the
# figures of extensions.cost), then the fan-out's writes (the stream consumer's BatchWriteItem
# capacity over the run, from /metrics).
#   deploy/measure.sh [DURATION]   (default 30s)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-30s}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/quickphotos" .
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
secret=$(head -c 24 /dev/urandom | base64)
"$work/quickphotos" serve --sample --in-memory --addr "127.0.0.1:$port" --jwt-secret "$secret" >"$work/serve.out" 2>"$work/serve.log" &
pid=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$port/metrics" >"$work/before.txt"
: >"$work/serve.log"
"$work/quickphotos" loadtest --url "http://127.0.0.1:$port/graphql" --jwt-secret "$secret" --mix feed --clients 1 --warmup 0s --duration "$duration" >"$work/loadtest.txt"
sleep 2 # the consumer's last fan-out
curl -fs "http://127.0.0.1:$port/metrics" >"$work/after.txt"
python3 - "$work" <<'PY'
import json, re, sys, collections
work = sys.argv[1]
ops = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
for line in open(f"{work}/serve.log"):
    try:
        d = json.loads(line)
    except ValueError:
        continue
    if d.get("msg") != "http request" or d.get("path") != "/graphql" or d.get("status") != 200:
        continue
    o = ops[d.get("operation") or "?"]
    o[0] += 1; o[1] += d["duration_ms"]; o[2] += d["dynamodb_requests"]
    o[3] += d["read_capacity_units"]; o[4] += d["write_capacity_units"]
print(f"{'operation':12} {'count':>6} {'ms':>6} {'requests':>8} {'RRU':>7} {'WRU':>7}")
for name, (n, ms, req, r, w) in sorted(ops.items(), key=lambda kv: -kv[1][0]):
    print(f"{name:12} {n:6d} {ms/n:6.2f} {req/n:8.2f} {r/n:7.2f} {w/n:7.2f}")
def metric(path, name):
    for line in open(path):
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0
key = 'quickphotos_dynamodb_consumed_capacity_total{kind="write",operation="BatchWriteItem",table="quick-photos"}'
fan = metric(f"{work}/after.txt", key) - metric(f"{work}/before.txt", key)
key = 'quickphotos_dynamodb_requests_total{operation="BatchWriteItem",outcome="ok",table="quick-photos"}'
req = metric(f"{work}/after.txt", key) - metric(f"{work}/before.txt", key)
print(f"fan-out: {req:.0f} BatchWriteItem requests, {fan:.0f} WRU")
PY
