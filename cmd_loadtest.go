package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/internal/httpserve"
	"github.com/quickphotos/quickphotos/loadtest"
	"github.com/quickphotos/quickphotos/loadtest/floor"
	"github.com/quickphotos/quickphotos/sample"
)

// runLoadTest drives running servers with a workload and prints what each sustained; `loadtest
// floor` serves the GraphQL floor instead.
func runLoadTest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "floor" {
		return runFloor(ctx, args[1:], stdout, stderr)
	}
	var (
		cfg              loadtest.Config
		urls, mix        string
		secret, claim    string
		sampleUsers, ops int
		procs            int
	)
	f := newFlags("loadtest", stderr)
	f.String(&urls, "url", "http://127.0.0.1:8080/graphql", "the GraphQL endpoints to measure, comma-separated; with several, each round measures each in turn")
	f.String(&mix, "mix", "standard", "the workload: "+strings.Join(loadtest.MixNames(), " or ")+", or op=weight,… of the operations below")
	f.Int(&cfg.Clients, "clients", 16, "clients sending at once, each one request at a time")
	f.Float(&cfg.Rate, "rate", 0, "an open loop: start this many operations a second across the clients, each when due whether or not earlier ones were answered, and count each one's latency from when it was due (0: a closed loop, each client sending its next request on the last one's answer); measures every target under the same load")
	f.Duration(&cfg.Duration, "duration", 10*time.Second, "how long each round measures each target")
	f.Int(&ops, "max-ops", 0, "end a round after this many operations, if sooner than --duration (0: no count)")
	f.Duration(&cfg.Warmup, "warmup", 2*time.Second, "unmeasured load on each target before each of its rounds")
	f.Int(&cfg.Rounds, "rounds", 1, "rounds per target, targets alternating")
	f.Int(&sampleUsers, "sample-users", sample.DefaultUsers, "the users of the sample the servers hold (serve --sample --sample-users)")
	f.Int(&procs, "procs", 0, "the cores the load tool runs its clients on (GOMAXPROCS); 0: the GOMAXPROCS environment variable when set, else a quarter of this machine's, at least 1, so that servers on the same machine keep the rest (raise it to drive a remote server harder: the report says when the tool was its own limit)")
	f.Int(&cfg.Subscribers, "subscribers", 0, "subscription mode: this many graphql-ws connections subscribe to feedPhotoAdded during each round (needs --jwt-secret)")
	f.Bool(&cfg.Alone, "alone", false, "after the mix, measure each of its operations alone, in as many rounds, and print each one's ops/s on every target beside the first's")
	f.Int(&cfg.Greedy, "greedy", 0, "measure the mix alone and beside a greedy caller: one user with this many clients sending a heavy query back to back, ignoring refusals; reports the p99 of the mix's reads in both (needs --jwt-secret: every request of the mix is then signed in, as a user drawn from the sample)")
	f.String(&secret, "jwt-secret", "", "sign tokens with the secret the servers verify (serve --jwt-secret): mutations act as their user; the feed and subscriptions need it")
	f.String(&claim, "username-claim", "sub", "the claim that holds the username, as serve's --username-claim")
	f.epilogue = "\noperations:\n" + loadtest.Describe() +
		"\nquickphotos loadtest floor serves the GraphQL floor, serve's recorded answers to the standard mix (quickphotos loadtest floor -h)\n"
	if err := f.parse(args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return errors.New("usage: quickphotos loadtest [flags]")
	}
	if procs < 0 {
		return fmt.Errorf("--procs %d: want 0 (automatic) or more", procs)
	}
	if n := loadtestProcs(procs, os.Getenv, runtime.NumCPU()); n > 0 {
		runtime.GOMAXPROCS(n)
	}
	var err error
	if cfg.Mix, err = loadtest.ParseMix(mix); err != nil {
		return err
	}
	cfg.Targets = splitList(urls)
	cfg.MaxOps, cfg.SampleUsers, cfg.Seed = ops, sampleUsers, sample.DefaultSeed
	if secret != "" {
		cfg.Tokens = tokenCache([]byte(secret), auth.Options{UsernameClaim: claim}, cfg.Span()+time.Hour)
	}
	report, err := loadtest.Run(ctx, cfg)
	if report != nil {
		report.Write(stdout)
	}
	return err
}

// loadtestProcs is the GOMAXPROCS the load tool sets for --procs n on a machine of cpus cores,
// 0 to leave the runtime's (a GOMAXPROCS environment variable). The tool usually shares its
// machine with the servers it measures: on two cores, with the runtime's default of both, the
// tool spent 68–101 µs of CPU per operation (its second core spinning for work between
// requests) against 57–78 µs on one, and serve's rate under the mix was 5–9% lower
// (docs/benchmarks.md).
func loadtestProcs(n int, getenv func(string) string, cpus int) int {
	switch {
	case n > 0:
		return n
	case getenv("GOMAXPROCS") != "":
		return 0
	}
	return max(1, cpus/4)
}

// runFloor records a running serve's answers to the standard mix's requests and serves them as
// the GraphQL floor (package floor) until ctx ends.
func runFloor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var from, listen, logPath string
	var sampleUsers int
	f := newFlags("loadtest floor", stderr)
	f.String(&from, "record-from", "http://127.0.0.1:8080/graphql", "the GraphQL endpoint, on a loopback address, of a serve --sample fresh with the sample, whose answers the floor records")
	f.Int(&sampleUsers, "sample-users", sample.DefaultUsers, "the users of the sample it holds (serve --sample-users)")
	f.String(&listen, "listen", "127.0.0.1:8090", "the loopback address to serve the floor on")
	f.String(&logPath, "log", "", "the mutations' log file, created at 64 MiB (a temporary file, removed at exit, when empty)")
	f.epilogue = "\nIt answers the requests of the operations " + strings.Join(loadtest.FloorOperations, ", ") +
		" and refuses any other with HTTP 400 (FLOOR_NO_ANSWER).\n"
	if err := f.parse(args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return errors.New("usage: quickphotos loadtest floor [flags]")
	}
	ln, err := floor.Listen(listen)
	if err != nil {
		return err
	}
	defer ln.Close()
	reqs, err := loadtest.Requests(sampleUsers, sample.DefaultSeed)
	if err != nil {
		return err
	}
	rec, err := floor.Record(ctx, http.DefaultClient, from, reqs)
	if err != nil {
		return err
	}
	if logPath == "" {
		dir, err := os.MkdirTemp("", "quickphotos-floor-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		logPath = filepath.Join(dir, "floor.log")
	}
	fl, err := floor.New(rec, logPath)
	if err != nil {
		return err
	}
	defer fl.Close()
	fmt.Fprintf(stdout, "floor: serving at http://%s/graphql the %d answers recorded from %s; mutations logged to %s\n", ln.Addr(), rec.Len(), from, logPath)
	err = httpserve.Serve(ctx, &http.Server{Handler: fl, ReadHeaderTimeout: 10 * time.Second}, ln, 0)
	fmt.Fprintf(stdout, "floor: %d requests refused for want of a recorded answer\n", fl.Missed())
	return err
}

// tokenCache mints each user's token once, valid for ttl.
func tokenCache(secret []byte, opts auth.Options, ttl time.Duration) func(string) (string, error) {
	var mu sync.Mutex
	tokens := map[string]string{}
	return func(username string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		if t, ok := tokens[username]; ok {
			return t, nil
		}
		t, err := auth.Mint(secret, username, ttl, opts)
		if err != nil {
			return "", fmt.Errorf("minting a token for %s: %w", username, err)
		}
		tokens[username] = t
		return t, nil
	}
}
