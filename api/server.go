package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/graph"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
	"github.com/quickphotos/quickphotos/playground"
	"github.com/quickphotos/quickphotos/ratelimit"
	"github.com/quickphotos/quickphotos/resolvers"
	"github.com/quickphotos/quickphotos/telemetry"
)

// Endpoint is the path of the GraphQL API.
const Endpoint = "/graphql"

// MediaPath is where Config.MediaFiles is served: the path the embedded media store signs its
// URLs and forms for.
const MediaPath = blob.FileStorePath

// Config is what the HTTP edge needs. Its zero values are the safe defaults.
type Config struct {
	// Store is the data layer every operation uses.
	Store *dynamo.Store
	// Logger receives internal errors; nil discards them.
	Logger *slog.Logger
	// Verifier authenticates bearer tokens. Nil runs the server without authentication:
	// every caller is trusted (see domain.Trusted), which `quickphotos serve` allows only on
	// a loopback address or when told so explicitly.
	Verifier auth.Verifier
	// Limits bound the operations the server runs; nil means limits.Defaults.
	Limits *limits.Config
	// MaxBodyBytes bounds a request body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// RequestTimeout bounds one GraphQL request, DynamoDB calls included; zero means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// DisableIntrospection refuses __schema and __type queries.
	DisableIntrospection bool
	// TrustedDocuments is the manifest of the documents clients may name by documentId
	// (trusteddocs.go); TrustedDocumentsMode says whether raw queries run beside them. The zero
	// mode is TrustedOff. Under TrustedEnforce the playground is not served: every query it
	// sends would be refused.
	TrustedDocuments     *TrustedDocuments
	TrustedDocumentsMode TrustedDocumentsMode
	// PersistedQueryBytes bounds the automatic persisted query cache; zero means
	// DefaultPersistedQueryBytes.
	PersistedQueryBytes int
	// QueryCacheBytes bounds the cache of parsed GraphQL documents, reckoned from their text;
	// zero means DefaultQueryCacheBytes.
	QueryCacheBytes int
	// CORSOrigins are the browser origins allowed to call the API ("*" for any); none means
	// browsers may call it only from its own origin.
	CORSOrigins []string
	// Telemetry, when set, logs every request, counts it in metrics served at /metrics, and
	// traces it.
	Telemetry *telemetry.Telemetry
	// MetricsElsewhere leaves /metrics out of this handler's routes, for servers that expose
	// the metrics on a listener of their own (serve --metrics-addr) rather than to the API's
	// clients.
	MetricsElsewhere bool
	// MutationRetention is how long the mark of a client mutation id is kept (a replay within
	// it answers from the mark); zero means domain.DefaultMutationRetention.
	MutationRetention time.Duration
	// SyncRetention is how long the change logs keep their entries: an older cursor is
	// refused; zero means domain.DefaultSyncRetention.
	SyncRetention time.Duration
	// BatchWait is how long the entity loader gathers keys before it sends a batch, where a
	// level's fields do not read their entities at once (loaders.Prefetch); zero means
	// loaders.DefaultWait.
	BatchWait time.Duration
	// Live delivers the table's changes to subscriptions (graphql-ws and Server-Sent Events at
	// Endpoint); nil refuses subscriptions.
	Live *live.Hub
	// MaxLiveConnections bounds the open subscription connections; zero means
	// DefaultMaxLiveConnections.
	MaxLiveConnections int
	// Media takes photo uploads and serves their images; nil refuses uploads of files.
	Media *media.Service
	// MediaFiles, when set, is served at MediaPath: the embedded media store's upload forms
	// and signed image URLs (blob.FileStore.Handler). Its requests pass by the GraphQL
	// endpoint's body limit: files are far larger than any GraphQL document, and the store
	// bounds each upload by its signed form.
	MediaFiles http.Handler
	// LiveInitTimeout is how long a WebSocket may take to send connection_init before it is
	// closed with 4408; zero means DefaultLiveInitTimeout.
	LiveInitTimeout time.Duration
	// RateLimit, when set, gives every caller a bucket of DynamoDB capacity units that its
	// operations draw on (ratelimit.go); nil lets every caller spend without a bound.
	RateLimit ratelimit.Limiter
	// TrustedProxies are the addresses of the reverse proxies and load balancers in front of
	// the server: an anonymous caller whose connection comes from one of them is known by the
	// address X-Forwarded-For says it was reached from (clientaddress.go); none: by the
	// connection's address alone.
	TrustedProxies []netip.Prefix
	// App, when set, is served at AppPath: the web app (package web). Its build names its
	// own files by absolute URLs under the path it was built for (web.Prefix), so package web
	// owns the path and the caller passes it here, as api knows nothing of web.
	App http.Handler
	// AppPath is where App is served: a path that begins and ends with "/" (App also answers
	// the path without its final "/" with a redirect to it). It must be set with App.
	AppPath string
	// DevSignIn, when set, signs people in as any username at DevSignInPath (devsignin.go):
	// the development server's, which has no identity provider. It must also be the Verifier.
	// Nil refuses the sign-in with DevSignInRefusal as the reason.
	DevSignIn        *auth.Dev
	DevSignInRefusal string
	// LocalHostsOnly refuses the requests that do not name the server by an IP address or
	// localhost (hosts.go): for a server that trusts every caller because only this machine
	// reaches it (serve open on loopback, or with the development sign-in), which a web page
	// could otherwise reach through a name rebound to 127.0.0.1.
	LocalHostsOnly bool
	// Ready, when set, is asked by /readyz before the store: an error keeps the server out of
	// a load balancer's rotation (503), with the error's text as the reason shown, so it must
	// say nothing secret. serve's says whether the feed has caught up with the table's stream.
	Ready func() error
}

// DefaultMaxBodyBytes bounds request bodies: GraphQL documents are small, and a large body is
// either a mistake or an attack.
const DefaultMaxBodyBytes = 1 << 20

// DefaultRequestTimeout bounds a GraphQL request. Every access pattern is a handful of
// DynamoDB requests; one that takes longer than this is stuck, not slow.
const DefaultRequestTimeout = 10 * time.Second

// New returns the server's HTTP handler: the GraphQL API at Endpoint (POST, and GET for
// queries), the GraphiQL playground at /, the web app at Config.AppPath, the development sign-in at
// DevSignInPath, who a token names at CallerPath, /healthz, /readyz, and /metrics with telemetry
// (unless Config.MetricsElsewhere).
func New(cfg Config) http.Handler {
	cfg = withDefaults(cfg)
	gql := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: &resolvers.Resolver{Store: cfg.Store, Live: cfg.Live, Media: cfg.Media, MutationRetention: cfg.MutationRetention}}))
	rl := newRateLimit(cfg)
	for _, t := range liveTransports(cfg, rl) {
		gql.AddTransport(t)
	}
	gql.AddTransport(transport.GET{})
	gql.AddTransport(postJSON{})
	gql.AddTransport(unsupportedRequest{})
	gql.SetQueryCache(newQueryCache(cfg.QueryCacheBytes))
	gql.SetValidationRulesFn(validationRules)
	gql.Use(trustedDocuments{mode: cfg.TrustedDocumentsMode, docs: cfg.TrustedDocuments}) // before the persisted queries, which it may refuse
	gql.Use(extension.AutomaticPersistedQuery{Cache: newPersistedQueries(cfg.PersistedQueryBytes)})
	gql.Use(documentText{}) // after the persisted queries, which fill in the document
	if !cfg.DisableIntrospection {
		gql.Use(extension.Introspection{})
	}
	// One walk of the operation for the request's checks, before the limits (which check the
	// measures it records): a bad `first` is the client's input, not a cost.
	gql.Use(requestChecks{noIntrospection: cfg.DisableIntrospection})
	gql.Use(limits.New(*cfg.Limits))
	gql.Use(rl)
	ops := perOperation{store: cfg.Store, batchWait: cfg.BatchWait, syncRetention: cfg.SyncRetention, timeout: cfg.RequestTimeout}
	if cfg.Telemetry != nil {
		gql.Use(cfg.Telemetry.GraphQL())
		ops.batches = cfg.Telemetry.Loaders()
	}
	gql.Use(perEvent{})
	gql.Use(ops)
	gql.Use(costReporter{})
	gql.SetErrorPresenter(presentError(cfg.Logger))
	gql.SetRecoverFunc(recoverPanic(cfg.Logger))

	api := limitBody(cfg.MaxBodyBytes, strictRequests(withTimeout(cfg.RequestTimeout, identify(cfg.Verifier, cfg.Logger, askCost(rl.limit(overHTTPStatus(gql)))))))
	liveAPI := limitBody(cfg.MaxBodyBytes, strictRequests(limitLive(cfg.MaxLiveConnections, cfg.Live, identify(cfg.Verifier, cfg.Logger, rl.limit(gql)))))
	api = liveOr(liveAPI, api)
	mux := http.NewServeMux()
	mux.Handle("GET "+Endpoint, api)
	mux.Handle("POST "+Endpoint, api)
	mux.Handle("GET /healthz", http.HandlerFunc(healthz))
	mux.Handle("GET /readyz", readyz(cfg.Store, cfg.Ready, cfg.Logger))
	if cfg.TrustedDocumentsMode != TrustedEnforce {
		mux.Handle("GET /", playground.Handler(Endpoint))
	}
	if cfg.App != nil {
		if len(cfg.AppPath) < 2 || !strings.HasPrefix(cfg.AppPath, "/") || !strings.HasSuffix(cfg.AppPath, "/") {
			panic(fmt.Sprintf("api: Config.AppPath %q is not a path under / ending in /", cfg.AppPath)) // the caller's bug
		}
		mux.Handle("GET "+cfg.AppPath, cfg.App)
		mux.Handle("GET "+strings.TrimSuffix(cfg.AppPath, "/"), http.RedirectHandler(cfg.AppPath, http.StatusMovedPermanently))
	}
	signIn := devSignIn(cfg.DevSignIn, cfg.DevSignInRefusal)
	mux.Handle("GET "+DevSignInPath, signIn)
	mux.Handle("POST "+DevSignInPath, signIn)
	mux.Handle("GET "+CallerPath, caller(cfg.Verifier, cfg.Logger))
	if cfg.Telemetry != nil && !cfg.MetricsElsewhere {
		mux.Handle("GET /metrics", cfg.Telemetry.MetricsHandler())
	}
	if cfg.MediaFiles != nil {
		for _, method := range []string{"GET ", "HEAD ", "POST "} {
			mux.Handle(method+MediaPath, cfg.MediaFiles)
		}
	}
	h := withCORS(cfg.CORSOrigins, endpointMethods(mux))
	if cfg.LocalHostsOnly {
		h = localHostsOnly(h)
	}
	if cfg.Telemetry != nil {
		h = cfg.Telemetry.Middleware(h)
	}
	return h
}

func withDefaults(cfg Config) Config {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Limits == nil {
		cfg.Limits = &limits.Defaults
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.QueryCacheBytes == 0 {
		cfg.QueryCacheBytes = DefaultQueryCacheBytes
	}
	if cfg.MaxLiveConnections == 0 {
		cfg.MaxLiveConnections = DefaultMaxLiveConnections
	}
	if cfg.LiveInitTimeout == 0 {
		cfg.LiveInitTimeout = DefaultLiveInitTimeout
	}
	if cfg.TrustedDocumentsMode == "" {
		cfg.TrustedDocumentsMode = TrustedOff
	}
	if cfg.PersistedQueryBytes == 0 {
		cfg.PersistedQueryBytes = DefaultPersistedQueryBytes
	}
	return cfg
}

// limitBody reads the body up front, refusing one over n bytes with 413 before GraphQL sees
// it (gqlgen would read it whole anyway, and could only report the cut as a parse error).
func limitBody(n int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, n))
		if err != nil {
			if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
				writeHTTPError(w, http.StatusRequestEntityTooLarge, domain.Errorf(domain.Invalid, "the request body is larger than %d bytes", n))
				return
			}
			writeHTTPError(w, http.StatusBadRequest, domain.Wrap(domain.Invalid, err, "the request body could not be read"))
			return
		}
		r.Body = newReadBody(body)
		next.ServeHTTP(w, r)
	})
}

// readBody is a request body limitBody has read whole. The request's checks and the POST
// transport take its bytes (requestBody) instead of reading a copy each.
type readBody struct {
	*bytes.Reader
	data []byte
}

func newReadBody(data []byte) *readBody { return &readBody{bytes.NewReader(data), data} }

func (*readBody) Close() error { return nil }

// requestBody returns r's body whole: limitBody's bytes when nothing has read them yet, which
// the caller must not change, else what is left of it, read.
func requestBody(r *http.Request) ([]byte, error) {
	if b, ok := r.Body.(*readBody); ok && b.Len() == len(b.data) {
		return b.data, nil
	}
	return io.ReadAll(r.Body)
}

// withTimeout gives every request a deadline; the context reaches every DynamoDB call, so a
// request past its deadline stops sending them.
func withTimeout(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyTimeout bounds the store check of /readyz: a load balancer's probe must not hang.
const readyTimeout = 3 * time.Second

// readyz reports whether the server can serve: ready (when set) says so, the store answers,
// and the table and its index are there with the keys the access patterns need.
// The store's error is logged, not shown: AWS errors can carry account ids and ARNs.
func readyz(store *dynamo.Store, ready func() error, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ready != nil {
			if err := ready(); err != nil {
				writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": err.Error()})
				return
			}
		}
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if err := store.CheckTable(ctx); err != nil {
			log.WarnContext(ctx, "not ready", "err", err)
			reason := "the store did not answer"
			if errors.Is(err, dynamo.ErrTableMissing) {
				reason = "the table or its index is missing"
			}
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": reason})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready", "table": store.Table()})
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
