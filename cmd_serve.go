package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/httpserve"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/relay"
	"github.com/quickphotos/quickphotos/telemetry"
)

// serveConfig is the configuration of `quickphotos serve`.
type serveConfig struct {
	store           storeConfig
	api             apiConfig
	addr            string
	sample          bool
	users           int
	dynamodbListen  string
	dynamodbAuth    dynamodbAuth
	shutdownTimeout time.Duration
	metricsAddr     string
	pprof           bool
	feed            feed.Config
	noFeed          bool
	changesFrom     string
	streamPoll      time.Duration
	rateLimit       rateLimitConfig
	media           mediaConfig
}

func (c *serveConfig) register(f *flags) {
	c.store.register(f)
	c.api.register(f)
	c.media.register(f)
	f.String(&c.addr, "addr", "127.0.0.1:8080", "the address to listen on (port 0 picks a free port)")
	f.Bool(&c.sample, "sample", false, "load the sample dataset when the table is empty")
	f.Int(&c.users, "sample-users", 200, "with --sample: how many users the sample dataset has")
	f.Bool(&c.store.createTable, "create-table", false, "with --store dynamodb: create the table and index when they are missing")
	f.String(&c.dynamodbListen, "dynamodb-listen", "", "with the embedded store: also serve its DynamoDB API on this address, for the AWS CLI, SDKs or NoSQL Workbench: loopback, or any other with --dynamodb-keys")
	c.dynamodbAuth.register(f)
	f.Duration(&c.shutdownTimeout, "shutdown-timeout", httpserve.DefaultShutdownTimeout, "on SIGTERM or SIGINT, wait this long for requests in flight before closing")
	f.String(&c.metricsAddr, "metrics-addr", "", "serve /metrics (Prometheus) on this address of its own instead of on --addr, e.g. 127.0.0.1:9090 or :9090 on a private network")
	f.Bool(&c.pprof, "pprof", false, "with --metrics-addr: also serve Go's runtime profiles (CPU, heap, goroutines, …) at /debug/pprof/ on that listener, never on --addr")
	f.Bool(&c.noFeed, "no-feed", false, "do not fill feeds from the table's stream in this process (run `quickphotos stream` elsewhere instead)")
	registerFeed(f, &c.feed)
	registerStreamPoll(f, &c.streamPoll)
	c.rateLimit.register(f)
	f.String(&c.changesFrom, "changes-from", "", "take the changes of subscriptions from this Redis (redis://host:6379/0), where `quickphotos stream --publish-changes` publishes them, instead of reading the table's stream: for more instances than the stream has readers")
}

// changesSource returns what feeds the subscriptions' hub until its context ends, calling
// ready once in place: a stream consumer of this instance's own, or, with --changes-from, a
// subscription to the changes a relay publishes.
func (c *serveConfig) changesSource(ctx context.Context, opened *openedStore, store *dynamo.Store, hub *live.Hub, tel *telemetry.Telemetry, log *slog.Logger) (func(ctx context.Context, ready func()) error, error) {
	if c.changesFrom != "" {
		client, err := relay.Open(c.changesFrom)
		if err != nil {
			return nil, fmt.Errorf("--changes-from: %w", err)
		}
		return func(ctx context.Context, ready func()) error {
			defer client.Close()
			err := relay.Subscribe(ctx, client, relay.Channel(c.store.table), hub.Handle, ready, log)
			if err != nil && ctx.Err() == nil {
				log.Error("subscriptions get no changes", "error", err)
			}
			return err
		}, nil
	}
	consumer, err := liveConsumer(ctx, opened, store, hub, c.streamPoll, log)
	if err != nil {
		return nil, err
	}
	consumer.Observe = tel.StreamLag("live")
	return func(ctx context.Context, ready func()) error {
		consumer.Ready = ready
		return consumer.Run(ctx)
	}, nil
}

// errFeedCatchingUp is /readyz's reason while the feed's consumer works through the stream's
// backlog.
var errFeedCatchingUp = errors.New("the feed is catching up with the table's stream")

// liveReadyTimeout bounds how long serve waits for the stream consumer of subscriptions before
// it listens.
const liveReadyTimeout = 10 * time.Second

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	f := newFlags("serve", stderr)
	cfg.register(f)
	if err := f.parse(args); err != nil {
		return err
	}
	log, err := cfg.api.logger(stderr)
	if err != nil {
		return err
	}
	if err := cfg.api.settle(cfg.store.kind); err != nil {
		return err
	}
	tuneGC(os.Getenv)
	limiter, limiterSays, releaseLimiter, err := cfg.rateLimit.limiter(cfg.changesFrom, cfg.store.table)
	if err != nil {
		return err
	}
	defer releaseLimiter()
	proxies, err := cfg.rateLimit.proxies()
	if err != nil {
		return err
	}

	// Whether the server may run without authentication depends on the address, so that is
	// settled before anything listens.
	addr, err := net.ResolveTCPAddr("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", cfg.addr, err)
	}
	verifier, authSays, err := cfg.api.auth.verifier(ctx, addr)
	if err != nil {
		return err
	}
	defer closeVerifier(verifier)
	var dynamodbAddr *net.TCPAddr
	var dynamodbSays string
	switch {
	case cfg.dynamodbListen != "":
		if dynamodbAddr, dynamodbSays, err = cfg.dynamodbAuth.prepare("--dynamodb-listen", cfg.dynamodbListen); err != nil {
			return err
		}
	case cfg.dynamodbAuth.keysFile != "":
		return errors.New("--dynamodb-keys authenticates the DynamoDB API of --dynamodb-listen: give both, or neither")
	}

	// Every listener is bound before the store is opened and the stream consumers start: a
	// port in use stops serve with that error alone, having started nothing (and logged
	// nothing) it would have to stop again.
	if cfg.pprof && cfg.metricsAddr == "" {
		return errors.New("--pprof serves the profiles on the metrics listener only: give --metrics-addr too")
	}
	if cfg.dynamodbListen != "" && cfg.store.kind != storeEmbedded {
		return errors.New("--dynamodb-listen needs the embedded store")
	}
	ln, err := net.ListenTCP("tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	var mln, dln net.Listener
	if cfg.metricsAddr != "" {
		if mln, err = net.Listen("tcp", cfg.metricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		defer mln.Close()
	}
	if dynamodbAddr != nil {
		tln, err := net.ListenTCP("tcp", dynamodbAddr)
		if err != nil {
			return fmt.Errorf("--dynamodb-listen: %w", err)
		}
		defer tln.Close()
		dln = tln
	}

	stopTracing, tracing, err := telemetry.SetupTracing(ctx)
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	defer func() { _ = stopTracing(context.Background()) }()
	tel := telemetry.New(telemetry.Options{Logger: log})

	cfg.store.log = log
	opened, err := cfg.store.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	store := dynamo.New(opened.client, cfg.store.table, dynamo.WithObserver(tel.Store()))
	if err := cfg.store.prepareTable(ctx, store); err != nil {
		return err
	}
	mediaStore, err := cfg.media.open(ctx, store, cfg.store, log)
	if err != nil {
		return err
	}
	defer mediaStore.cleanup()
	if cfg.sample {
		if err := loadSampleIfEmpty(ctx, opened, store, mediaStore.service, cfg.users, stdout); err != nil {
			return err
		}
	}

	// Readiness waits for the feed's consumer to have caught up with the stream as it was at
	// start (a backlog left while no consumer ran, or the sample just loaded): until then a new
	// follow or upload would reach feeds and subscribers only after the backlog. Once caught
	// up, readiness no longer follows the lag: a burst of uploads must not take every instance
	// out of the load balancer at once (quickphotos_stream_lag_seconds is for alerts).
	var feedCaughtUp atomic.Bool
	if !cfg.noFeed {
		consumer, err := feedConsumer(ctx, opened, store, cfg.feed, cfg.streamPoll, log)
		if err != nil {
			return fmt.Errorf("%w (or serve with --no-feed)", err)
		}
		consumer.Observe = tel.StreamLag(feedConsumerName)
		consumer.CaughtUp = func() {
			feedCaughtUp.Store(true)
			log.Info("the feed has caught up with the table's stream; ready")
		}
		// The images of deleted photos go with the feed's reading of the stream: DynamoDB
		// Streams serves about two readers per shard, and subscriptions take the other.
		consumer.Handle = handleBoth(consumer.Handle, mediaStore.service.Forget)
		defer serveInBackground(ctx, consumer.Run)()
	} else {
		feedCaughtUp.Store(true)
		// A deleted photo's images go once its removal has committed (the media package's
		// doc), read from the stream by a consumer of their own.
		mediaConsumer, err := mediaConsumer(ctx, opened, store, mediaStore.service, cfg.streamPoll, log)
		if err != nil {
			return err
		}
		mediaConsumer.Observe = tel.StreamLag(media.ConsumerName)
		defer serveInBackground(ctx, mediaConsumer.Run)()
	}

	defer serveInBackground(ctx, func(ctx context.Context) error {
		mediaStore.service.SweepEvery(ctx, media.SweepInterval, func(swept int, err error) {
			if err != nil {
				log.Warn("sweeping expired uploads", "swept", swept, "error", err)
				return
			}
			log.Info("swept expired uploads", "swept", swept)
		})
		return nil
	})()

	hub := live.NewHub(live.Config{})
	tel.Live(hub)
	changes, err := cfg.changesSource(ctx, opened, store, hub, tel, log)
	if err != nil {
		return err
	}
	ready := make(chan struct{})
	defer serveInBackground(ctx, func(ctx context.Context) error { return changes(ctx, func() { close(ready) }) })()
	// A subscription sees the changes made after it started only once the source is in place
	// (the consumer at the stream's end, or the relay subscribed); the API listens after that,
	// or after a bounded wait that says so.
	select {
	case <-ready:
	case <-time.After(liveReadyTimeout):
		log.Warn("the source of subscriptions' changes is not ready yet; serving anyway", "waited", liveReadyTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}

	// A photo deletion a stopped server left half done is finished here (see dynamo's
	// photodelete.go); every instance sweeps, and their steps are safe side by side.
	defer serveInBackground(ctx, func(ctx context.Context) error {
		store.SweepDeletions(ctx, dynamo.DeletionSweepInterval, dynamo.DeletionLease, func(finished int, err error) {
			if err != nil {
				log.Warn("finishing photo deletions", "finished", finished, "error", err)
				return
			}
			log.Info("finished photo deletions a stopped server left", "finished", finished)
		})
		return nil
	})()

	if dln != nil {
		fmt.Fprintf(stdout, "quickphotos: DynamoDB API of the embedded store at http://%s (%s)\n", dln.Addr(), dynamodbSays)
		stopEngine := serveInBackground(ctx, func(ctx context.Context) error {
			return serveEngine(ctx, opened.engine, dln, cfg.dynamodbAuth.keys)
		})
		defer stopEngine() // before the store closes
	}

	handler := cfg.api.handler(apiParts{
		store: store, log: log, verifier: verifier, tel: tel, live: hub, metricsElsewhere: cfg.metricsAddr != "",
		rateLimit: limiter, trustedProxies: proxies, media: mediaStore.service, mediaFiles: mediaStore.files,
		ready: func() error {
			if !feedCaughtUp.Load() {
				return errFeedCatchingUp
			}
			return nil
		},
	})
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		// A response is written within the request's own timeout; the margin covers writing
		// it to a slow client.
		WriteTimeout:   cfg.api.requestTimeout + 10*time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// Shutdown waits for requests, not for WebSockets (hijacked) or the streams of Server-Sent
	// Events (which never end by themselves): ending every subscription completes them, and
	// SSE requests return.
	srv.RegisterOnShutdown(hub.Close)
	if mln != nil {
		fmt.Fprintf(stdout, "quickphotos: metrics at http://%s/metrics\n", mln.Addr())
		if cfg.pprof {
			fmt.Fprintf(stdout, "quickphotos: profiles at http://%s/debug/pprof/\n", mln.Addr())
		}
		defer serveInBackground(ctx, func(ctx context.Context) error { return serveMetrics(ctx, tel, mln, cfg.pprof) })()
	}
	base := "http://" + ln.Addr().String()
	mediaStore.setBase(base)
	fmt.Fprintf(stdout, "quickphotos: GraphiQL at %s/ — GraphQL API at %s%s (store: %s, %s, table: %s)\n",
		base, base, api.Endpoint, cfg.store.kind, cfg.store.describe(), cfg.store.table)
	fmt.Fprintf(stdout, "quickphotos: authentication: %s\n", authSays)
	fmt.Fprintf(stdout, "quickphotos: rate limit: %s\n", limiterSays)
	fmt.Fprintf(stdout, "quickphotos: photo files: %s\n", mediaStore.says)
	if tracing {
		fmt.Fprintln(stdout, "quickphotos: tracing to the OpenTelemetry exporter set by OTEL_* variables")
	}
	if err := httpserve.Serve(ctx, srv, ln, cfg.shutdownTimeout); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "quickphotos: stopped")
	return nil
}
