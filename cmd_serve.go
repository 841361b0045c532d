package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/httpserve"
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
	shutdownDelay   string
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
	f.String(&c.shutdownDelay, "shutdown-delay", shutdownDelayAuto, `on SIGTERM or SIGINT, first go on serving this long with /readyz answering 503, so that load balancers stop sending requests before the listener closes: a duration, or "auto", 0 on a loopback --addr (nothing balances load to it) and 5s on any other`)
	f.Duration(&c.shutdownTimeout, "shutdown-timeout", httpserve.DefaultShutdownTimeout, "on SIGTERM or SIGINT, after --shutdown-delay, wait this long for requests in flight before closing")
	f.String(&c.metricsAddr, "metrics-addr", "", "serve /metrics (Prometheus) on this address of its own instead of on --addr, e.g. 127.0.0.1:9090 or :9090 on a private network")
	f.Bool(&c.pprof, "pprof", false, "with --metrics-addr: also serve Go's runtime profiles (CPU, heap, goroutines, …) at /debug/pprof/ on that listener, never on --addr")
	f.Bool(&c.noFeed, "no-feed", false, "do not fill feeds, nor delete the images of deleted photos, from the table's stream in this process: the process that fills them does (one other serve, `quickphotos stream`, or the Lambda fan-out)")
	registerFeed(f, &c.feed)
	registerStreamPoll(f, &c.streamPoll)
	c.rateLimit.register(f)
	f.String(&c.changesFrom, "changes-from", "", "take the changes of subscriptions from this Redis (redis://host:6379/0), where `quickphotos stream --publish-changes` publishes them, instead of reading the table's stream: with --no-feed this process reads no stream at all, so any number of instances may run")
}

// serve runs `quickphotos serve`, the API server, through its lifecycle (server).
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := &server{stdout: stdout}
	f := newFlags("serve", stderr)
	s.cfg.register(f)
	if err := f.parse(args); err != nil {
		return err
	}
	defer s.lc.close()
	if err := s.settle(ctx, stderr); err != nil {
		return err
	}
	if err := s.bind(); err != nil {
		return err
	}
	if err := s.open(ctx); err != nil {
		return err
	}
	if err := s.start(ctx); err != nil {
		return err
	}
	return s.listen(ctx)
}

// shutdownDelayAuto is --shutdown-delay's default: by the address serve listens on.
const shutdownDelayAuto = "auto"

// autoShutdownDelay is auto's delay off loopback. Kubernetes' proxies and ingress controllers learn
// that a stopping pod left its Service's endpoints within a few seconds; and 5s, with the 15s
// of --shutdown-timeout, stops within the 30s Kubernetes gives a pod by default, with room
// left to close the store.
const autoShutdownDelay = 5 * time.Second

// drainDelay is what --shutdown-delay asks for on addr. On loopback auto is none: nothing
// balances load to that address, and a developer's Ctrl-C, or a test, stops at once.
func (c *serveConfig) drainDelay(addr *net.TCPAddr) (time.Duration, error) {
	if c.shutdownDelay == shutdownDelayAuto {
		if addr.IP != nil && addr.IP.IsLoopback() {
			return 0, nil
		}
		return autoShutdownDelay, nil
	}
	d, err := time.ParseDuration(c.shutdownDelay)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--shutdown-delay %q: want %q or a duration of 0 or more, like 5s", c.shutdownDelay, shutdownDelayAuto)
	}
	return d, nil
}
