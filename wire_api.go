package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/httpserve"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/ratelimit"
	"github.com/quickphotos/quickphotos/telemetry"
	"github.com/quickphotos/quickphotos/web"
)

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
	// devSignInRefusal is why the development sign-in is refused, when verifier is not an
	// auth.Dev (authConfig.offersDevSignIn).
	devSignInRefusal string
	// syncRetention is how long the change logs keep their entries (--sync-retention).
	syncRetention time.Duration
}

// handler is the API's HTTP handler over p, as the flags configure it.
func (c *apiConfig) handler(p apiParts) http.Handler {
	dev, _ := p.verifier.(*auth.Dev)
	return api.New(api.Config{
		Store:                p.store,
		Logger:               p.log,
		Verifier:             p.verifier,
		Limits:               &c.limits,
		MaxBodyBytes:         int64(c.maxBodyBytes),
		RequestTimeout:       c.requestTimeout,
		BatchWait:            c.batchWait,
		MutationRetention:    c.mutationRetention,
		SyncRetention:        p.syncRetention,
		DisableIntrospection: !c.introspection,
		PersistedQueryBytes:  c.persistedBytes,
		QueryCacheBytes:      c.queryCacheBytes,
		CORSOrigins:          splitList(c.corsOrigins),
		TrustedDocuments:     c.trusted.docs,
		TrustedDocumentsMode: c.trusted.settled,
		Telemetry:            p.tel,
		MetricsElsewhere:     p.metricsElsewhere,
		Live:                 p.live,
		RateLimit:            p.rateLimit,
		TrustedProxies:       p.trustedProxies,
		Ready:                p.ready,
		Media:                p.media,
		MediaFiles:           p.mediaFiles,
		App:                  web.Handler(),
		AppPath:              web.Prefix,
		DevSignIn:            dev,
		// Open because it listens on loopback (not --auth none, which opens it to anyone on
		// purpose), the server must not answer a name a web page could rebind to it.
		LocalHostsOnly:   (p.verifier == nil || dev != nil) && c.auth.mode != authNone,
		DevSignInRefusal: p.devSignInRefusal,
	})
}

// serveMetrics serves the Prometheus metrics alone on ln until ctx ends: the listener for
// --metrics-addr, which scrapers reach and API clients do not. With profiles, Go's runtime
// profiles are served there too: they expose the program's internals and cost CPU while taken,
// so they are opt-in and never on the API's address.
func serveMetrics(ctx context.Context, tel *telemetry.Telemetry, ln net.Listener, profiles bool) error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", tel.MetricsHandler())
	if profiles {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return httpserve.Serve(ctx, srv, ln, 0)
}
