#!/usr/bin/env bash
# Compares builds of quickphotos by serve's CPU per operation, with one `quickphotos loadtest`
# run that alternates them round by round: on a shared machine an effect of a few percent is
# within the noise of throughput alone, and twelve or more short alternated rounds are needed
# to see it (docs/benchmarks.md).
#
#   scripts/cpu-compare.sh [REV…] [-- loadtest flags…]
#
# Targets, in order (ratios are printed relative to the first): each REV's
# `serve --in-memory --sample --no-feed`, then this tree's (alone, with no REV: its CPU per
# operation, e.g. of one operation with MIX=following=1). For each it prints the operations
# measured, the CPU serve used over the whole run (from /proc, warm-up included, the same for
# every target) and that CPU per measured operation. MIX (the standard mix unless set) picks the
# operations, e.g. MIX=profile=1; rounds default to 12 of 5 s after 3 s of warm-up; loadtest
# flags after -- override them. Every server holds the sample of SAMPLE_USERS users (300 unless
# set), seed 1.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${SAMPLE_USERS:-300}
revs=()
while [[ $# -gt 0 && $1 != "--" ]]; do revs+=("$1"); shift; done
[[ ${1:-} == "--" ]] && shift

work=$(mktemp -d)
cleanup() {
	for f in "$work"/*.pid; do [[ -f $f ]] && kill "$(cat "$f")" 2>/dev/null || true; done
	wait 2>/dev/null || true
	for i in "${!revs[@]}"; do git worktree remove --force "$work/rev$i" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

names=() bins=()
for i in "${!revs[@]}"; do
	git worktree add -q --detach "$work/rev$i" "${revs[$i]}"
	(cd "$work/rev$i" && go build -o "$work/rev$i.bin" .)
	names+=("${revs[$i]}") bins+=("$work/rev$i.bin")
done
go build -o "$work/this.bin" .
names+=("this tree") bins+=("$work/this.bin")

# start I: serve of bins[I] in the background, its pid in $work/I.pid; prints its URL.
start() {
	"${bins[$1]}" serve --in-memory --sample --sample-users "$users" --addr 127.0.0.1:0 --no-feed >"$work/$1.out" 2>"$work/$1.err" &
	echo $! >"$work/$1.pid"
	for _ in $(seq 1 300); do
		if url=$(grep -o -m1 'http://127\.0\.0\.1:[0-9]*/graphql' "$work/$1.out"); then echo "$url"; return; fi
		sleep 0.1
	done
	echo "${names[$1]} did not start:" >&2; cat "$work/$1.err" >&2; exit 1
}
urls=()
for i in "${!bins[@]}"; do urls+=("$(start "$i")"); done

# cpu PID: the user and system time the process has used, in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
before=()
for i in "${!bins[@]}"; do before+=("$(cpu "$(cat "$work/$i.pid")")"); done
mix=(); [[ -n ${MIX:-} ]] && mix=(--mix "$MIX")
targets=$(IFS=,; echo "${urls[*]}")
"${bins[-1]}" loadtest --url "$targets" --sample-users "$users" --rounds 12 --duration 5s --warmup 3s "${mix[@]}" "$@" | tee "$work/loadtest.out"

tick=$(getconf CLK_TCK)
echo
echo "serve's CPU per measured operation:"
for i in "${!bins[@]}"; do
	used=$(( $(cpu "$(cat "$work/$i.pid")") - before[i] ))
	ops=$(grep -m1 "^${urls[$i]}: " "$work/loadtest.out" | awk '{print $2}')
	awk -v name="${names[$i]}" -v used="$used" -v tick="$tick" -v ops="$ops" \
		'BEGIN { printf "  %-12s %9d operations, %7.1f s of CPU, %6.1f µs per operation\n", name, ops, used / tick, used / tick / ops * 1e6 }'
done
