#!/usr/bin/env bash
# Measures quickphotos side by side with the Apollo Server peer (tools/apollo-peer) and,
# optionally, with an earlier build of quickphotos, with one `quickphotos loadtest` run that
# alternates the targets round by round on this machine.
#
#   scripts/loadtest-compare.sh [BASELINE_REV] [-- loadtest flags…]
#
# Targets, in order (ratios are printed relative to the first):
#   1. the Apollo peer, on `quickphotos dynamodb --in-memory` over loopback (the same engine)
#   2. BASELINE_REV's `serve --in-memory --sample`, when a revision is given
#   3. this tree's `serve --in-memory --sample`
# Every server holds the sample of SAMPLE_USERS users (300 unless set), seed 1.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${SAMPLE_USERS:-300}
# The engine accepts any credentials; without some, the SDKs look for them on EC2's metadata service.
export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID:-loadtest} AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY:-loadtest} AWS_REGION=${AWS_REGION:-us-east-1}
baseline=""
if [[ $# -gt 0 && $1 != "--" ]]; then baseline=$1; shift; fi
[[ ${1:-} == "--" ]] && shift

work=$(mktemp -d)
pids=()
cleanup() {
	# start runs in command substitutions, subshells: the servers' pids come back in a file.
	if [[ -f $work/pids ]]; then while read -r pid; do pids+=("$pid"); done <"$work/pids"; fi
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [[ -n $baseline ]]; then git worktree remove --force "$work/baseline" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/quickphotos" .
if [[ -n $baseline ]]; then
	git worktree add -q --detach "$work/baseline" "$baseline"
	(cd "$work/baseline" && go build -o "$work/baseline-quickphotos" .)
fi
if [[ ! -d tools/apollo-peer/node_modules ]]; then (cd tools/apollo-peer && npm ci --no-audit --no-fund >/dev/null 2>&1); fi

# start NAME PATTERN CMD…: runs CMD in the background and prints the first URL it prints.
start() {
	local name=$1 pattern=$2; shift 2
	"$@" >"$work/$name.out" 2>"$work/$name.err" &
	echo $! >>"$work/pids"
	for _ in $(seq 1 300); do
		if url=$(grep -o -m1 "$pattern" "$work/$name.out"); then echo "$url"; return; fi
		sleep 0.1
	done
	echo "$name did not start:" >&2; cat "$work/$name.err" >&2; exit 1
}

endpoint=$(start engine 'http://127\.0\.0\.1:[0-9]*' "$work/quickphotos" dynamodb --in-memory --listen 127.0.0.1:0)
"$work/quickphotos" table create --store dynamodb --endpoint-url "$endpoint" >/dev/null
"$work/quickphotos" sample --users "$users" | "$work/quickphotos" load --store dynamodb --endpoint-url "$endpoint" - >/dev/null
targets=$(start apollo 'http://127\.0\.0\.1:[0-9]*/graphql' node tools/apollo-peer/server.mjs --endpoint "$endpoint" --table quick-photos --listen 127.0.0.1:0)
if [[ -n $baseline ]]; then
	base=$(start baseline 'http://127\.0\.0\.1:[0-9]*/graphql' "$work/baseline-quickphotos" serve --in-memory --sample --sample-users "$users" --addr 127.0.0.1:0 --no-feed)
	targets="$targets,$base"
fi
mine=$(start serve 'http://127\.0\.0\.1:[0-9]*/graphql' "$work/quickphotos" serve --in-memory --sample --sample-users "$users" --addr 127.0.0.1:0 --no-feed)
targets="$targets,$mine"
echo "targets: $targets" >&2
"$work/quickphotos" loadtest --url "$targets" --sample-users "$users" "$@"
