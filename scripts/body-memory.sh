#!/bin/sh
# Measures what concurrent large requests cost the engine's DynamoDB endpoint in memory:
# starts `quickphotos dynamodb --in-memory` (BIN, default ./quickphotos), sends ROUNDS rounds of
# N concurrent PutItem requests of SIZE_MB MiB each with curl, and prints the process's peak
# (VmHWM) and current (VmRSS) resident memory. Linux only (reads /proc). CHUNKED=1 sends the
# bodies chunked, without a Content-Length.
#   go build -o quickphotos . && scripts/body-memory.sh
set -eu
bin=${BIN:-./quickphotos}
n=${N:-8}
size_mb=${SIZE_MB:-15}
rounds=${ROUNDS:-3}
chunked=
[ "${CHUNKED:-0}" = 1 ] && chunked='-H Transfer-Encoding:chunked'
port=${PORT:-18700}
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT

"$bin" dynamodb --in-memory --listen "127.0.0.1:$port" >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q 'DynamoDB API at' "$tmp/out" && break; sleep 0.1; done

head='{"TableName":"t","Item":{"PK":{"S":"big"},"x":{"S":"'
{ printf '%s' "$head"; head -c $((size_mb * 1024 * 1024 - 64)) /dev/zero | tr '\0' a; printf '"}}}'; } >"$tmp/body"
for round in $(seq "$rounds"); do
	# shellcheck disable=SC2086 # $chunked is one header option or nothing
	seq "$n" | xargs -P "$n" -I{} curl -s -o /dev/null -w '%{http_code} ' $chunked \
		-H 'X-Amz-Target: DynamoDB_20120810.PutItem' -H 'Content-Type: application/x-amz-json-1.0' \
		--data-binary @"$tmp/body" "http://127.0.0.1:$port/"
	echo "(round $round)"
done
sleep 1
grep -E 'VmHWM|VmRSS' "/proc/$pid/status"
