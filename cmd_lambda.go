package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
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
	// lambdaSweep runs serve's background sweeps once an invocation, on a schedule.
	lambdaSweep = "sweep"
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
	f.String(&c.handler, "lambda-handler", lambdaFanOut, `what the function runs: "api" (the GraphQL API behind an API Gateway HTTP API or a Function URL, payload format 2.0), "fanout" (the feed's fan-out behind a DynamoDB Streams event source mapping) or "sweep" (on a schedule: finishes photo deletions cut short, removes expired uploads with the images they left)`)
	c.store.register(f)
	c.api.register(f)
	registerFeed(f, &c.feed)
	f.String(&c.media.kind, "media-store", mediaNone, `where photo files live: s3 (--media-bucket: the API takes uploads, the fan-out deletes a deleted photo's images, the sweep removes expired uploads with what they left), or none (uploads of files refused); a function's instances share no disk, so there is no embedded store`)
	c.media.registerStore(f)
}

// backend opens the store and the photo files of a function that reads the stream or sweeps
// (the fan-out, the sweep), with the media store its flags name.
func (c *lambdaConfig) backend(ctx context.Context, lc *lifecycle, log *slog.Logger) (*backend, error) {
	m, err := c.mediaStore()
	if err != nil {
		return nil, err
	}
	return openBackend(ctx, lc, opening{store: c.store, media: m, log: log})
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
// function: the GraphQL API, the feed's fan-out or the sweeps, as --lambda-handler says. The store is
// Amazon DynamoDB (or --endpoint-url), reached with the function's role. Nothing at start-up
// calls DynamoDB: every cold start would pay for a check that a missing table fails on the
// first request anyway (the API logs the cause and /readyz answers 503; the fan-out's batch
// fails and Lambda retries it; the sweep's run fails and the next one sweeps).
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
		b, err := c.backend(ctx, lc, log)
		if err != nil {
			return nil, err
		}
		return fanOutFunction(feed.NewFanOut(b.store, c.feed), b.images()), nil
	case lambdaSweep:
		tuneLambdaGC(os.Getenv)
		b, err := c.backend(ctx, lc, log)
		if err != nil {
			return nil, err
		}
		mediaSays := "none: no uploads to sweep"
		if b.media != nil {
			mediaSays = b.media.says
		}
		log.Info("lambda: sweeping once an invocation", "table", c.store.table, "store", c.store.describe(), "photo_files", mediaSays)
		return sweepFunction(b.store, b.images(), log), nil
	default:
		return nil, fmt.Errorf("--lambda-handler (%s) %q: want %s, %s or %s", envName("lambda-handler"), c.handler, lambdaAPI, lambdaFanOut, lambdaSweep)
	}
}

// apiFunction serves the API as `serve` does, from the same flags, with what a function lacks
// left out: subscriptions (they need a connection that outlives the invocation), /metrics
// (nothing scrapes a function; its logs and traces remain) and the background work of a server
// (the feed's consumer is the fanout function; the sweeps of photo deletions cut short and of
// expired uploads are the sweep function's).
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
		if event.Source == scheduledEventSource {
			return events.DynamoDBEventResponse{}, wrongFunction("the feed's fan-out", lambdaFanOut, "DynamoDB Streams events", "a scheduled event", lambdaSweep)
		}
		if event.RequestContext != nil || (len(event.Records) == 0 && event.Version != "") {
			return events.DynamoDBEventResponse{}, wrongFunction("the feed's fan-out", lambdaFanOut, "DynamoDB Streams events", "an HTTP event", lambdaAPI)
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

// sweepReserve is how long before the function's timeout a sweep stops, to log and answer
// what it did: Lambda ends an invocation at its timeout, and would lose both.
const sweepReserve = 2 * time.Second

// scheduledEventSource is the source of EventBridge's scheduled events.
const scheduledEventSource = "aws.events"

// sweepFunction is the sweep's handler: once an invocation, it runs the two sweeps serve runs
// every minute in the background, side by side, until they are done or the function's timeout
// is near. The photo deletions begun more than dynamo.DeletionLease ago and not finished (a
// deletePhoto cut short by the API function's timeout) are finished; the uploads expired more
// than media.SweepGrace ago are removed with the staged file and the images an unfinished
// uploadPhoto left under their prefix, outside the bucket's lifecycle rule on staging/. Both
// sweeps are safe side by side with each other, with the API and with another run, and a sweep
// cut short is carried on by the next run. A sweep that failed fails the invocation (Lambda's
// Errors metric); one the timeout cut short does not. images is nil without photo files.
func sweepFunction(store *dynamo.Store, images *media.Service, log *slog.Logger) func(context.Context, lambdaSweepEvent) (sweepReport, error) {
	return func(ctx context.Context, event lambdaSweepEvent) (sweepReport, error) {
		if event.RequestContext != nil {
			return sweepReport{}, wrongFunction("the sweeps", lambdaSweep, "scheduled events", "an HTTP event", lambdaAPI)
		}
		if len(event.Records) > 0 {
			return sweepReport{}, wrongFunction("the sweeps", lambdaSweep, "scheduled events", "a batch of records", lambdaFanOut)
		}
		began := time.Now()
		if deadline, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline.Add(-sweepReserve))
			defer cancel()
		}
		var r sweepReport
		var deletionsErr, uploadsErr error
		var wg sync.WaitGroup
		wg.Go(func() { r.DeletionsFinished, deletionsErr = store.FinishDeletions(ctx, dynamo.DeletionLease) })
		if images != nil {
			wg.Go(func() { r.UploadsSwept, uploadsErr = images.Sweep(ctx) })
		}
		wg.Wait()
		// Past the run's deadline a sweep's error is the deadline's: what it left, the next
		// run finishes.
		r.CutShort = ctx.Err() != nil && (deletionsErr != nil || uploadsErr != nil)
		var err error
		if !r.CutShort {
			if deletionsErr != nil {
				err = fmt.Errorf("finishing photo deletions: %w", deletionsErr)
			}
			if uploadsErr != nil {
				err = errors.Join(err, fmt.Errorf("sweeping expired uploads: %w", uploadsErr))
			}
		}
		attrs := []any{"deletions_finished", r.DeletionsFinished, "uploads_swept", r.UploadsSwept, "ms", time.Since(began).Milliseconds()}
		switch {
		case err != nil:
			log.Error("lambda: sweeping failed; the next run sweeps again", append(attrs, "error", err)...)
		case r.CutShort:
			log.Warn("lambda: swept until the function's timeout; the next run carries on", append(attrs, "deletions_error", deletionsErr, "uploads_error", uploadsErr)...)
		default:
			log.Info("lambda: swept", attrs...)
		}
		return r, err
	}
}

// lambdaSweepEvent is what the sweep function is invoked with: EventBridge's scheduled event,
// or any other object, such as the {} of an operator's `aws lambda invoke` to sweep now. The
// fields are those by which another function's event is told apart.
type lambdaSweepEvent struct {
	Records        []json.RawMessage `json:"Records"`
	RequestContext *struct{}         `json:"requestContext"`
}

// sweepReport is what one run of the sweep function did: its answer to the invocation, and
// its log line.
type sweepReport struct {
	// DeletionsFinished counts the photo deletions it finished.
	DeletionsFinished int `json:"deletionsFinished"`
	// UploadsSwept counts the expired uploads it removed with what they left.
	UploadsSwept int `json:"uploadsSwept"`
	// CutShort is set when the function's timeout ended a sweep before it was done.
	CutShort bool `json:"cutShort,omitempty"`
}

// lambdaStreamEvent is a DynamoDB Streams event, with the fields by which an HTTP event or a
// scheduled one invoking the wrong function is told apart.
type lambdaStreamEvent struct {
	events.DynamoDBEvent
	Version        string    `json:"version"`
	Source         string    `json:"source"`
	RequestContext *struct{} `json:"requestContext"`
}

// wrongFunction is the error of an invocation with another function's event: what this
// function runs and takes, what it got, and the handler that event is for. A route or a
// schedule pointed at the wrong function fails loudly, and says what to set.
func wrongFunction(runs, handler, takes, got, wantHandler string) error {
	return fmt.Errorf("lambda: this function runs %s (%s=%s) and takes %s; it was invoked with %s: set %s=%s on the function it is for",
		runs, envName("lambda-handler"), handler, takes, got, envName("lambda-handler"), wantHandler)
}

// lambdaAddr stands for where a function is reached: API Gateway or a Function URL, open to
// the internet, so the API runs without a verifier only under --auth none.
type lambdaAddr struct{}

func (lambdaAddr) Network() string { return "lambda" }

func (lambdaAddr) String() string { return "an AWS Lambda function (API Gateway or a Function URL)" }
