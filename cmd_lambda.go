package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/lambdahttp"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/telemetry"
)

// lambdaRuntimeEnv is set by AWS Lambda (and its Runtime Interface Emulator) in a function's
// environment: where the runtime API is.
const lambdaRuntimeEnv = "AWS_LAMBDA_RUNTIME_API"

// What a function runs, by --lambda-handler (QUICKPHOTOS_LAMBDA_HANDLER).
const (
	// lambdaAPI serves the GraphQL API to an API Gateway HTTP API or a Function URL.
	lambdaAPI = "api"
	// lambdaFanOut fills feeds from a DynamoDB Streams event source mapping.
	lambdaFanOut = "fanout"
)

// processStart is when the process's Go code began, for the init duration `lambda` logs: the
// package's variables are set before main runs, after only the runtime's own start.
var processStart = time.Now()

// lambdaConfig is the configuration of `quickphotos lambda`, read from the function's
// environment like every command's flags.
type lambdaConfig struct {
	handler string
	store   storeConfig
	api     apiConfig
	feed    feed.Config
	media   mediaConfig
}

func (c *lambdaConfig) register(f *flags) {
	f.String(&c.handler, "lambda-handler", lambdaFanOut, `what the function runs: "api" (the GraphQL API behind an API Gateway HTTP API or a Function URL, payload format 2.0) or "fanout" (the feed's fan-out behind a DynamoDB Streams event source mapping)`)
	c.store.register(f)
	c.api.register(f)
	registerFeed(f, &c.feed)
	f.String(&c.media.kind, "media-store", mediaNone, `where photo files live: s3 (--media-bucket: the API takes uploads, the fan-out deletes a deleted photo's images), or none (uploads of files refused); a function's instances share no disk, so there is no embedded store`)
	c.media.registerStore(f)
}

// mediaStore is the function's photo files' store: nil with --media-store none.
func (c *lambdaConfig) mediaStore() (*mediaConfig, error) {
	switch c.media.kind {
	case mediaNone:
		return nil, nil
	case mediaS3:
		return &c.media, nil
	default:
		return nil, fmt.Errorf("--media-store (%s) %q: a Lambda function's is %s or %s (its instances share no disk)", envName("media-store"), c.media.kind, mediaS3, mediaNone)
	}
}

// runLambda runs `quickphotos lambda`, the binary as the bootstrap of a provided.al2023
// function: the GraphQL API or the feed's fan-out, as --lambda-handler says. The store is
// Amazon DynamoDB (or --endpoint-url), reached with the function's role. Nothing at start-up
// calls DynamoDB: every cold start would pay for a check that a missing table fails on the
// first request anyway (the API logs the cause and /readyz answers 503; the fan-out's batch
// fails and Lambda retries it).
func runLambda(ctx context.Context, args []string, _, stderr io.Writer) error {
	var cfg lambdaConfig
	f := newFlags("lambda", stderr)
	cfg.register(f)
	f.epilogue = "\nRun by AWS Lambda as a provided.al2023 function's bootstrap; see docs/lambda.md.\n"
	if err := f.parse(args); err != nil {
		return err
	}
	if os.Getenv(lambdaRuntimeEnv) == "" {
		return errors.New("lambda: run by AWS Lambda only (" + lambdaRuntimeEnv + " is not set); elsewhere run `quickphotos serve` or `quickphotos stream`")
	}
	log, err := cfg.api.logger(stderr)
	if err != nil {
		return err
	}
	slog.SetDefault(log) // the fan-out logs through the default logger
	function, closeFn, err := cfg.function(ctx, log)
	if err != nil {
		return err
	}
	defer closeFn()
	log.Info("lambda: ready", "handler", cfg.handler, "init_ms", float64(time.Since(processStart).Microseconds())/1000)
	lambda.StartWithOptions(function, lambda.WithContext(ctx))
	return nil
}

// function is the Lambda handler the configuration asks for, and what closes it.
func (c *lambdaConfig) function(ctx context.Context, log *slog.Logger) (any, func(), error) {
	var lc lifecycle
	fn, err := c.open(ctx, &lc, log)
	if err != nil {
		lc.close()
		return nil, nil, err
	}
	return fn, lc.close, nil
}

// open opens the handler the configuration asks for onto lc.
func (c *lambdaConfig) open(ctx context.Context, lc *lifecycle, log *slog.Logger) (any, error) {
	if c.store.kind != storeEmbedded && c.store.kind != storeDynamoDB {
		return nil, fmt.Errorf("--store %q: a Lambda function's store is %s", c.store.kind, storeDynamoDB)
	}
	if err := checkSyncRetention(c.feed.SyncRetention); err != nil {
		return nil, err
	}
	// The embedded engine keeps its data in a file of one process; a function's instances are
	// many, and their disks are gone when they are: the store is always DynamoDB.
	c.store.kind = storeDynamoDB
	switch c.handler {
	case lambdaAPI:
		tuneLambdaGC(os.Getenv)
		// As in serve: a request's resolver goroutines start with stacks they need not grow.
		startStackBallast()
		return c.apiFunction(ctx, lc, log)
	case lambdaFanOut:
		tuneLambdaGC(os.Getenv)
		m, err := c.mediaStore()
		if err != nil {
			return nil, err
		}
		b, err := openBackend(ctx, lc, opening{store: c.store, media: m, log: log})
		if err != nil {
			return nil, err
		}
		return fanOutFunction(feed.NewFanOut(b.store, c.feed), b.images()), nil
	default:
		return nil, fmt.Errorf("--lambda-handler (%s) %q: want %s or %s", envName("lambda-handler"), c.handler, lambdaAPI, lambdaFanOut)
	}
}

// apiFunction serves the API as `serve` does, from the same flags, with what a function lacks
// left out: subscriptions (they need a connection that outlives the invocation), /metrics
// (nothing scrapes a function; its logs and traces remain) and the background work of a server
// (the feed's consumer is the fanout function; photo deletions a stopped server left are
// finished by a `serve` or `quickphotos check --finish-deletions`).
func (c *lambdaConfig) apiFunction(ctx context.Context, lc *lifecycle, log *slog.Logger) (any, error) {
	if err := c.api.settle(c.store.kind); err != nil {
		return nil, err
	}
	verifier, authSays, err := c.api.auth.open(ctx, lc, lambdaAddr{})
	if err != nil {
		return nil, err
	}
	if _, err := startTracing(ctx, lc); err != nil {
		return nil, err
	}
	m, err := c.mediaStore()
	if err != nil {
		return nil, err
	}
	tel := telemetry.New(telemetry.Options{Logger: log})
	b, err := openBackend(ctx, lc, opening{store: c.store, media: m, tel: tel, log: log})
	if err != nil {
		return nil, err
	}
	parts := apiParts{store: b.store, log: log, verifier: verifier, tel: tel, metricsElsewhere: true, syncRetention: c.feed.SyncRetention}
	mediaSays := "none: uploads of files are refused"
	if b.media != nil {
		parts.media, mediaSays = b.media.service, b.media.says
	}
	log.Info("lambda: serving the GraphQL API", "table", c.store.table, "store", c.store.describe(), "authentication", authSays, "photo_files", mediaSays, "trusted_documents", c.api.trusted.describe())
	return lambdahttp.Handler(c.api.handler(parts)), nil
}

// fanOutFunction is the fan-out's handler, refusing an HTTP event with an error that says what
// the function is: an API's route pointed at the fan-out would otherwise decode as a batch of
// no records and succeed. With images (a media store), the images of the photos the batch
// removed go once the feed has taken it, as serve's feed consumer does.
func fanOutFunction(fanOut *feed.FanOut, images *media.Service) func(context.Context, lambdaStreamEvent) (events.DynamoDBEventResponse, error) {
	return func(ctx context.Context, event lambdaStreamEvent) (events.DynamoDBEventResponse, error) {
		if event.RequestContext != nil || (len(event.Records) == 0 && event.Version != "") {
			return events.DynamoDBEventResponse{}, fmt.Errorf("lambda: this function runs the feed's fan-out (%s=%s) and takes DynamoDB Streams events; it was invoked with an HTTP event: set %s=%s on the API's function",
				envName("lambda-handler"), lambdaFanOut, envName("lambda-handler"), lambdaAPI)
		}
		resp, err := fanOut.HandleLambda(ctx, event.DynamoDBEvent)
		if err != nil || images == nil {
			return resp, err
		}
		return forgetImages(ctx, images, event.Records, resp), nil
	}
}

// forgetImages deletes the images of the photos removed by the records the fan-out took, in
// order: those before the first record it failed, which Lambda hands the function again with
// the rest. A record whose images could not go becomes the first failure instead, so nothing
// after it is lost either; the fan-out of the records retried is idempotent.
func forgetImages(ctx context.Context, images *media.Service, records []events.DynamoDBEventRecord, resp events.DynamoDBEventResponse) events.DynamoDBEventResponse {
	taken := len(records)
	if len(resp.BatchItemFailures) > 0 {
		for i, r := range records {
			if r.Change.SequenceNumber == resp.BatchItemFailures[0].ItemIdentifier {
				taken = i
				break
			}
		}
	}
	for _, r := range records[:taken] {
		change, ok, err := dynamo.ChangeFromLambdaRecord(r)
		if err != nil || !ok {
			continue // the fan-out logged a record it could not read
		}
		if err := images.Forget(ctx, []domain.Change{change}); err != nil {
			slog.WarnContext(ctx, "media: deleting a deleted photo's images failed; Lambda retries from its record", "event_id", r.EventID, "error", err)
			return events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{{ItemIdentifier: r.Change.SequenceNumber}}}
		}
	}
	return resp
}

// lambdaStreamEvent is a DynamoDB Streams event, with the fields by which an HTTP event
// invoking the wrong function is told apart.
type lambdaStreamEvent struct {
	events.DynamoDBEvent
	Version        string    `json:"version"`
	RequestContext *struct{} `json:"requestContext"`
}

// lambdaAddr stands for where a function is reached: API Gateway or a Function URL, open to
// the internet, so the API runs without a verifier only under --auth none.
type lambdaAddr struct{}

func (lambdaAddr) Network() string { return "lambda" }

func (lambdaAddr) String() string { return "an AWS Lambda function (API Gateway or a Function URL)" }
