package loadtest

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

// greedyQuery is what the greedy caller sends: 100 users with 10 photos each and their
// totals, a BatchGetItem of 100 profiles and 100 Queries of photos (about 100 read units on
// the sample), inside the server's query limits and some 40 times what an operation of the
// standard mix costs.
const greedyQuery = `query Greedy($us: [ID!]!) { users(usernames: $us) { name photos(first: 10) { edges { node { url reactionCounts { total } } } } } }`

// greedyUsernames is how many users greedyQuery asks for: the most users takes.
const greedyUsernames = 100

// greedyUser is the user the greedy caller signs in as: one the sample does not have, so that
// no operation of the mix acts as it (a token names any username; reads need no profile).
const greedyUser = "loadtest-greedy"

// GreedyReport is how a target's other callers fared beside a greedy caller: one user whose
// clients send greedyQuery back to back and, when refused, again at once, ignoring Retry-After.
// Each round measures the mix twice, alone and beside the greedy caller, in alternating order.
type GreedyReport struct {
	// Clients are the greedy caller's clients.
	Clients int
	// Alone and Beside are the latencies of the mix's reads (every operation but the writes)
	// without and with the greedy caller.
	Alone, Beside latencies
	// AloneTime and BesideTime are the measured time of each phase.
	AloneTime, BesideTime time.Duration
	// Served, Refused and Failed count the greedy caller's requests: answered, refused with
	// LIMIT_EXCEEDED, and anything else.
	Served, Refused, Failed int
}

// greedyCounts counts one phase's greedy requests, for every greedy client at once.
type greedyCounts struct {
	mu                      sync.Mutex
	served, refused, failed int
}

func (g *greedyCounts) note(code string, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case err != nil:
		g.failed++
	case code == "":
		g.served++
	case code == codeLimitExceeded:
		g.refused++
	default:
		g.failed++
	}
}

// codeLimitExceeded is the extensions.code of a request refused by a rate limit.
const codeLimitExceeded = "LIMIT_EXCEEDED"

// runGreedy starts the greedy caller's clients until the returned stop is called.
func runGreedy(ctx context.Context, cfg Config, pop *population, url string, seed int64, counts *greedyCounts) (stop func(), err error) {
	token, err := tokenFor(cfg.Tokens, greedyUser)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range cfg.Greedy {
		wg.Go(func() {
			c := &client{pop: pop, rand: rand.New(rand.NewPCG(uint64(seed), uint64(1000+i)))}
			for ctx.Err() == nil {
				ans, err := post(ctx, cfg.HTTPClient, url, token, call{document: greedyQuery, vars: map[string]any{"us": c.users(greedyUsernames)}})
				if ctx.Err() != nil {
					return
				}
				counts.note(ans.code, err)
			}
		})
	}
	return func() { cancel(); wg.Wait() }, nil
}

// runGreedyRound measures the mix alone and beside the greedy caller, in an order that
// alternates by round; the alone phase goes into the target's main report.
func runGreedyRound(ctx context.Context, cfg Config, pop *population, target *TargetReport, round int) error {
	if target.Greedy == nil {
		target.Greedy = &GreedyReport{Clients: cfg.Greedy}
	}
	g := target.Greedy
	for phase := range 2 {
		beside := (phase+round)%2 == 1
		measure, cancel := context.WithTimeout(ctx, cfg.Duration)
		rec := newRecorder(cfg.Mix)
		counts := &greedyCounts{}
		stop := func() {}
		if beside {
			var err error
			if stop, err = runGreedy(measure, cfg, pop, target.URL, int64(round), counts); err != nil {
				cancel()
				return err
			}
		}
		start := time.Now()
		drive(measure, cfg, pop, target.URL, cfg.MaxOps, int64(round)+1000, rec, nil)
		elapsed := time.Since(start)
		stop()
		cancel()
		if err := ctx.Err(); err != nil {
			return err
		}
		reads := rec.reads()
		if beside {
			g.Beside, g.BesideTime = append(g.Beside, reads...), g.BesideTime+elapsed
			g.Served, g.Refused, g.Failed = g.Served+counts.served, g.Refused+counts.refused, g.Failed+counts.failed
			// What the mix's callers were refused or failed beside the greedy one shows in the
			// main report too: a limit that refuses them is set too low for the test.
			for i, got := range rec.ops {
				target.Ops[i].Failed += got.Failed
				for _, e := range got.Errors {
					target.Ops[i].noteError(e + " (beside the greedy caller)")
				}
			}
		} else {
			g.Alone, g.AloneTime = append(g.Alone, reads...), g.AloneTime+elapsed
			target.add(rec, elapsed, nil)
		}
	}
	return nil
}

// reads are the latencies of the reads a round recorded.
func (r *recorder) reads() latencies {
	var out latencies
	for op, i := range r.idx {
		if !op.write {
			out = append(out, r.ops[i].Latency...)
		}
	}
	return out
}

var errGreedyNeedsTokens = errors.New("a greedy caller is a signed-in user, and the mix's callers sign in beside it: it needs a signing secret (--jwt-secret)")
