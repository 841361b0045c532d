package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/loadtest"
)

// runLoadTest drives running servers with a workload and prints what each sustained.
func runLoadTest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		cfg              loadtest.Config
		urls, mix        string
		secret, claim    string
		sampleUsers, ops int
	)
	f := newFlags("loadtest", stderr)
	f.String(&urls, "url", "http://127.0.0.1:8080/graphql", "the GraphQL endpoints to measure, comma-separated; with several, each round measures each in turn")
	f.String(&mix, "mix", "standard", "the workload: "+strings.Join(loadtest.MixNames(), " or ")+", or op=weight,… of the operations below")
	f.Int(&cfg.Clients, "clients", 16, "clients sending at once, each one request at a time")
	f.Duration(&cfg.Duration, "duration", 10*time.Second, "how long each round measures each target")
	f.Int(&ops, "max-ops", 0, "end a round after this many operations, if sooner than --duration (0: no count)")
	f.Duration(&cfg.Warmup, "warmup", 2*time.Second, "unmeasured load on each target before each of its rounds")
	f.Int(&cfg.Rounds, "rounds", 1, "rounds per target, targets alternating")
	f.Int(&sampleUsers, "sample-users", 200, "the users of the sample the servers hold (serve --sample --sample-users)")
	f.Int(&cfg.Subscribers, "subscribers", 0, "subscription mode: this many graphql-ws connections subscribe to feedPhotoAdded during each round (needs --jwt-secret)")
	f.Int(&cfg.Greedy, "greedy", 0, "measure the mix alone and beside a greedy caller: one user with this many clients sending a heavy query back to back, ignoring refusals; reports the p99 of the mix's reads in both (needs --jwt-secret: every request of the mix is then signed in, as a user drawn from the sample)")
	f.String(&secret, "jwt-secret", "", "sign tokens with the secret the servers verify (serve --jwt-secret): mutations act as their user; the feed and subscriptions need it")
	f.String(&claim, "username-claim", "sub", "the claim that holds the username, as serve's --username-claim")
	f.epilogue = "\noperations:\n" + loadtest.Describe()
	if err := f.parse(args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return errors.New("usage: quickphotos loadtest [flags]")
	}
	var err error
	if cfg.Mix, err = loadtest.ParseMix(mix); err != nil {
		return err
	}
	cfg.Targets = splitList(urls)
	cfg.MaxOps, cfg.SampleUsers, cfg.Seed = ops, sampleUsers, 1
	if secret != "" {
		run := time.Duration(cfg.Rounds*len(cfg.Targets)) * (cfg.Warmup + cfg.Duration)
		cfg.Tokens = tokenCache([]byte(secret), auth.Options{UsernameClaim: claim}, run+time.Hour)
	}
	report, err := loadtest.Run(ctx, cfg)
	if report != nil {
		report.Write(stdout)
	}
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
