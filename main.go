// Command quickphotos is the Quick Photos GraphQL API server and its tools.
//
//	quickphotos serve                   serve the API (GraphiQL at the printed address)
//	quickphotos table create            create the table and its InvertedIndex
//	quickphotos load FILE               bulk-load items (the tutorial's items.json, or typed JSON)
//	quickphotos check                   check that the table's items and counters agree
//	quickphotos migrate timestamps      rewrite keys an earlier release wrote (…Z) in the canonical form
//	quickphotos sample                  write a deterministic sample dataset to stdout
//	quickphotos dynamodb                serve the embedded engine's DynamoDB API alone
//	quickphotos token USERNAME          mint a development token for `serve --jwt-secret`
//	quickphotos loadtest                drive running servers with the app's workload and report
//	quickphotos lambda                  the API or the feed's fan-out as an AWS Lambda function (docs/lambda.md)
//	quickphotos healthcheck             ask a serve on this machine's QUICKPHOTOS_ADDR whether it is up (a container's health check)
//
// Every flag can also be set by an environment variable, listed by `quickphotos CMD -h`.
//
// Each command is the file cmd_COMMAND.go (cmd_serve.go, cmd_stream.go, …), a name no package
// has. Flags that several commands share are each registered once, in a flags_GROUP.go of their
// own, with what settles them (flags_api.go, flags_store.go, …; progress.go prints the load
// commands' progress). What opens the store, the photo
// files' store and the stream's consumers, and runs and stops them, is the wiring, in
// wire_PART.go files: wire_backend.go opens what serve, stream and lambda share, wire_server.go
// is serve's lifecycle, and wire_lifecycle.go closes what a command opened in reverse.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "quickphotos:", err)
		}
		os.Exit(2)
	}
}

const usage = `usage: quickphotos COMMAND [flags]

commands:
  serve          serve the GraphQL API and the GraphiQL playground
  table create   create the table and its InvertedIndex (idempotent)
  load FILE      bulk-load items from FILE ("-" for stdin)
  check          check that the table's items and counters agree (a full Scan)
  migrate timestamps
                 rewrite the keys an earlier release wrote with a Z (…T15:42:38Z) in the tutorial's form; safe while serving
  sample         write a deterministic sample dataset (items.json format) to stdout
  stream         fill feeds and delete deleted photos' images from the table's stream, apart from serve
                 (serve does it too unless --no-feed)
  lambda         the GraphQL API (behind API Gateway or a Function URL) or the feed's fan-out (of a
                 DynamoDB Streams event source mapping) as an AWS Lambda function; the binary run
                 as a provided.al2023 bootstrap with no arguments runs this
  dynamodb       serve the embedded engine alone, as a DynamoDB endpoint (like DynamoDB Local)
  token USERNAME mint a development token signed with --jwt-secret (QUICKPHOTOS_JWT_SECRET)
  loadtest       drive running servers with the app's workload; report ops/s, latencies, live lag
  healthcheck    exit 0 when serve at --addr answers /healthz (the container image's health check)

Run "quickphotos COMMAND -h" for a command's flags and environment variables.
`

// run executes one command; it is main without the process, so tests can call it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 && os.Getenv(lambdaRuntimeEnv) != "" {
		// AWS Lambda runs a provided.al2023 function's bootstrap with no arguments.
		args = []string{"lambda"}
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "serve":
		return serve(ctx, rest, stdout, stderr)
	case "table":
		if len(rest) == 0 || rest[0] != "create" {
			return errors.New(`usage: quickphotos table create [flags]`)
		}
		return tableCreate(ctx, rest[1:], stdout, stderr)
	case "load":
		return load(ctx, rest, stdout, stderr)
	case "check":
		return checkTable(ctx, rest, stdout, stderr)
	case "migrate":
		return migrate(ctx, rest, stdout, stderr)
	case "sample":
		return writeSample(rest, stdout, stderr)
	case "stream":
		return runStream(ctx, rest, stdout, stderr)
	case "lambda":
		return runLambda(ctx, rest, stdout, stderr)
	case "dynamodb":
		return serveDynamoDB(ctx, rest, stdout, stderr)
	case "token":
		return mintToken(rest, stdout, stderr)
	case "loadtest":
		return runLoadTest(ctx, rest, stdout, stderr)
	case "healthcheck":
		return runHealthcheck(ctx, rest, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}
