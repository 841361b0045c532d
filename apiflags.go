package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/ratelimit"
	"github.com/quickphotos/quickphotos/telemetry"
)

// apiConfig is the configuration of the GraphQL API, which `serve` and `lambda` share: the
// same flags and environment variables make the same handler under both.
type apiConfig struct {
	auth            authConfig
	limits          limits.Config
	maxBodyBytes    int
	requestTimeout  time.Duration
	batchWait       time.Duration
	introspection   bool
	persistedBytes  int
	queryCacheBytes int
	corsOrigins     string
	log             logConfig
}

func (c *apiConfig) register(f *flags) {
	c.auth.register(f)
	f.Int(&c.limits.MaxTokens, "max-tokens", limits.Defaults.MaxTokens, "refuse documents of more lexical tokens than this, before parsing them (0: no limit)")
	f.Int(&c.limits.MaxDepth, "max-depth", limits.Defaults.MaxDepth, "refuse operations nested deeper than this (0: no limit)")
	f.Int(&c.limits.MaxCost, "max-cost", limits.Defaults.MaxCost, "refuse operations estimated to read more DynamoDB read units than this; a list multiplies its children by its `first` (0: no limit)")
	f.Int(&c.limits.MaxAliases, "max-aliases", limits.Defaults.MaxAliases, "refuse operations with more aliased fields than this (0: no limit)")
	f.Int(&c.limits.MaxOperations, "max-operations", limits.Defaults.MaxOperations, "refuse documents holding more operations than this (0: no limit)")
	f.Int(&c.maxBodyBytes, "max-body-bytes", api.DefaultMaxBodyBytes, "refuse request bodies larger than this")
	f.Duration(&c.requestTimeout, "request-timeout", api.DefaultRequestTimeout, "give up on a GraphQL request, and its DynamoDB calls, after this long")
	f.Duration(&c.batchWait, "batch-wait", 0, "how long each dataloader gathers keys before it sends one DynamoDB batch: longer groups more on a busy machine, shorter answers sooner (0: 1ms on the embedded store, 5ms on DynamoDB)")
	f.Bool(&c.introspection, "introspection", true, "answer introspection queries (__schema, __type); GraphiQL needs them")
	f.Int(&c.persistedBytes, "persisted-query-bytes", api.DefaultPersistedQueryBytes, "the memory the automatic persisted query cache may hold")
	f.Int(&c.queryCacheBytes, "query-cache-bytes", api.DefaultQueryCacheBytes, "the memory the cache of parsed GraphQL documents may hold (estimated from their text)")
	f.String(&c.corsOrigins, "cors-origins", "", `comma-separated browser origins allowed to call the API, e.g. https://app.example.com ("*" for any; empty: same origin only)`)
	c.log.register(f)
}

// logger is the JSON logger on stderr at --log-level.
func (c *apiConfig) logger(stderr io.Writer) (*slog.Logger, error) { return c.log.logger(stderr) }

// settle checks the flags that depend on the store, before anything is opened: --batch-wait's
// 0 becomes the store's window.
func (c *apiConfig) settle(storeKind string) error {
	var err error
	c.batchWait, err = batchWait(c.batchWait, storeKind)
	return err
}

// apiParts is what the API's handler is built over besides its flags.
type apiParts struct {
	store    *dynamo.Store
	log      *slog.Logger
	verifier auth.Verifier
	tel      *telemetry.Telemetry
	// live delivers subscriptions; nil refuses them.
	live *live.Hub
	// metricsElsewhere leaves /metrics out of the API's routes.
	metricsElsewhere bool
	// rateLimit, when set, gives every caller a bucket of capacity units; nil: no rate limit.
	rateLimit ratelimit.Limiter
	// trustedProxies are the proxies whose X-Forwarded-For names an anonymous caller.
	trustedProxies []netip.Prefix
	// ready, when set, is what /readyz asks besides the store.
	ready func() error
	// media takes photo uploads and signs their images' URLs; nil refuses uploads of files.
	media *media.Service
	// mediaFiles, when set, is the embedded media store's handler of forms and signed URLs.
	mediaFiles http.Handler
}

// handler is the API's HTTP handler over p, as the flags configure it.
func (c *apiConfig) handler(p apiParts) http.Handler {
	return api.New(api.Config{
		Store:                p.store,
		Logger:               p.log,
		Verifier:             p.verifier,
		Limits:               &c.limits,
		MaxBodyBytes:         int64(c.maxBodyBytes),
		RequestTimeout:       c.requestTimeout,
		BatchWait:            c.batchWait,
		DisableIntrospection: !c.introspection,
		PersistedQueryBytes:  c.persistedBytes,
		QueryCacheBytes:      c.queryCacheBytes,
		CORSOrigins:          splitList(c.corsOrigins),
		Telemetry:            p.tel,
		MetricsElsewhere:     p.metricsElsewhere,
		Live:                 p.live,
		RateLimit:            p.rateLimit,
		TrustedProxies:       p.trustedProxies,
		Ready:                p.ready,
		Media:                p.media,
		MediaFiles:           p.mediaFiles,
	})
}
