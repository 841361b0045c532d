#!/usr/bin/env bash
# Counts the CPU instructions one iteration of a Go benchmark executes, with valgrind's
# callgrind: a figure that, unlike ns/op, does not move with what else the machine is doing.
#
#   scripts/instructions.sh PACKAGE BENCHMARK [N]
#   scripts/instructions.sh ./ddb/ 'BenchmarkGetItemPaths/(inprocess|raw)$'
#
# Every benchmark BENCHMARK matches is run alone under callgrind, for N and for 2N iterations
# (N is 20000 unless given); the difference, over N, leaves out the setup both runs share. The
# runs use one P (GOMAXPROCS=1: otherwise idle Ps spinning for work are counted too) and no
# asynchronous preemption (callgrind fails on Go's preemption signal). Instructions include the
# garbage collector's, which a benchmark's allocations cause; they are not time (a cache miss
# counts one), so this complements ns/op rather than replacing it.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '5,6s/^# //p' "$0"; exit 2; }
pkg=$1 pattern=$2 n=${3:-20000}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/bench.test" "$pkg"
dir=$(go list -f '{{.Dir}}' "$pkg")
# The benchmarks' full names, as -test.bench matches them: a dry run of one iteration each.
mapfile -t names < <(cd "$dir" && "$work/bench.test" -test.run '^$' -test.bench "$pattern" -test.benchtime 1x |
	awk '/^Benchmark/ {sub(/-[0-9]+$/, "", $1); print $1}')
[[ ${#names[@]} -gt 0 ]] || { echo "instructions.sh: no benchmark matches $pattern" >&2; exit 1; }
count() { # count NAME ITERATIONS: the instructions of the whole run
	local out=$work/callgrind.out
	(cd "$dir" && GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
		"$work/bench.test" -test.run '^$' -test.bench "^$(sed 's/[][().*+?^$|\\]/\\&/g; s|/|$/^|g' <<<"$1")\$" \
		-test.benchtime "${2}x" >"$work/log" 2>&1) || { cat "$work/log" >&2; exit 1; }
	awk '/Collected :/ {print $NF}' "$work/log"
}
printf '%-60s %14s\n' benchmark instructions/op
for name in "${names[@]}"; do
	one=$(count "$name" "$n")
	two=$(count "$name" $((2 * n)))
	printf '%-60s %14d\n' "$name" $(((two - one) / n))
done
