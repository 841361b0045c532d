#!/usr/bin/env bash
# Measures the cold start of `quickphotos lambda` on this machine: the binary built as a
# provided.al2023 bootstrap is built, run RUNS times (10 unless set) per handler under the AWS
# Lambda Runtime Interface Emulator (RIE) on 127.0.0.1, each time a new process invoked once:
# the API with an HTTP API event (a query), the fan-out with an empty DynamoDB Streams batch.
# The store is `quickphotos dynamodb --in-memory` over loopback. A hello-world function of
# aws-lambda-go, built and run the same way, is the baseline.
#
#   make deps && scripts/lambda-coldstart.sh
#
# For each function it prints the minimum and median of the emulator's INIT REPORT (process
# start until the runtime asks for its first event, as Lambda's Init Duration) and of the
# function's own init_ms (main's package variables until ready), then the binary's size.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-10}
rie=${QUICKPHOTOS_RIE:-$(make -s -f Makefile --eval 'print-rie: ; @echo $(RIE)' print-rie)}
[[ -x $rie ]] || { echo "no emulator at $rie: run make deps" >&2; exit 1; }
export AWS_ACCESS_KEY_ID=coldstart AWS_SECRET_ACCESS_KEY=coldstart AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true

work=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.05; done; echo "nothing listens on $1" >&2; exit 1; }

CGO_ENABLED=0 go build -tags lambda.norpc -ldflags='-s -w' -o "$work/bootstrap" .
cat >"$work/hello.go" <<'EOF'
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(context.Context, map[string]any) (string, error) { return "hello", nil })
}
EOF
CGO_ENABLED=0 go build -tags lambda.norpc -ldflags='-s -w' -o "$work/hello" "$work/hello.go"
go build -o "$work/quickphotos" .
ddb=$(free_port)
"$work/quickphotos" dynamodb --in-memory --listen "127.0.0.1:$ddb" >"$work/ddb.log" 2>&1 &
pids+=($!)
wait_port "$ddb"
"$work/quickphotos" table create --store dynamodb --endpoint-url "http://127.0.0.1:$ddb" >/dev/null

query='{"version":"2.0","routeKey":"$default","rawPath":"/graphql","rawQueryString":"","headers":{"content-type":"application/json","host":"example.execute-api.us-east-1.amazonaws.com"},"requestContext":{"domainName":"example.execute-api.us-east-1.amazonaws.com","http":{"method":"POST","path":"/graphql","protocol":"HTTP/1.1","sourceIp":"192.0.2.1"},"stage":"$default"},"body":"{\"query\":\"{ user(username: \\\"ada\\\") { name } }\"}","isBase64Encoded":false}'
batch='{"Records":[]}'

stats() { sort -n | awk '{v[NR]=$1} END {printf "min %.1f ms, median %.1f ms", v[1], (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

for handler in api fanout hello; do
	: >"$work/rie.txt"
	: >"$work/own.txt"
	binary=$work/bootstrap payload=$query
	[[ $handler == fanout ]] && payload=$batch
	[[ $handler == hello ]] && binary=$work/hello payload='{}'
	for _ in $(seq "$runs"); do
		port=$(free_port)
		rapid=$(free_port)
		QUICKPHOTOS_LAMBDA_HANDLER=$handler QUICKPHOTOS_ENDPOINT_URL="http://127.0.0.1:$ddb" QUICKPHOTOS_AUTH=none \
			"$rie" --runtime-interface-emulator-address "127.0.0.1:$port" --runtime-api-address "127.0.0.1:$rapid" \
			"$binary" >"$work/run.log" 2>&1 &
		pid=$!
		wait_port "$port"
		curl -sf -o /dev/null -X POST "http://127.0.0.1:$port/2015-03-31/functions/function/invocations" -d "$payload"
		kill "$pid"
		wait "$pid" 2>/dev/null || true
		grep -o 'INIT REPORT(durationMs: [0-9.]*' "$work/run.log" | grep -o '[0-9.]*$' >>"$work/rie.txt"
		grep -o '"init_ms":[0-9.]*' "$work/run.log" | grep -o '[0-9.]*$' >>"$work/own.txt" || true
	done
	own=""
	[[ -s $work/own.txt ]] && own="; init_ms (own) $(stats <"$work/own.txt")"
	echo "$handler: Init Duration (RIE) $(stats <"$work/rie.txt")$own; $runs cold starts"
done
echo "bootstrap: $(($(stat -c %s "$work/bootstrap") / 1048576)) MiB, hello: $(($(stat -c %s "$work/hello") / 1048576)) MiB (-ldflags='-s -w', -tags lambda.norpc)"
