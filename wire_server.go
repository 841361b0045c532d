package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace/noop"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/httpserve"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/ratelimit"
	"github.com/quickphotos/quickphotos/relay"
	"github.com/quickphotos/quickphotos/telemetry"
	"github.com/quickphotos/quickphotos/web"
)

// server is the lifecycle of `quickphotos serve`, one method a step: settle and bind (the
// flags checked and every listener bound, before anything opens), open (tracing, the store,
// the photo files' store, the sample), start (the background work), listen (the API, until
// its context ends), and close, which stops and closes everything in reverse: the listeners
// first, then the background work, and the store last.
type server struct {
	cfg    serveConfig
	stdout io.Writer
	log    *slog.Logger
	lc     lifecycle

	// Settled before anything opens.
	addr        *net.TCPAddr
	drainDelay  time.Duration // --shutdown-delay on addr
	limiter     ratelimit.Limiter
	limiterSays string
	proxies     []netip.Prefix
	verifier    auth.Verifier
	authSays    string
	// devSignInRefusal is why /auth/dev-sign-in refuses, when it does.
	devSignInRefusal string
	dynamodbAddr     *net.TCPAddr
	dynamodbSays     string
	// ln is the API's listener; mln, when set, the metrics' (--metrics-addr), and dln the
	// embedded engine's DynamoDB API's (--dynamodb-listen).
	ln       *net.TCPListener
	mln, dln net.Listener

	// Opened.
	tracing bool
	tel     *telemetry.Telemetry
	b       *backend
	hub     *live.Hub
	// feedCaughtUp is set once the feed's consumer has caught up with the stream as it was at
	// start (errFeedCatchingUp).
	feedCaughtUp atomic.Bool
	// draining is set once serve is told to stop, for the --shutdown-delay it goes on serving
	// (errShuttingDown).
	draining atomic.Bool
	// changes closes once the source of subscriptions' changes is in place.
	changes chan struct{}
}

// errFeedCatchingUp is /readyz's reason while the feed's consumer works through the stream's
// backlog.
var errFeedCatchingUp = errors.New("the feed is catching up with the table's stream")

// errShuttingDown is /readyz's reason from SIGTERM on, while serve drains (--shutdown-delay).
var errShuttingDown = errors.New("the server is shutting down")

// liveReadyTimeout bounds how long serve waits for the source of subscriptions' changes before
// it listens.
const liveReadyTimeout = 10 * time.Second

// settle checks the flags and makes what they configure: the logger, the rate limit, the
// verifier. Whether the server may run without authentication depends on the address, so that
// is settled before anything listens.
func (s *server) settle(ctx context.Context, stderr io.Writer) error {
	var err error
	if s.log, err = s.cfg.api.logger(stderr); err != nil {
		return err
	}
	if err := s.cfg.api.settle(s.cfg.store.kind); err != nil {
		return err
	}
	if err := checkSyncRetention(s.cfg.feed.SyncRetention); err != nil {
		return err
	}
	tuneServerGC(os.Getenv)
	startStackBallast()
	var release func()
	s.limiter, s.limiterSays, release, err = s.cfg.rateLimit.limiter(s.cfg.changesFrom, s.cfg.store.table)
	if err != nil {
		return err
	}
	s.lc.onClose(release)
	if s.proxies, err = s.cfg.rateLimit.proxies(); err != nil {
		return err
	}
	if s.addr, err = net.ResolveTCPAddr("tcp", s.cfg.addr); err != nil {
		return fmt.Errorf("--addr %q: %w", s.cfg.addr, err)
	}
	if s.drainDelay, err = s.cfg.drainDelay(s.addr); err != nil {
		return err
	}
	if s.verifier, s.authSays, err = s.cfg.api.auth.open(ctx, &s.lc, s.addr); err != nil {
		return err
	}
	_, s.devSignInRefusal, _ = s.cfg.api.auth.offersDevSignIn(s.addr) // its error stopped open

	switch {
	case s.cfg.dynamodbListen != "":
		s.dynamodbAddr, s.dynamodbSays, err = s.cfg.dynamodbAuth.prepare("--dynamodb-listen", s.cfg.dynamodbListen)
		if err != nil {
			return err
		}
	case s.cfg.dynamodbAuth.keysFile != "":
		return errors.New("--dynamodb-keys authenticates the DynamoDB API of --dynamodb-listen: give both, or neither")
	}
	if s.cfg.pprof && s.cfg.metricsAddr == "" {
		return errors.New("--pprof serves the profiles on the metrics listener only: give --metrics-addr too")
	}
	if s.cfg.dynamodbListen != "" && s.cfg.store.kind != storeEmbedded {
		return errors.New("--dynamodb-listen needs the embedded store")
	}
	return s.cfg.media.checkOrigin(s.addr)
}

// bind binds every listener before the store is opened and the stream consumers start: a
// port in use stops serve with that error alone, having started nothing (and logged nothing)
// it would have to stop again.
func (s *server) bind() error {
	var err error
	if s.ln, err = net.ListenTCP("tcp", s.addr); err != nil {
		return err
	}
	s.lc.onClose(func() { _ = s.ln.Close() })
	if s.cfg.metricsAddr != "" {
		if s.mln, err = net.Listen("tcp", s.cfg.metricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		s.lc.onClose(func() { _ = s.mln.Close() })
	}
	if s.dynamodbAddr != nil {
		dln, err := net.ListenTCP("tcp", s.dynamodbAddr)
		if err != nil {
			return fmt.Errorf("--dynamodb-listen: %w", err)
		}
		s.lc.onClose(func() { _ = dln.Close() })
		s.dln = dln
	}
	return nil
}

// open opens tracing, the store and the photo files' store, and loads the sample when asked.
func (s *server) open(ctx context.Context) error {
	var err error
	if s.tracing, err = startTracing(ctx, &s.lc); err != nil {
		return err
	}
	opts := telemetry.Options{Logger: s.log}
	if !s.tracing {
		// Without an exporter every span would be dropped: none is made.
		opts.TracerProvider = noop.NewTracerProvider()
	}
	s.tel = telemetry.New(opts)
	s.b, err = openBackend(ctx, &s.lc, opening{
		store: s.cfg.store, media: &s.cfg.media, prepareTable: true, poll: s.cfg.streamPoll, tel: s.tel, log: s.log,
	})
	if err != nil {
		return err
	}
	s.hub = live.NewHub(live.Config{})
	s.tel.Live(s.hub)
	if s.cfg.sample {
		return loadSampleIfEmpty(ctx, s.b.opened, s.b.store, s.b.media.service, s.cfg.users, s.stdout)
	}
	return nil
}

// consumers are the workers serve feeds from the table's change stream, started in this order
// and stopped in reverse. Each is a reader of every shard, and DynamoDB Streams serves about
// two: a new one is one more reader to count in docs/feed-and-live-updates.md.
func (s *server) consumers() []consumer {
	var cs []consumer
	if !s.cfg.noFeed {
		// The images of deleted photos go with the feed's reading of the stream, wherever it
		// runs (here, `quickphotos stream`, the Lambda fan-out): a reader of their own would
		// be a third beside subscriptions'. With --no-feed the process filling the feeds
		// deletes them, and this one reads the stream for its subscribers at most.
		cs = append(cs, consumer{name: feedConsumerName, reads: "the feed reads", orElse: "or serve with --no-feed",
			handle: handleBoth(feed.NewFanOut(s.b.store, s.cfg.feed).Handle, s.b.media.service.Forget), caughtUp: s.feedHasCaughtUp})
	}
	if s.cfg.changesFrom == "" {
		// Unnamed: it keeps no checkpoint and starts at the newest change, and every instance
		// delivers every change to its own subscribers.
		cs = append(cs, consumer{lag: "live", reads: "subscriptions read", orElse: "or take their changes from `quickphotos stream --publish-changes` with --changes-from",
			handle: s.hub.Handle, ready: s.changesAreReady})
	}
	return cs
}

// feedHasCaughtUp is the feed consumer's CaughtUp. Readiness waits for the feed's consumer to
// have caught up with the stream as it was at start (a backlog left while no consumer ran, or
// the sample just loaded): until then a new follow or upload would reach feeds and subscribers
// only after the backlog. Once caught up, readiness no longer follows the lag: a burst of
// uploads must not take every instance out of the load balancer at once
// (quickphotos_stream_lag_seconds is for alerts).
func (s *server) feedHasCaughtUp() {
	s.feedCaughtUp.Store(true)
	s.log.Info("the feed has caught up with the table's stream; ready")
}

// ready is what /readyz asks besides the store.
func (s *server) ready() error {
	if s.draining.Load() {
		return errShuttingDown
	}
	if !s.feedCaughtUp.Load() {
		return errFeedCatchingUp
	}
	return nil
}

// changesAreReady is called once by the source of subscriptions' changes when it is in place:
// the live consumer's Ready, or the relay's subscription.
func (s *server) changesAreReady() { close(s.changes) }

// start starts the background work: the stream's consumers, the relay's changes with
// --changes-from, the sweeps, and the embedded engine's DynamoDB listener. It returns once
// subscriptions get the changes made from now on, or after liveReadyTimeout.
func (s *server) start(ctx context.Context) error {
	s.changes = make(chan struct{})
	if s.cfg.noFeed {
		s.feedCaughtUp.Store(true)
	}
	consumers, err := s.b.consumers(ctx, s.consumers()...)
	if err != nil {
		return err
	}
	for _, c := range consumers {
		s.lc.background(ctx, c.Run)
	}
	if s.cfg.changesFrom != "" {
		if err := s.subscribeToRelay(ctx); err != nil {
			return err
		}
	}
	// A subscription sees the changes made after it started only once the source is in place
	// (the consumer at the stream's end, or the relay subscribed); the API listens after that,
	// or after a bounded wait that says so.
	select {
	case <-s.changes:
	case <-time.After(liveReadyTimeout):
		s.log.Warn("the source of subscriptions' changes is not ready yet; serving anyway", "waited", liveReadyTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}
	s.lc.background(ctx, s.sweepUploads)
	s.lc.background(ctx, s.sweepDeletions)
	if s.dln != nil {
		fmt.Fprintf(s.stdout, "quickphotos: DynamoDB API of the embedded store at http://%s (%s)\n", s.dln.Addr(), s.dynamodbSays)
		s.lc.background(ctx, func(ctx context.Context) error {
			return serveEngine(ctx, s.b.opened.engine, s.dln, s.cfg.dynamodbAuth.keys)
		})
	}
	return nil
}

// subscribeToRelay takes the changes of subscriptions from the Redis of --changes-from, where
// `quickphotos stream --publish-changes` publishes them, instead of a stream consumer.
func (s *server) subscribeToRelay(ctx context.Context) error {
	client, err := relay.Open(s.cfg.changesFrom)
	if err != nil {
		return fmt.Errorf("--changes-from: %w", err)
	}
	s.lc.background(ctx, func(ctx context.Context) error {
		defer client.Close()
		err := relay.Subscribe(ctx, client, relay.Channel(s.cfg.store.table), s.hub.Handle, s.changesAreReady, s.log)
		if err != nil && ctx.Err() == nil {
			s.log.Error("subscriptions get no changes", "error", err)
		}
		return err
	})
	return nil
}

// sweepUploads deletes the uploads whose form expired unused.
func (s *server) sweepUploads(ctx context.Context) error {
	s.b.media.service.SweepEvery(ctx, media.SweepInterval, func(swept int, err error) {
		if err != nil {
			s.log.Warn("sweeping expired uploads", "swept", swept, "error", err)
			return
		}
		s.log.Info("swept expired uploads", "swept", swept)
	})
	return nil
}

// sweepDeletions finishes a photo deletion a stopped server left half done (see dynamo's
// photodelete.go); every instance sweeps, and their steps are safe side by side.
func (s *server) sweepDeletions(ctx context.Context) error {
	s.b.store.SweepDeletions(ctx, dynamo.DeletionSweepInterval, dynamo.DeletionLease, func(finished int, err error) {
		if err != nil {
			s.log.Warn("finishing photo deletions", "finished", finished, "error", err)
			return
		}
		s.log.Info("finished photo deletions a stopped server left", "finished", finished)
	})
	return nil
}

// listen serves the API on its listener, and the metrics on theirs, until ctx ends; then the
// API drains (--shutdown-delay) and stops gracefully (within --shutdown-timeout) before close
// stops the rest, the stream's consumers last, so that subscriptions get changes while it
// drains.
func (s *server) listen(ctx context.Context) error {
	srv := s.httpServer()
	if s.mln != nil {
		fmt.Fprintf(s.stdout, "quickphotos: metrics at http://%s/metrics\n", s.mln.Addr())
		if s.cfg.pprof {
			fmt.Fprintf(s.stdout, "quickphotos: profiles at http://%s/debug/pprof/\n", s.mln.Addr())
		}
		s.lc.background(ctx, func(ctx context.Context) error { return serveMetrics(ctx, s.tel, s.mln, s.cfg.pprof) })
	}
	base := "http://" + s.ln.Addr().String()
	s.b.media.setBase(base)
	fmt.Fprintf(s.stdout, "quickphotos: GraphiQL at %s/ — GraphQL API at %s%s (store: %s, %s, table: %s)\n",
		base, base, api.Endpoint, s.cfg.store.kind, s.cfg.store.describe(), s.cfg.store.table)
	fmt.Fprintf(s.stdout, "quickphotos: web app at %s%s\n", base, web.Prefix)
	fmt.Fprintf(s.stdout, "quickphotos: authentication: %s\n", s.authSays)
	fmt.Fprintf(s.stdout, "quickphotos: rate limit: %s\n", s.limiterSays)
	fmt.Fprintf(s.stdout, "quickphotos: photo files: %s\n", s.b.media.says)
	if s.cfg.api.trusted.docs != nil || s.cfg.api.trusted.appOverLimits != nil {
		fmt.Fprintf(s.stdout, "quickphotos: trusted documents: %s\n", s.cfg.api.trusted.describe())
	}
	if s.tracing {
		fmt.Fprintln(s.stdout, "quickphotos: tracing to the OpenTelemetry exporter set by OTEL_* variables")
	}
	drain := httpserve.Drain{Delay: s.drainDelay, Begin: s.beginDraining}
	if err := httpserve.ServeDraining(ctx, srv, s.ln, drain, s.cfg.shutdownTimeout); err != nil {
		return err
	}
	fmt.Fprintln(s.stdout, "quickphotos: stopped")
	return nil
}

// beginDraining fails /readyz from now on, and says for how long serve goes on serving.
func (s *server) beginDraining() {
	s.draining.Store(true)
	if s.drainDelay > 0 {
		fmt.Fprintf(s.stdout, "quickphotos: stopping in %s: /readyz answers 503 meanwhile, and requests are served\n", s.drainDelay)
	}
}

// httpServer is the API's HTTP server.
func (s *server) httpServer() *http.Server {
	srv := &http.Server{
		Handler: s.cfg.api.handler(apiParts{
			store: s.b.store, log: s.log, verifier: s.verifier, tel: s.tel, live: s.hub, metricsElsewhere: s.cfg.metricsAddr != "",
			rateLimit: s.limiter, trustedProxies: s.proxies, media: s.b.media.service, mediaFiles: s.b.media.files,
			ready: s.ready, devSignInRefusal: s.devSignInRefusal, syncRetention: s.cfg.feed.SyncRetention,
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// A response is written within the request's own timeout; the margin covers writing
		// it to a slow client.
		WriteTimeout:   s.cfg.api.requestTimeout + 10*time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	// Shutdown waits for requests, not for WebSockets (hijacked) or the streams of Server-Sent
	// Events (which never end by themselves): ending every subscription completes them, and
	// SSE requests return.
	srv.RegisterOnShutdown(s.hub.Close)
	return srv
}
