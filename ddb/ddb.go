package ddb

import (
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/sdkapi"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// FileName is the name of the bbolt data file Open creates inside its
// directory.
const FileName = storage.FileName

// FormatVersion is the on-disk format this version of the engine writes.
const FormatVersion = storage.FormatVersion

// MaxRequestBytes is DynamoDB's limit on a request body: 16 MiB. A larger
// body is refused with HTTP 413.
const MaxRequestBytes = engine.MaxRequestBytes

// DefaultRequestMemory is the default of Options.RequestMemory: four bodies
// of the largest size at once.
const DefaultRequestMemory = wire.DefaultRequestMemory

// Stream durations: how long a shard takes records before it is closed
// (Options.StreamShardDuration), how long records are kept, and how long a
// shard iterator is valid.
const (
	DefaultStreamShardDuration = engine.DefaultStreamShardDuration
	StreamRetention            = engine.StreamRetention
	ShardIteratorLifetime      = engine.ShardIteratorLifetime
)

// Sentinel errors returned by Open and Close. Errors returned to DynamoDB
// clients travel as *Error values instead and are written by ServeHTTP.
var (
	// ErrFormatVersion is returned by Open when the data file was written
	// by an incompatible version of the engine (its format-version record
	// differs from FormatVersion).
	ErrFormatVersion = storage.ErrFormatVersion

	// ErrNotDir is returned by Open when dir exists and is not a directory.
	ErrNotDir = storage.ErrNotDir

	// ErrLocked is returned by Open when another process (or another Engine
	// in this one) has the data file open: bbolt allows one writer per file.
	ErrLocked = storage.ErrLocked

	// ErrClosed is returned (as an InternalServerError to clients) by any
	// operation on an Engine after Close.
	ErrClosed = storage.ErrClosed
)

// Options configure an Engine. The zero value is usable.
type Options struct {
	// TTLSweepInterval is how often the background sweeper deletes expired
	// items. Zero means one minute; a negative value disables the sweeper
	// (expired items are still never returned, only not deleted). A sweep
	// reads only the entries of the expiry index that are due (internal/storage/expiry.go).
	// The same sweeper trims stream records past StreamRetention
	// (TrimStreams).
	TTLSweepInterval time.Duration

	// Now returns the current time; nil means time.Now. Tests use it to
	// move the clock for TTL and idempotency tokens.
	Now func() time.Time

	// NoSync disables fsync on commit. Only for tests: acknowledged writes
	// may be lost on power failure.
	NoSync bool

	// Region and AccountID appear in table and index ARNs. They default to
	// "local" and "000000000000".
	Region    string
	AccountID string

	// RequestMemory bounds the bytes of request bodies held at once by
	// ServeHTTP, across all requests; a request waits for its share before
	// its body is read. Zero means DefaultRequestMemory; a budget too small
	// for one body of unknown length (about 33 MiB: see internal/wire/requestbody.go) is
	// raised to it.
	RequestMemory int64

	// StreamShardDuration is how long a stream's shard takes records before
	// it is closed and followed by a child shard. Zero means
	// DefaultStreamShardDuration (four hours, as DynamoDB).
	StreamShardDuration time.Duration

	// OpenTimeout bounds how long Open waits for the file lock held by
	// another process before it returns ErrLocked. Zero means 100 ms: long
	// enough for a process that is closing to let go, short enough that a
	// second server on the same directory is told at once.
	OpenTimeout time.Duration

	// upgradeBatchBytes bounds the bytes of entries an upgrade puts in one
	// write transaction of the new file (internal/storage/upgrade.go); zero means
	// defaultUpgradeBatchBytes. Tests make it small, to see many batches.
	upgradeBatchBytes int
	// upgradeHook, when not nil, is called at each stage of an upgrade;
	// an error stops the upgrade there. Tests measure memory from it, or
	// kill the process to see what a crash at that stage leaves.
	upgradeHook func(stage storage.UpgradeStage, batches int) error
	// openedHook, when not nil, is called once openFile has the file of
	// its attempt open, before it waits for the lock; attempt 1 and later
	// are retries on a file another engine replaced. Tests see the retry.
	openedHook func(attempt int)
}

// engineOptions converts opts, which may be nil, into the engine's.
func engineOptions(opts *Options) *engine.Options {
	if opts == nil {
		return nil
	}
	return &engine.Options{
		TTLSweepInterval: opts.TTLSweepInterval,
		Region:           opts.Region,
		AccountID:        opts.AccountID,
		StoreOptions: storage.StoreOptions{
			Now:                 opts.Now,
			NoSync:              opts.NoSync,
			StreamShardDuration: opts.StreamShardDuration,
			OpenTimeout:         opts.OpenTimeout,
			UpgradeBatchBytes:   opts.upgradeBatchBytes,
			UpgradeHook:         opts.upgradeHook,
			OpenedHook:          opts.openedHook,
		},
	}
}

// Error is a DynamoDB protocol error: Type is the exception name without its
// namespace (e.g. "ValidationException"), Message the text DynamoDB sends.
type Error = engine.Error

// DiskUsage is where a data file's bytes go (Engine.DiskUsage), with its
// parts.
type (
	DiskUsage   = storage.DiskUsage
	TableUsage  = storage.TableUsage
	BucketUsage = storage.BucketUsage
	NamedUsage  = storage.NamedUsage
)

// API is the engine's typed DynamoDB API in process (Engine.API), and
// StreamsAPI its typed DynamoDB Streams API (Engine.StreamsAPI).
type (
	API        = sdkapi.API
	StreamsAPI = sdkapi.StreamsAPI
)

// ServerOptions are the timeouts of the engine's HTTP listener (NewServer);
// a zero field takes its default from DefaultServerOptions.
type ServerOptions = wire.ServerOptions

// DefaultServerOptions are the HTTP listener's default timeouts.
var DefaultServerOptions = wire.DefaultServerOptions

// Engine is an embedded, durable DynamoDB-compatible database. It is safe
// for concurrent use; its ServeHTTP speaks the DynamoDB JSON 1.0 protocol,
// API and StreamsAPI serve the SDK's typed API in process. It wires the
// operations (package engine) to the front-ends that serve them (packages
// wire and sdkapi).
type Engine struct {
	core *engine.Engine
	wire *wire.Handler
}

// Open opens (creating if needed) the engine stored in dir. It returns
// ErrFormatVersion when the file was written with another format version,
// ErrNotDir when dir is not a directory, and ErrLocked, naming the file,
// when another process has it open. The caller must Close the Engine.
//
// A file of format 1, 2 or 3 is upgraded first: Open writes the upgraded
// file beside it, which needs free disk space for the upgraded data (a
// third to a quarter of the old file, for the sample data), and reads the
// old file once; the heap stays bounded whatever the file's size.
func Open(dir string, opts *Options) (*Engine, error) {
	core, err := engine.Open(dir, engineOptions(opts))
	return wrap(core, opts, err)
}

// OpenMemory opens an engine whose data lives only in memory, like DynamoDB
// Local's -inMemory: nothing is written to a data directory, nothing is
// fsynced, and everything is gone after Close. Options.NoSync is ignored.
func OpenMemory(opts *Options) (*Engine, error) {
	core, err := engine.OpenMemory(engineOptions(opts))
	return wrap(core, opts, err)
}

// wrap puts the front-ends around an opened core.
func wrap(core *engine.Engine, opts *Options, err error) (*Engine, error) {
	if err != nil {
		return nil, err
	}
	var requestMemory int64
	if opts != nil {
		requestMemory = opts.RequestMemory
	}
	return &Engine{core: core, wire: wire.NewHandler(core, requestMemory)}, nil
}

// Close stops the TTL sweeper and closes the data file. It waits for
// in-flight transactions. Calling Close more than once returns the first
// result.
func (e *Engine) Close() error { return e.core.Close() }

// DiskUsage reports where the data file's bytes go, per table and bucket.
func (e *Engine) DiskUsage() (*DiskUsage, error) { return e.core.DiskUsage() }

// SweepExpired deletes the expired items of every table with TTL enabled,
// as the background sweeper does, and returns how many it deleted.
func (e *Engine) SweepExpired() (int, error) { return e.core.SweepExpired() }

// TrimStreams deletes the stream records older than StreamRetention, as the
// background sweeper does, and returns how many it deleted.
func (e *Engine) TrimStreams() (int, error) { return e.core.TrimStreams() }

// ServeHTTP implements http.Handler with the DynamoDB JSON 1.0 protocol:
// POST with X-Amz-Target "DynamoDB_20120810.<Operation>" and a JSON body.
// Signatures are not verified; any credentials are accepted.
func (e *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) { e.wire.ServeHTTP(w, r) }

// NewServer returns an http.Server for e's DynamoDB API with the timeouts
// of opts. Request bodies are bounded by MaxRequestBytes each and by
// Options.RequestMemory together. Serve it with srv.Serve(ln); bind it to
// loopback, as it has no authentication.
func (e *Engine) NewServer(opts ServerOptions) *http.Server { return wire.NewServer(e, opts) }

// NewTransport returns an http.RoundTripper that serves every request with
// e.ServeHTTP in the calling goroutine, without a socket (see HTTPClient).
func NewTransport(e *Engine) http.RoundTripper { return wire.NewTransport(e) }

// HTTPClient returns an *http.Client whose transport is NewTransport(e).
func (e *Engine) HTTPClient() *http.Client { return &http.Client{Transport: NewTransport(e)} }

// API returns the engine's in-process DynamoDB API, the fast way for code in
// this process to use it: see API. Client serves the same API through
// the SDK over an in-memory HTTP transport, for code that needs a
// *dynamodb.Client.
func (e *Engine) API() *API { return sdkapi.New(e.core) }

// StreamsAPI returns the engine's in-process DynamoDB Streams API, the fast
// way for code in this process to read the engine's streams: see
// StreamsAPI. StreamsClient serves the same API through the SDK over an
// in-memory HTTP transport, for code that needs a *dynamodbstreams.Client.
func (e *Engine) StreamsAPI() *StreamsAPI { return sdkapi.NewStreams(e.core) }

// Client returns an aws-sdk-go-v2 DynamoDB client that talks to the engine in memory, through
// HTTPClient: no socket, no port, yet every request goes through the same SDK code (signing,
// serialization, retries) as a request to Amazon DynamoDB. optFns adjust the client's options.
func (e *Engine) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	opts := dynamodb.Options{
		// A real region name: for an unknown one the SDK's endpoint resolver recompiles its
		// rules on every request, which doubled an in-process GetItem (ddb/bench's engine-inprocess).
		Region: "us-east-1",
		// The engine accepts any SigV4 credentials; these only satisfy the signer.
		Credentials:  credentials.NewStaticCredentialsProvider("embedded", "embedded", ""),
		BaseEndpoint: aws.String("http://embedded.invalid"),
		HTTPClient:   e.HTTPClient(),
	}
	for _, fn := range optFns {
		fn(&opts)
	}
	return dynamodb.New(opts)
}

// StreamsClient returns an aws-sdk-go-v2 DynamoDB Streams client that talks to the engine in
// memory, as Client does: a consumer of the engine's streams (ListStreams, DescribeStream,
// GetShardIterator, GetRecords) runs the same code as against Amazon DynamoDB Streams.
func (e *Engine) StreamsClient(optFns ...func(*dynamodbstreams.Options)) *dynamodbstreams.Client {
	opts := dynamodbstreams.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("embedded", "embedded", ""),
		BaseEndpoint: aws.String("http://embedded.invalid"),
		HTTPClient:   e.HTTPClient(),
	}
	for _, fn := range optFns {
		fn(&opts)
	}
	return dynamodbstreams.New(opts)
}
