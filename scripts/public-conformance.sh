#!/usr/bin/env bash
# Runs the public DynamoDB conformance suite (../shared/dynamodb-conformance, recorded against
# Amazon DynamoDB) against `quickphotos dynamodb`, once on a data directory and once in memory,
# and fails when a test that is not in the baseline does not pass.
#
# The baseline (ddb/conformance/public-baseline.txt) lists the tests known not to pass, one
# "file > title" a line: a regression fails the run, and a baseline test that now passes is
# reported so that it can be struck off. Where ../shared is absent (a clone on its own), the
# run says so and skips.
#
#   scripts/public-conformance.sh            # both modes
#   MODES=in-memory scripts/public-conformance.sh tests/tier2/streams
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runner=${QP_CONFORMANCE_RUNNER:-$root/../shared/run-dynamodb-conformance}
baseline=$root/ddb/conformance/public-baseline.txt
modes=${MODES:-data in-memory}
GO=${GO:-go}

if [ ! -x "$runner" ]; then
	echo "public conformance: skipped, $runner not found (it comes with ../shared)"
	exit 0
fi

work=$(mktemp -d)
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

"$GO" build -o "$work/quickphotos" .
{ grep -v '^#' "$baseline" || true; } | sed '/^$/d' | sort -u >"$work/baseline"

status=0
for mode in $modes; do
	case $mode in
	data) flags=(--data "$work/data") ;;
	in-memory) flags=(--in-memory) ;;
	*) echo "public conformance: unknown mode $mode (want data or in-memory)"; exit 2 ;;
	esac
	# Port 0 picks a free port; the command prints the address it took.
	"$work/quickphotos" dynamodb "${flags[@]}" --listen 127.0.0.1:0 >"$work/server.log" 2>&1 &
	server=$!
	endpoint=
	for _ in $(seq 100); do
		endpoint=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/server.log" || true)
		[ -n "$endpoint" ] && break
		sleep 0.1
	done
	if [ -z "$endpoint" ]; then
		echo "public conformance ($mode): the engine did not start:"; cat "$work/server.log"; exit 1
	fi

	echo "public conformance ($mode) at $endpoint"
	QP_CONFORMANCE_OUT="$work/report-$mode.json" "$runner" "$endpoint" "$@" >"$work/out-$mode" || true
	kill "$server"; wait "$server" 2>/dev/null || true; server=

	grep '^\(tier\|total\)' "$work/out-$mode" | sed 's/^/  /'
	# "FAILED file > title :: message" -> "file > title"
	grep '^\(FAILED\|SKIPPED\) ' "$work/out-$mode" | sed -E 's/^(FAILED|SKIPPED) //; s/ :: .*$//; s/ +$//' | sort -u >"$work/notpassed-$mode" || true
	if grep -q '^FILE ' "$work/out-$mode"; then
		echo "  test files that did not run:"; grep '^FILE ' "$work/out-$mode" | sed 's/^/    /'
		status=1
	fi
	regressions=$(comm -23 "$work/notpassed-$mode" "$work/baseline")
	if [ -n "$regressions" ]; then
		echo "  not passing, and not in $(basename "$baseline"):"
		while IFS= read -r t; do grep -F -- "$t" "$work/out-$mode" | head -1 | sed 's/^/    /'; done <<<"$regressions"
		status=1
	fi
	# With a subset of the suite selected, the baseline tests outside it did not run.
	if [ $# -eq 0 ]; then
		fixed=$(comm -13 "$work/notpassed-$mode" "$work/baseline")
		if [ -n "$fixed" ]; then
			echo "  passing now, strike them off $(basename "$baseline"):"
			sed 's/^/    /' <<<"$fixed"
			status=1
		fi
	fi
done
exit $status
