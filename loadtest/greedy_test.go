package loadtest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/loadtest"
	"github.com/quickphotos/quickphotos/ratelimit"
)

// TestRun_GreedyCaller: on a server with a per-caller rate limit, each round measures the mix
// alone and beside a greedy caller; the greedy caller is refused once its bucket is spent, while
// the mix's requests, each signed in as a user drawn from the sample, are never refused.
func TestRun_GreedyCaller(t *testing.T) {
	buckets, err := ratelimit.NewMemory(ratelimit.Limits{Capacity: 100, RefillPerSecond: 50}, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := sampleServer(t, apitest.WithAuth(), apitest.WithConfig(func(c *api.Config) { c.RateLimit = buckets }))
	// The mix runs at a rate of its own (an open loop), so that what each of its users spends
	// does not follow the machine's speed: 200 operations a second over 30 users, a few units a
	// second each, well within the refill. The greedy caller spends as fast as the server
	// answers it, a hundred profiles and their photos an operation: past the refill on the
	// slowest machine (a loaded CI runner answered it 18 times a second), so its bucket is
	// spent within a round, and a refusal comes back (the server holds it half a second).
	const ops = 150
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{srv.URL + api.Endpoint}, Mix: mix(t, "standard"), Clients: 3, Rounds: 2,
		Duration: 1500 * time.Millisecond, Rate: 200, SampleUsers: sampleUsers, Seed: 1,
		Tokens: tokensOf(srv), Greedy: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	report.Write(&out)
	t.Log(out.String())
	target := report.Targets[0]
	// The mix alone goes into the main report: at least 150 operations a round. Together, the
	// mix's requests spend far more than one bucket holds, so one refused would show they
	// shared one.
	if target.Total() < 2*ops || target.Failed() != 0 {
		t.Fatalf("the mix: %d answered, want at least %d; %d failed", target.Total(), 2*ops, target.Failed())
	}
	g := target.Greedy
	if g == nil || g.Clients != 2 || len(g.Alone) == 0 || len(g.Beside) == 0 {
		t.Fatalf("greedy report %+v", g)
	}
	if g.Served == 0 || g.Refused == 0 || g.Failed != 0 {
		t.Errorf("the greedy caller: %d served, %d refused, %d failed; want some served, then refused", g.Served, g.Refused, g.Failed)
	}
	if !strings.Contains(out.String(), "beside a greedy caller (2 clients): the mix's reads p50") {
		t.Errorf("the report does not compare the mix's reads alone and beside the greedy caller")
	}
}

func TestRun_GreedyCallerNeedsTokens(t *testing.T) {
	_, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{"http://127.0.0.1:1/graphql"}, Mix: mix(t, "standard"), Clients: 1, Rounds: 1,
		Duration: time.Second, SampleUsers: sampleUsers, Seed: 1, Greedy: 1,
	})
	if err == nil || !strings.Contains(err.Error(), "--jwt-secret") {
		t.Errorf("a greedy caller without tokens: %v", err)
	}
}
