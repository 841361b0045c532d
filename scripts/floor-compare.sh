#!/usr/bin/env bash
# Measures quickphotos and the Apollo Server peer (tools/apollo-peer) against the GraphQL floor
# (`quickphotos loadtest floor`: serve's own answers replayed, mutations logged and synced), with
# one `quickphotos loadtest --alone` run that alternates the three round by round: the standard
# mix, then each of its operations alone. It prints each one's ops/s, and the peer's and serve's
# share of the floor's (the × columns, relative to the floor, target [1]).
#
#   scripts/floor-compare.sh [-- loadtest flags…]
#
# Targets, in order:
#   1. the floor, recording its answers from 3. before the run
#   2. the Apollo peer, on `quickphotos dynamodb --in-memory` over loopback (the same engine)
#   3. this tree's `serve --in-memory --sample`
# Every server holds the sample of SAMPLE_USERS users (300 unless set), seed 1. Rounds default to
# 3 of 5 s after 1 s of warm-up, for the mix and for each operation alone: about 7 minutes; the
# load tool runs on every core; loadtest flags after -- override these (--rounds, --duration,
# --warmup, --clients, --procs…).
# DURABLE=1 keeps serve's and the peer's engines on disk (synced on commit, as the floor's log
# is) instead of in memory; TMPDIR decides which disk holds them and the floor's log.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${SAMPLE_USERS:-300}
# The engine accepts any credentials; without some, the SDKs look for them on EC2's metadata service.
export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-loadtest} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-loadtest} AWS_REGION=${AWS_REGION:-us-east-1}
[[ ${1:-} == "--" ]] && shift
if [[ $# -gt 0 && $1 != -* ]]; then echo "usage: scripts/floor-compare.sh [-- loadtest flags…]" >&2; exit 2; fi

work=$(mktemp -d)
cleanup() {
	# start runs in command substitutions, subshells: the servers' pids come back in a file.
	if [[ -f $work/pids ]]; then while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$work/pids"; fi
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/quickphotos" .
if [[ ! -d tools/apollo-peer/node_modules ]]; then (cd tools/apollo-peer && npm ci --no-audit --no-fund >/dev/null 2>&1); fi

# start NAME PATTERN CMD…: runs CMD in the background and prints the first match of PATTERN in
# what it prints.
start() {
	local name=$1 pattern=$2; shift 2
	"$@" >"$work/$name.out" 2>"$work/$name.err" &
	echo $! >>"$work/pids"
	for _ in $(seq 1 600); do
		# (The floor's line names two URLs: its own first.)
		if url=$(grep -o -m1 "$pattern" "$work/$name.out"); then echo "${url%%$'\n'*}"; return; fi
		if ! kill -0 "$!" 2>/dev/null; then break; fi
		sleep 0.1
	done
	echo "$name did not start:" >&2; cat "$work/$name.err" >&2; exit 1
}

if [[ ${DURABLE:-0} == 1 ]]; then
	engine_store=(--data "$work/engine") serve_store=(--data "$work/serve")
else
	engine_store=(--in-memory) serve_store=(--in-memory)
fi
endpoint=$(start engine 'http://127\.0\.0\.1:[0-9]*' "$work/quickphotos" dynamodb "${engine_store[@]}" --listen 127.0.0.1:0)
"$work/quickphotos" table create --store dynamodb --endpoint-url "$endpoint" >/dev/null
"$work/quickphotos" sample --users "$users" | "$work/quickphotos" load --store dynamodb --endpoint-url "$endpoint" - >/dev/null
peer=$(start apollo 'http://127\.0\.0\.1:[0-9]*/graphql' node tools/apollo-peer/server.mjs --endpoint "$endpoint" --table quick-photos --listen 127.0.0.1:0)
serve=$(start serve 'http://127\.0\.0\.1:[0-9]*/graphql' "$work/quickphotos" serve "${serve_store[@]}" --sample --sample-users "$users" --addr 127.0.0.1:0 --no-feed)
# The floor records serve's answers while serve is fresh: every read of the mix, and a react, a
# follow and their undoing.
floor=$(start floor 'http://127\.0\.0\.1:[0-9]*/graphql' "$work/quickphotos" loadtest floor --record-from "$serve" --sample-users "$users" --listen 127.0.0.1:0 --log "$work/floor.log")
floor_pid=$(tail -n1 "$work/pids")
echo "floor: $floor, peer: $peer, serve: $serve" >&2
# The load tool gets every core (its own default is a quarter of them): on fewer it is the
# floor's limit for the fastest reads, and the floor would not be the limit it stands for.
"$work/quickphotos" loadtest --url "$floor,$peer,$serve" --sample-users "$users" --alone \
	--rounds 3 --duration 5s --warmup 1s --procs "$(nproc)" "$@" | tee "$work/report"

# A request the floor had no answer for was refused, and failed in the report above: say so.
kill "$floor_pid"
while kill -0 "$floor_pid" 2>/dev/null; do sleep 0.1; done
refused=$(grep -o '[0-9]* requests refused' "$work/floor.out" || echo "no count of refused requests")
echo "floor: $refused" >&2
if [[ $refused != "0 requests refused" ]] || grep -q -e 'failure:' -e ', [1-9][0-9]* failed' "$work/report"; then
	echo "some requests failed: the figures above are not comparable" >&2
	exit 1
fi
