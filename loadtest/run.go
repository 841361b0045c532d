package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Config says what to run.
type Config struct {
	// Targets are the GraphQL endpoints (http://host:port/graphql) to measure; with more than
	// one, each round runs the workload on each in turn.
	Targets []string
	// Mix is the workload.
	Mix Mix
	// Clients is how many clients send requests at once, each one request at a time.
	Clients int
	// Rate, when positive, runs an open loop: operations start at this many a second across
	// all clients, each at its due time whether or not earlier ones were answered (while a
	// client is free), and each one's latency counts from when it was due, the wait for a free
	// client included. Zero runs a closed loop: each client sends its next request on the
	// last one's answer.
	Rate float64
	// Duration bounds each measured round on each target.
	Duration time.Duration
	// MaxOps, when positive, ends a round after that many operations, before Duration if sooner.
	MaxOps int
	// Warmup runs the workload unmeasured on each target before each of its rounds.
	Warmup time.Duration
	// Rounds is how many times each target is measured, alternating targets.
	Rounds int
	// SampleUsers and Seed name the dataset the servers hold (serve --sample --sample-users N
	// loads seed 1).
	SampleUsers int
	Seed        uint64
	// Tokens, when set, gives the bearer token of a user: mutations act as their user, and the
	// feed and subscriptions are the caller's. Servers without authentication need none, but
	// the feed and subscriptions do.
	Tokens func(username string) (string, error)
	// Subscribers, in subscription mode, is how many graphql-ws connections subscribe to
	// feedPhotoAdded, each as another user, during each round.
	Subscribers int
	// Greedy, when positive, measures each round twice, the mix alone and beside a greedy
	// caller of this many clients (see GreedyReport). Every request of the mix is then signed in
	// as a user drawn from the sample, so that a server's per-caller rate limit sees many
	// callers that each spend a little, as the app's users do; it needs Tokens.
	Greedy int
	// Alone, after the mix's rounds, measures each operation of the mix alone, in as many
	// rounds: in a closed loop every operation's rate follows the mix's total, so only alone
	// does an operation's own rate on each target show.
	Alone bool
	// HTTPClient sends the requests; one with a connection pool as large as Clients when nil.
	HTTPClient *http.Client
}

func (cfg *Config) check() error {
	switch {
	case len(cfg.Targets) == 0:
		return errors.New("no target to measure")
	case cfg.Clients < 1:
		return errors.New("clients must be at least 1")
	case cfg.Rate < 0:
		return errors.New("the rate must be 0 (a closed loop) or more operations a second")
	case cfg.Duration <= 0:
		return errors.New("the duration must be positive: every run is bounded in time")
	case cfg.Rounds < 1:
		return errors.New("rounds must be at least 1")
	case cfg.SampleUsers < 2:
		return errors.New("the sample must have at least 2 users")
	case cfg.Mix.total == 0:
		return errors.New("no mix")
	case cfg.Tokens == nil && cfg.Mix.needsCaller():
		return errors.New("the feed is the caller's: it needs a signing secret (--jwt-secret)")
	case cfg.Tokens == nil && cfg.Subscribers > 0:
		return errors.New("feedPhotoAdded is the caller's: subscription mode needs a signing secret (--jwt-secret)")
	case cfg.Greedy < 0:
		return errors.New("the greedy caller's clients must be 0 (none) or more")
	case cfg.Greedy > 0 && cfg.Tokens == nil:
		return errGreedyNeedsTokens
	case cfg.Greedy > 0 && cfg.Subscribers > 0:
		return errors.New("a greedy caller and subscription mode are measured in separate runs")
	case cfg.Alone && (cfg.Greedy > 0 || cfg.Subscribers > 0):
		return errors.New("each operation alone is measured without a greedy caller or subscribers")
	}
	return nil
}

// Span is how long Run takes at most, its rounds on every target counted (twice each with a
// greedy caller, once more per operation measured alone): what the run's tokens must outlive.
func (cfg Config) Span() time.Duration {
	rounds := cfg.Rounds * len(cfg.Targets)
	if cfg.Greedy > 0 {
		rounds *= 2
	}
	if cfg.Alone {
		rounds *= 1 + len(cfg.Mix.ops)
	}
	return time.Duration(rounds) * (cfg.Warmup + cfg.Duration)
}

// Run measures every target, round by round, and reports what each sustained.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.HTTPClient == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = cfg.Clients + cfg.Subscribers + cfg.Greedy
		cfg.HTTPClient = &http.Client{Transport: t}
	}
	data := sampleDataset(cfg.SampleUsers, cfg.Seed)
	// Each target keeps its population for the whole run: what the mix made there, the
	// operations alone find made.
	pops := make([]*population, len(cfg.Targets))
	for i := range pops {
		pops[i] = data.on()
	}
	report, err := runMix(ctx, cfg, pops)
	if err != nil || !cfg.Alone {
		return report, err
	}
	for _, op := range cfg.Mix.ops {
		alone := cfg
		alone.Mix = Mix{ops: []*operation{op}, weights: []int{1}, total: 1}
		r, err := runMix(ctx, alone, pops)
		report.Alone = append(report.Alone, r)
		if err != nil {
			return report, fmt.Errorf("%s alone: %w", op.name, err)
		}
	}
	return report, nil
}

// runMix measures cfg.Mix on every target, round by round, each on its population.
func runMix(ctx context.Context, cfg Config, pops []*population) (*Report, error) {
	report := &Report{Mix: cfg.Mix.String(), Clients: cfg.Clients, Rate: cfg.Rate, Procs: runtime.GOMAXPROCS(0)}
	for _, url := range cfg.Targets {
		report.Targets = append(report.Targets, newTargetReport(url, cfg.Mix))
	}
	for round := 0; round < cfg.Rounds; round++ {
		// Each round starts with the next target, so that no target is always the one measured
		// first (on a machine that has just been idle) or right after the same other one.
		for j := range report.Targets {
			i := (round + j) % len(report.Targets)
			target := report.Targets[i]
			if err := runRound(ctx, cfg, pops[i], target, round); err != nil {
				return report, fmt.Errorf("%s, round %d: %w", target.URL, round+1, err)
			}
		}
	}
	return report, nil
}

// runRound warms a target up, then measures one round on it.
func runRound(ctx context.Context, cfg Config, pop *population, target *TargetReport, round int) error {
	if cfg.Warmup > 0 {
		warm, cancel := context.WithTimeout(ctx, cfg.Warmup)
		drive(warm, cfg, pop, target.URL, 0, int64(round), nil, nil)
		cancel()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if cfg.Greedy > 0 {
		return runGreedyRound(ctx, cfg, pop, target, round)
	}
	var subs *subscribers
	if cfg.Subscribers > 0 {
		var err error
		if subs, err = subscribe(ctx, target.URL, cfg.Subscribers, pop, cfg.Tokens); err != nil {
			return err
		}
	}
	measure, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	rec := newRecorder(cfg.Mix)
	cpu0, cpuKnown := processCPU()
	start := time.Now()
	drive(measure, cfg, pop, target.URL, cfg.MaxOps, int64(round)+1000, rec, subs)
	elapsed := time.Since(start)
	if cpu1, _ := processCPU(); cpuKnown {
		target.ToolCPU += cpu1 - cpu0
	}
	if subs != nil {
		// The last uploads' events are still on their way: the stream is polled.
		subs.drain(ctx, 5*time.Second)
		subs.close()
	}
	target.add(rec, elapsed, subs)
	return ctx.Err()
}

// drive runs cfg.Clients clients until ctx ends or maxOps operations (when positive) were sent,
// recording each operation in rec (nil to record nothing).
func drive(ctx context.Context, cfg Config, pop *population, url string, maxOps int, seed int64, rec *recorder, subs *subscribers) {
	var sent atomic.Int64
	var pace *pacer
	if cfg.Rate > 0 {
		pace = newPacer(cfg.Rate)
	}
	var wg sync.WaitGroup
	for i := range cfg.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &client{pop: pop, rand: rand.New(rand.NewPCG(uint64(seed), uint64(i)))}
			for ctx.Err() == nil && (maxOps <= 0 || sent.Add(1) <= int64(maxOps)) {
				var due time.Time
				if pace != nil {
					// Past due when every client was busy at its due time: that wait is latency
					// a phone sending then would have seen, and counts.
					if due = pace.due(); !waitUntil(ctx, due) {
						return
					}
				}
				op := cfg.Mix.pick(c.rand)
				next := op.next(c)
				actor := next.actor
				if actor == "" && cfg.Greedy > 0 {
					// Beside a greedy caller every request is signed in, as a user drawn from
					// the sample, as the app's many users each send a few: a per-caller rate
					// limit then sees callers that each spend a little.
					actor = c.user()
				}
				token, err := tokenFor(cfg.Tokens, actor)
				if err != nil {
					rec.failed(op, err)
					continue
				}
				if next.upload != nil && subs != nil {
					subs.uploading(*next.upload, time.Now())
				}
				began := time.Now()
				if pace != nil {
					began = due
				}
				var ans answer
				if next.flow != nil {
					ans, err = next.flow(ctx, cfg.HTTPClient, url, token)
				} else {
					ans, err = post(ctx, cfg.HTTPClient, url, token, next)
				}
				took := time.Since(began)
				if err != nil {
					if ctx.Err() != nil {
						return // cut off by the end of the round: not the server's failure
					}
					rec.failed(op, err)
					continue
				}
				if next.settle != nil {
					next.settle(ans.code)
				}
				rec.answered(op, ans.code, took)
			}
		}()
	}
	wg.Wait()
	if pace != nil {
		// The round ended at its deadline, or sooner at its count of operations.
		end := time.Now()
		if deadline, ok := ctx.Deadline(); ok && deadline.Before(end) {
			end = deadline
		}
		rec.behind(pace.backlog(end))
	}
}

// tokenFor is actor's token, "" when there is no actor or no way to sign.
func tokenFor(tokens func(string) (string, error), actor string) (string, error) {
	if tokens == nil || actor == "" {
		return "", nil
	}
	return tokens(actor)
}
