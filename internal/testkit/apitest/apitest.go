// Package apitest starts real quickphotos servers for integration tests: the HTTP API of
// package api on a free 127.0.0.1 port, over a real store — DynamoDB Local (launched once per
// test binary by Main) or the embedded engine — with a table of its own per test. Its helpers
// make a test read like the scenario it checks:
//
//	srv := apitest.NewServer(t)
//	srv.MustCreateUser(t, "alice")
//	resp := srv.Query(t, `{ user(username: "alice") { name } }`, nil)
package apitest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/lambdahttp"
	"github.com/quickphotos/quickphotos/internal/testkit/dynamodblocal"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/stream"
)

// StoreEnv selects the store integration tests run on: "embedded" (the default) for the
// embedded engine, a new one per server, reached through its in-process APIs (DynamoDB and
// Streams) as serve reaches it; "embedded-sdk" for the same engine reached through SDK clients
// over its in-memory HTTP transport; or "dynamodb-local" for the official DynamoDB Local,
// launched once per test binary by Main. The same tests run on all three.
const StoreEnv = "QUICKPHOTOS_TEST_STORE"

// The stores StoreEnv names.
const (
	StoreEmbedded      = "embedded"
	StoreEmbeddedSDK   = "embedded-sdk"
	StoreDynamoDBLocal = "dynamodb-local"
)

// EdgeEnv selects how the tests' requests reach the API: "http" (the default), the handler
// on a real HTTP server, as `quickphotos serve` runs it; or "lambda", through the AWS Lambda
// function `quickphotos lambda` runs (package lambdahttp), each request turned into the event
// API Gateway sends (payload format 2.0) by a Gateway in front of it. The same scenarios run
// through both; under "lambda" a server with subscriptions skips its test, as a function does
// not hold their connections.
const EdgeEnv = "QUICKPHOTOS_TEST_EDGE"

// The edges EdgeEnv names.
const (
	EdgeHTTP   = "http"
	EdgeLambda = "lambda"
)

// Edge is the edge the tests of this binary send their requests through.
func Edge() string {
	if v := os.Getenv(EdgeEnv); v != "" {
		return v
	}
	return EdgeHTTP
}

// front is what the test server serves for handler on the edge the tests run through.
func front(t testing.TB, handler http.Handler, subscriptions bool) http.Handler {
	t.Helper()
	switch Edge() {
	case EdgeHTTP:
		return handler
	case EdgeLambda:
		if subscriptions {
			t.Skip("subscriptions need a connection that outlives a request, which a Lambda function does not hold (docs/lambda.md)")
		}
		return lambdahttp.NewGateway(lambdahttp.Handler(handler))
	default:
		t.Fatalf("%s=%q: want %s or %s", EdgeEnv, Edge(), EdgeHTTP, EdgeLambda)
		return nil
	}
}

// Backend is the store the tests of this binary run on.
func Backend() string {
	if v := os.Getenv(StoreEnv); v != "" {
		return v
	}
	return StoreEmbedded
}

var (
	local  *dynamodblocal.Instance
	tables atomic.Int64
)

// Main is a TestMain body: it launches the store the tests need, runs them, and stops it.
func Main(m *testing.M) int {
	switch Backend() {
	case StoreEmbedded, StoreEmbeddedSDK:
		return m.Run()
	case StoreDynamoDBLocal:
		return dynamodblocal.Main(m, &local)
	default:
		fmt.Fprintf(os.Stderr, "FAIL: %s=%q: want %s, %s or %s\n", StoreEnv, Backend(), StoreEmbedded, StoreEmbeddedSDK, StoreDynamoDBLocal)
		return 2
	}
}

// Server is a running quickphotos API over its own, new table. The requests it sends carry
// its header; As returns a copy whose requests carry a user's token.
type Server struct {
	URL string
	// Handler is the API itself, for benchmarks that call it in-process (no socket).
	Handler http.Handler
	Store   *dynamo.Store
	// Media and Blobs are the media service and its store, nil without WithMedia.
	Media   *media.Service
	Blobs   blob.Store
	client  storeClient
	streams stream.API
	hub     *live.Hub
	table   string
	// secret signs tokens when the server authenticates (WithAuth), nil otherwise, with the
	// clock of authOpts, the verifier's.
	secret   []byte
	authOpts auth.Options
	header   http.Header
}

// Option changes how NewServer configures the server.
type Option func(*options)

type options struct {
	poll     time.Duration
	config   func(*api.Config)
	observer dynamo.Observer
	auth     *auth.Options
	feed     *feed.Config
	live     *live.Config
	media    *mediaOptions
}

// WithConfig lets a test change the API's configuration before the server starts; several
// apply in turn.
func WithConfig(change func(*api.Config)) Option {
	return func(o *options) {
		earlier := o.config
		o.config = func(c *api.Config) {
			if earlier != nil {
				earlier(c)
			}
			change(c)
		}
	}
}

// WithStoreObserver makes the server's store report every DynamoDB request to observer.
func WithStoreObserver(observer dynamo.Observer) Option {
	return func(o *options) { o.observer = observer }
}

// WithAuth makes the server authenticate callers with HS256 tokens signed by a secret of its
// own; Token and As mint them. The Must… helpers then act as the user they name.
func WithAuth() Option {
	return WithAuthOptions(auth.Options{})
}

// WithAuthOptions is WithAuth with a verifier of these options: a test's clock (which
// Token and TokenFor then mint by too), or another leeway.
func WithAuthOptions(opts auth.Options) Option {
	return func(o *options) { o.auth = &opts }
}

// WithFeed runs the feed's stream consumer beside the server, as serve does, reading the
// table's stream every FeedPoll. Feeds are eventually consistent: check them with Eventually.
func WithFeed(cfg feed.Config) Option {
	return func(o *options) { o.feed = &cfg }
}

// Eventually calls check until it reports success, for at most 10 seconds (a feed normally
// catches up in milliseconds), and fails the test with check's last account of what it saw.
func Eventually(t testing.TB, what string, check func() (ok bool, saw string)) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, saw := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still not so after 10s; last saw %s", what, saw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WithLive makes the server deliver subscriptions, as serve does: a hub fed by a stream
// consumer of its own, reading every FeedPoll.
func WithLive(cfg live.Config) Option {
	return func(o *options) { o.live = &cfg }
}

// WithStreamPoll makes the server's stream consumers poll every d instead of FeedPoll: a
// benchmark measures with serve's own polling.
func WithStreamPoll(d time.Duration) Option {
	return func(o *options) { o.poll = d }
}

// FeedPoll is how often test servers' feed consumers read an open shard that had nothing new.
const FeedPoll = 10 * time.Millisecond

// BatchWait is the dataloader batch window of test servers. Tests assert how many DynamoDB
// requests an operation costs, and under the race detector, with other packages' tests on
// the same cores, resolver goroutines sometimes started after serve's 5 ms window had
// closed, splitting one batch in two.
const BatchWait = 25 * time.Millisecond

// NewServer starts a server on a free 127.0.0.1 port over a new table, both removed when
// the test ends.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.live != nil {
		front(t, nil, true) // skips before a table is made
	}
	client, streams := newClients(t)
	table := fmt.Sprintf("qp-%d-%d", os.Getpid(), tables.Add(1))
	var storeOpts []dynamo.Option
	if o.observer != nil {
		storeOpts = append(storeOpts, dynamo.WithObserver(o.observer))
	}
	store := dynamo.New(client, table, storeOpts...)
	if err := store.CreateTable(context.Background()); err != nil {
		t.Fatalf("create table: %v", err)
	}
	srv := &Server{Store: store, client: client, streams: streams, table: table, header: http.Header{}}
	cfg := api.Config{Store: store, BatchWait: BatchWait}
	if o.auth != nil {
		srv.secret = make([]byte, 32)
		_, _ = rand.Read(srv.secret)
		srv.authOpts = *o.auth
		v, err := auth.NewHS256(srv.secret, *o.auth)
		if err != nil {
			t.Fatalf("verifier: %v", err)
		}
		cfg.Verifier = v
	}
	poll := FeedPoll
	if o.poll > 0 {
		poll = o.poll
	}
	var consumers []*stream.Consumer
	var liveReady chan struct{}
	if o.live != nil {
		cfg.Live = live.NewHub(*o.live)
		liveReady = make(chan struct{})
		consumers = append(consumers, &stream.Consumer{Streams: streams, Store: store, Handle: cfg.Live.Handle, Poll: poll,
			Ready: func() { close(liveReady) }})
	}
	if o.media != nil {
		consumers = append(consumers, srv.startMedia(t, &cfg, *o.media, poll))
	}
	if o.feed != nil {
		consumers = append(consumers, &stream.Consumer{Name: "feed", Streams: streams, Store: store, Handle: feed.NewFanOut(store, *o.feed).Handle, Poll: poll})
	}
	if o.config != nil {
		o.config(&cfg)
	}
	srv.hub = cfg.Live
	srv.Handler = api.New(cfg)
	httpSrv := httptest.NewServer(front(t, srv.Handler, cfg.Live != nil))
	srv.URL = httpSrv.URL
	stopConsumers := runConsumers(t, consumers)
	t.Cleanup(func() {
		stopConsumers()
		httpSrv.Close()
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &table})
	})
	if liveReady != nil {
		awaitReady(t, liveReady)
	}
	return srv
}

// Twin starts a second server instance over the same table, as a second instance behind a
// load balancer: its own API and, for subscriptions, its own hub and stream consumer.
func (s *Server) Twin(t testing.TB, cfg live.Config) *Server {
	t.Helper()
	twin := *s
	apiCfg := api.Config{Store: s.Store, BatchWait: BatchWait, Live: live.NewHub(cfg)}
	twin.hub = apiCfg.Live
	twin.Handler = api.New(apiCfg)
	httpSrv := httptest.NewServer(front(t, twin.Handler, true))
	twin.URL = httpSrv.URL
	ready := make(chan struct{})
	stop := runConsumers(t, []*stream.Consumer{{Streams: s.streams, Store: s.Store, Handle: apiCfg.Live.Handle, Poll: FeedPoll,
		Ready: func() { close(ready) }}})
	t.Cleanup(func() { stop(); httpSrv.Close() })
	awaitReady(t, ready)
	return &twin
}

// Hub is the server's subscription hub, nil without WithLive.
func (s *Server) Hub() *live.Hub { return s.hub }

// Token mints a token for username, valid for an hour, signed with the server's secret.
func (s *Server) Token(t testing.TB, username string) string {
	t.Helper()
	return s.TokenFor(t, username, time.Hour)
}

// TokenFor mints a token for username valid for ttl from now, by the verifier's clock.
func (s *Server) TokenFor(t testing.TB, username string, ttl time.Duration) string {
	t.Helper()
	if s.secret == nil {
		t.Fatal("apitest: Token needs a server started WithAuth")
	}
	token, err := auth.Mint(s.secret, username, ttl, auth.Options{UsernameClaim: s.authOpts.UsernameClaim, Now: s.authOpts.Now})
	if err != nil {
		t.Fatalf("mint token for %q: %v", username, err)
	}
	return token
}

// As returns the server as seen by username: its requests carry username's token.
func (s *Server) As(t testing.TB, username string) *Server {
	t.Helper()
	return s.WithHeader("Authorization", "Bearer "+s.Token(t, username))
}

// WithHeader returns the server as seen by a client that sends this header on every request.
func (s *Server) WithHeader(name, value string) *Server {
	c := *s
	c.header = s.header.Clone()
	c.header.Set(name, value)
	return &c
}

// actingAs is the server as seen by username when it authenticates, else the server itself:
// the Must… helpers set up data, which only its owner may write.
func (s *Server) actingAs(t testing.TB, username string) *Server {
	if s.secret == nil {
		return s
	}
	return s.As(t, username)
}

// awaitReady waits until a live stream consumer is positioned, as serve does before it
// listens: a subscription then sees every change made after it started.
func awaitReady(t testing.TB, ready <-chan struct{}) {
	t.Helper()
	select {
	case <-ready:
	case <-time.After(LiveTimeout):
		t.Fatal("the stream consumer of subscriptions never got to the stream's end")
	}
}

// runConsumers runs consumers until the returned stop.
func runConsumers(t testing.TB, consumers []*stream.Consumer) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, c := range consumers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Run(ctx); err != nil && ctx.Err() == nil {
				t.Errorf("stream consumer %q: %v", c.Name, err)
			}
		}()
	}
	return func() { cancel(); wg.Wait() }
}

// storeClient is what the tests use of the store: the store's API, and DeleteTable to remove
// their table. *dynamodb.Client and the embedded engine's in-process API (*ddb.API) both
// implement it.
type storeClient interface {
	dynamo.API
	DeleteTable(context.Context, *dynamodb.DeleteTableInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error)
}

// newClients returns a client of the test binary's store and of its stream: a new embedded
// engine in a temporary directory, closed when the test ends, or the shared DynamoDB Local.
func newClients(t testing.TB) (storeClient, stream.API) {
	if b := Backend(); b == StoreEmbedded || b == StoreEmbeddedSDK {
		engine, err := ddb.Open(t.TempDir(), nil)
		if err != nil {
			t.Fatalf("open engine: %v", err)
		}
		t.Cleanup(func() {
			if err := engine.Close(); err != nil {
				t.Errorf("close engine: %v", err)
			}
		})
		if b == StoreEmbeddedSDK {
			return engine.Client(), engine.StreamsClient()
		}
		return engine.API(), engine.StreamsAPI()
	}
	if local == nil {
		t.Fatal("apitest: DynamoDB Local is not running; call apitest.Main from TestMain")
	}
	return local.Client(), local.StreamsClient()
}

// Response is a GraphQL response.
type Response struct {
	Data       json.RawMessage `json:"data"`
	Errors     []Error         `json:"errors"`
	Extensions struct {
		Cost *dynamo.CostSnapshot `json:"cost"`
	} `json:"extensions"`
	// Status is the HTTP status code.
	Status int `json:"-"`
	// Header is the HTTP response's header.
	Header http.Header `json:"-"`
}

// Error is one GraphQL error.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Code is the extensions.code of the response's first error, "" when there is none.
func (r *Response) Code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	code, _ := r.Errors[0].Extensions["code"].(string)
	return code
}

// Cost is the response's extensions.cost; Query always asks for it.
func (r *Response) Cost(t testing.TB) dynamo.CostSnapshot {
	t.Helper()
	if r.Extensions.Cost == nil {
		t.Fatal("response has no extensions.cost")
	}
	return *r.Extensions.Cost
}

// Decode unmarshals the response's data into v, failing the test when the response has errors.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("unexpected errors: %+v", r.Errors)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode %s: %v", r.Data, err)
	}
}

// Query posts a GraphQL operation with the cost header set and returns the response.
func (s *Server) Query(t testing.TB, query string, vars map[string]any) *Response {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, s.URL+api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.CostHeader, "1")
	return s.do(t, req)
}

// QueryWithin is Query for a read whose DynamoDB requests the test counts: the query is sent
// again, at most twice, while it costs more than budget requests. The dataloaders group what
// resolvers ask for within BatchWait, and under the race detector, on cores shared with other
// packages' tests, a resolver goroutine can start after the window closed and split a batch in
// two. A read that costs more than its budget every time still fails its test.
func (s *Server) QueryWithin(t testing.TB, budget int, query string, vars map[string]any) *Response {
	t.Helper()
	var resp *Response
	for range 3 {
		if resp = s.Query(t, query, vars); resp.Extensions.Cost == nil || resp.Extensions.Cost.Requests <= budget {
			break
		}
	}
	return resp
}

// Do sends req and decodes its GraphQL response.
func (s *Server) do(t testing.TB, req *http.Request) *Response {
	t.Helper()
	for name, values := range s.header {
		req.Header[name] = values
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	var r Response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("decode response (status %d): %v", resp.StatusCode, err)
	}
	r.Status = resp.StatusCode
	r.Header = resp.Header
	return &r
}

// Get sends a GraphQL query as GET /graphql?query=…, with extra headers.
func (s *Server) Get(t testing.TB, query string, header http.Header) *Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+api.Endpoint+"?query="+url.QueryEscape(query), nil)
	for k, v := range header {
		req.Header[k] = v
	}
	return s.do(t, req)
}

// ItemCount is the number of items in the server's table, read with a consistent Scan: tests
// use it to check that a refused write wrote nothing.
func (s *Server) ItemCount(t testing.TB) int {
	t.Helper()
	var n int32
	in := &dynamodb.ScanInput{TableName: &s.table, Select: types.SelectCount, ConsistentRead: aws.Bool(true)}
	for {
		out, err := s.client.Scan(context.Background(), in)
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		n += out.Count
		if out.LastEvaluatedKey == nil {
			return int(n)
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// Contents is everything in the server's table, read with a consistent Scan and sorted by
// key: tests compare it (reflect.DeepEqual) before and after a refused write to prove that
// nothing changed.
func (s *Server) Contents(t testing.TB) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	in := &dynamodb.ScanInput{TableName: &s.table, ConsistentRead: aws.Bool(true)}
	for {
		out, err := s.client.Scan(context.Background(), in)
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		items = append(items, out.Items...)
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	key := func(item map[string]types.AttributeValue) string {
		pk, _ := item["PK"].(*types.AttributeValueMemberS)
		sk, _ := item["SK"].(*types.AttributeValueMemberS)
		if pk == nil || sk == nil {
			return ""
		}
		return pk.Value + "\x00" + sk.Value
	}
	sort.Slice(items, func(i, j int) bool { return key(items[i]) < key(items[j]) })
	return items
}

// Secret is the secret that signs the tokens of a server started WithAuth.
func (s *Server) Secret() []byte { return s.secret }

// DeleteTable removes the server's table, as an operator's mistake would.
func (s *Server) DeleteTable(t testing.TB) {
	t.Helper()
	if _, err := s.client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &s.table}); err != nil {
		t.Fatalf("delete table: %v", err)
	}
}

// WriteRaw writes d's entities into the server's table as they are, past the API and its
// transactions (counters are not touched), as another program, or data an older release
// left, would.
func (s *Server) WriteRaw(t testing.TB, d domain.Dataset) {
	t.Helper()
	if _, err := itemfile.LoadDataset(context.Background(), s.client, s.table, &d, nil); err != nil {
		t.Fatalf("write raw: %v", err)
	}
}
