package loadtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/loadtest"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/sample"
)

func TestMain(m *testing.M) { os.Exit(apitest.Main(m)) }

// sampleUsers is the size of the sample the test servers hold.
const sampleUsers = 30

// sampleServer starts a server holding the sample, as `serve --sample --sample-users 30` does.
func sampleServer(t *testing.T, opts ...apitest.Option) *apitest.Server {
	srv := apitest.NewServer(t, opts...)
	srv.WriteRaw(t, *sample.Generate(sample.Config{Users: sampleUsers, Seed: 1}))
	return srv
}

// tokensOf signs tokens the server verifies.
func tokensOf(srv *apitest.Server) func(string) (string, error) {
	return func(username string) (string, error) {
		return auth.Mint(srv.Secret(), username, time.Hour, auth.Options{})
	}
}

func mix(t *testing.T, spec string) loadtest.Mix {
	m, err := loadtest.ParseMix(spec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The feed mix with subscribers, on a server with authentication, its feed and live updates:
// every operation is answered, uploads reach subscribers, and after concurrent reacts and
// follows, undone and redone, every counter still equals what it counts.
func TestRun_FeedMixWithSubscribers(t *testing.T) {
	srv := sampleServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{}), apitest.WithLive(live.Config{}))
	const ops = 400
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{srv.URL + api.Endpoint}, Mix: mix(t, "feed"), Clients: 4, Rounds: 1,
		Duration: time.Minute, MaxOps: ops, SampleUsers: sampleUsers, Seed: 1,
		Tokens: tokensOf(srv), Subscribers: 8,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	report.Write(&out)
	t.Log(out.String())
	target := report.Targets[0]
	if target.Total() != ops || target.Failed() != 0 {
		t.Fatalf("answered %d of %d operations, %d failed", target.Total(), ops, target.Failed())
	}
	for _, op := range target.Ops {
		if op.OK == 0 {
			t.Errorf("%s never succeeded", op.Name)
		}
		if len(op.Latency) != op.OK+op.Rejected {
			t.Errorf("%s: %d latencies for %d answers", op.Name, len(op.Latency), op.OK+op.Rejected)
		}
	}
	live := target.Live
	if live == nil || live.Timed == 0 || len(live.Lag) != live.Timed || live.Ended != 0 {
		t.Fatalf("subscription mode: %+v", live)
	}
	check, err := srv.Store.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(check.Problems) > 0 {
		t.Errorf("the table's counters disagree after the run: %v", check.Problems)
	}
}

// Several targets are measured in alternating rounds, each its own report. Each holds its own
// data, so one client sending the same operations to both gets the same answers from both:
// what the run made on one is not taken to exist on the other.
func TestRun_AlternatesTargets(t *testing.T) {
	a, b := sampleServer(t), sampleServer(t)
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{a.URL + api.Endpoint, b.URL + api.Endpoint}, Mix: mix(t, "react=1,follow=1,profile=1"), Clients: 1,
		Rounds: 2, Duration: time.Minute, MaxOps: 60, SampleUsers: sampleUsers, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range report.Targets {
		if len(target.Rounds) != 2 || target.Total() != 120 || target.Failed() != 0 {
			t.Errorf("%s: %d rounds, %d answered, %d failed", target.URL, len(target.Rounds), target.Total(), target.Failed())
		}
	}
	for _, name := range []string{"react", "follow"} {
		onA, onB := report.Targets[0].Op(name), report.Targets[1].Op(name)
		if onA.OK != onB.OK || onA.Rejected != onB.Rejected || onA.OK == 0 {
			t.Errorf("%s: %d succeeded and %d rejected on one target, %d and %d on the other", name, onA.OK, onA.Rejected, onB.OK, onB.Rejected)
		}
	}
	var out strings.Builder
	report.Write(&out)
	if !strings.Contains(out.String(), "ops/s relative to "+a.URL) {
		t.Errorf("no ratio in the report:\n%s", out.String())
	}
}

// The report says how busy the load tool kept its own cores and its CPU per operation, and warns
// when the tool, not the target, was the limit.
func TestReport_ToolCPU(t *testing.T) {
	for _, tc := range []struct {
		name    string
		procs   int
		toolCPU time.Duration
		want    []string
		notWant []string
	}{
		{"unknown", 1, 0, nil, []string{"load tool:"}},
		{"room to spare", 2, 5 * time.Second, []string{"load tool: 0.50 of its 2 cores busy, 5000µs of CPU per operation"}, []string{"near its limit"}},
		{"at its limit", 1, 9500 * time.Millisecond, []string{"load tool: 0.95 of its 1 cores busy", "near its limit"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			report := &loadtest.Report{Mix: "profile=1", Clients: 1, Procs: tc.procs, Targets: []*loadtest.TargetReport{{
				URL: "http://127.0.0.1:1/graphql", Elapsed: 10 * time.Second, ToolCPU: tc.toolCPU,
				Ops: []*loadtest.OpReport{{Name: "profile", OK: 1000}},
			}}}
			var out strings.Builder
			report.Write(&out)
			for _, s := range tc.want {
				if !strings.Contains(out.String(), s) {
					t.Errorf("no %q in\n%s", s, out.String())
				}
			}
			for _, s := range tc.notWant {
				if strings.Contains(out.String(), s) {
					t.Errorf("%q in\n%s", s, out.String())
				}
			}
		})
	}
}

// Each operation alone: the report names the operations and targets whose rate the load tool
// may have set itself.
func TestReport_ToolNearItsLimitAlone(t *testing.T) {
	target := func(url string, toolCPU time.Duration) *loadtest.TargetReport {
		return &loadtest.TargetReport{URL: url, Elapsed: 10 * time.Second, ToolCPU: toolCPU,
			Ops: []*loadtest.OpReport{{Name: "profile", OK: 1000}}}
	}
	const floor, serve = "http://127.0.0.1:1/graphql", "http://127.0.0.1:2/graphql"
	report := &loadtest.Report{Mix: "profile=1", Clients: 1, Procs: 1,
		Targets: []*loadtest.TargetReport{target(floor, 5*time.Second), target(serve, 3*time.Second)},
		Alone: []*loadtest.Report{{Mix: "profile=1", Clients: 1, Procs: 1,
			Targets: []*loadtest.TargetReport{target(floor, 9700*time.Millisecond), target(serve, 4*time.Second)}}},
	}
	var out strings.Builder
	report.Write(&out)
	want := "the load tool was near its limit, so these rates may be the tool's, not the target's (--procs): profile on [1] (0.97 of its 1 cores)\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("no %q in\n%s", want, out.String())
	}
}

// A server that does not answer GraphQL fails every operation, and the report says why.
func TestRun_CountsFailures(t *testing.T) {
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	}))
	defer broken.Close()
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{broken.URL}, Mix: mix(t, "profile=1"), Clients: 2, Rounds: 1,
		Duration: time.Minute, MaxOps: 10, SampleUsers: sampleUsers, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	op := report.Targets[0].Op("profile")
	if op.Failed != 10 || op.OK != 0 || len(op.Errors) != 1 || !strings.Contains(op.Errors[0], "HTTP 503") {
		t.Errorf("profile: %+v", op)
	}
}

func TestRun_RefusesWhatItCannotRun(t *testing.T) {
	base := loadtest.Config{Targets: []string{"http://127.0.0.1:1/graphql"}, Mix: mix(t, "standard"), Clients: 1,
		Rounds: 1, Duration: time.Second, SampleUsers: sampleUsers}
	for _, tc := range []struct {
		name   string
		change func(*loadtest.Config)
		want   string
	}{
		{"feed without tokens", func(c *loadtest.Config) { c.Mix = mix(t, "feed") }, "signing secret"},
		{"subscribers without tokens", func(c *loadtest.Config) { c.Subscribers = 1 }, "signing secret"},
		{"unbounded", func(c *loadtest.Config) { c.Duration = 0 }, "bounded in time"},
		{"no target", func(c *loadtest.Config) { c.Targets = nil }, "no target"},
		{"no clients", func(c *loadtest.Config) { c.Clients = 0 }, "clients"},
		{"a negative rate", func(c *loadtest.Config) { c.Rate = -1 }, "rate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			tc.change(&cfg)
			if _, err := loadtest.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// An open loop sends no more than its schedule, however fast the target: a closed loop's four
// clients would send thousands of operations to this server in the same second.
func TestRun_OpenLoopKeepsToItsRate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"data":{"user":null}}`))
	}))
	defer srv.Close()
	const rate = 100
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{srv.URL}, Mix: mix(t, "profile=1"), Clients: 4, Rate: rate, Rounds: 1,
		Duration: time.Second, SampleUsers: sampleUsers, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	target := report.Targets[0]
	// Due at 0, 10 ms, …, 1 s: at most 101 inside the round.
	if sent := target.Total() + target.Failed(); sent > rate+1 || !target.KeptUp(rate) {
		t.Errorf("sent %d operations in %s at %d a second (behind by %v at the end), want at most %d, on schedule", sent, target.Elapsed, rate, target.Backlogs, rate+1)
	}
	var out strings.Builder
	report.Write(&out)
	if !strings.Contains(out.String(), "open loop at 100 operations/s") || strings.Contains(out.String(), "behind the rate") {
		t.Errorf("the report does not say it ran an open loop that kept up:\n%s", out.String())
	}
}

// An open loop counts an operation's latency from when it was due: behind a server slower
// than the rate, operations wait for the one client, and that wait is latency a client
// sending at that rate sees, where a closed loop would report only the server's 20 ms.
func TestRun_OpenLoopCountsTheWaitForAClient(t *testing.T) {
	const answerTime = 20 * time.Millisecond
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(answerTime)
		_, _ = w.Write([]byte(`{"data":{"user":null}}`))
	}))
	defer slow.Close()
	const rate = 200 // one operation due every 5 ms, answered every 20 ms or more
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{slow.URL}, Mix: mix(t, "profile=1"), Clients: 1, Rate: rate, Rounds: 1,
		Duration: 500 * time.Millisecond, SampleUsers: sampleUsers, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	target := report.Targets[0]
	op := target.Op("profile")
	// The k-th operation starts 20k ms in, 15k ms after it was due: the median, about the
	// 12th, waited near 180 ms.
	if p50 := op.Latency.Percentile(50); p50 < 3*answerTime || op.OK < 5 {
		t.Errorf("%d operations, p50 %s: want the waits counted, over %s", op.OK, p50, 3*answerTime)
	}
	// About 100 due by the end, 25 sent.
	if target.KeptUp(rate) || len(target.Backlogs) != 1 || target.Backlogs[0] < 50 {
		t.Errorf("behind by %v at the end, having sent %d: want the 75 or so still due", target.Backlogs, op.OK)
	}
	var out strings.Builder
	report.Write(&out)
	if !strings.Contains(out.String(), "behind the rate") {
		t.Errorf("the report does not say the target fell behind:\n%s", out.String())
	}
}

// Each round starts with the next target, so that none is always measured first.
func TestRun_RotatesWhichTargetGoesFirst(t *testing.T) {
	var mu sync.Mutex
	var order []string
	server := func(name string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			mu.Lock()
			if len(order) == 0 || order[len(order)-1] != name {
				order = append(order, name)
			}
			mu.Unlock()
			_, _ = w.Write([]byte(`{"data":{"user":null}}`))
		}))
	}
	a, b, c := server("a"), server("b"), server("c")
	defer a.Close()
	defer b.Close()
	defer c.Close()
	_, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{a.URL, b.URL, c.URL}, Mix: mix(t, "profile=1"), Clients: 1, Rounds: 3,
		Duration: time.Minute, MaxOps: 3, SampleUsers: sampleUsers, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, ""); got != "abcbcacab" {
		t.Errorf("targets were measured in the order %s, want abc, bca, cab", got)
	}
}

// The uploads mix on a server taking files: every upload goes through the whole flow and
// makes a photo with its images, beside the reads.
func TestRun_UploadsMix(t *testing.T) {
	// Each upload decodes and encodes two megapixels: seconds under the race detector on a busy
	// machine, and the second client's upload waits for the first's finish (one at a time on
	// two CPUs). So few operations, bounded by their count rather than the run's duration, and
	// a request timeout no queued upload reaches.
	srv := sampleServer(t, apitest.WithAuth(), apitest.WithMedia(media.Config{}),
		apitest.WithConfig(func(c *api.Config) { c.RequestTimeout = 5 * time.Minute }))
	const ops = 8
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{srv.URL + api.Endpoint}, Mix: mix(t, "uploadfile=50,profile=50"), Clients: 2, Rounds: 1,
		Duration: 10 * time.Minute, MaxOps: ops, SampleUsers: sampleUsers, Seed: 1, Tokens: tokensOf(srv),
	})
	if err != nil {
		t.Fatal(err)
	}
	target := report.Targets[0]
	if target.Total() != ops || target.Failed() != 0 {
		var out strings.Builder
		report.Write(&out)
		t.Fatalf("answered %d of %d operations, %d failed:\n%s", target.Total(), ops, target.Failed(), out.String())
	}
	uploads := 0
	for _, op := range target.Ops {
		if op.Name == "uploadfile" {
			uploads = op.OK
		}
	}
	images := 0
	for _, k := range srv.Objects(t) {
		if strings.HasPrefix(k, "images/") {
			images++
		}
	}
	// Each upload stores its three sizes (1600 × 1200: none the same as another).
	if uploads == 0 || images != 3*uploads {
		t.Fatalf("%d uploads succeeded, the store holds %d images", uploads, images)
	}
}

// With Alone, each operation of the mix is measured alone after the mix, on every target, and
// the report prints a row for each with its rate on each target and its ratio to the first's.
func TestRun_EachOperationAlone(t *testing.T) {
	a, b := sampleServer(t), sampleServer(t)
	report, err := loadtest.Run(context.Background(), loadtest.Config{
		Targets: []string{a.URL + api.Endpoint, b.URL + api.Endpoint}, Mix: mix(t, "profile=3,follow=1"), Clients: 2,
		Rounds: 1, Duration: time.Minute, MaxOps: 20, SampleUsers: sampleUsers, Seed: 1, Alone: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Alone) != 2 {
		t.Fatalf("%d runs alone, want one for each of the mix's 2 operations", len(report.Alone))
	}
	for i, name := range []string{"profile", "follow"} {
		alone := report.Alone[i]
		if alone.Mix != name+"=1" || len(alone.Targets) != 2 {
			t.Errorf("run alone %d: mix %s on %d targets", i, alone.Mix, len(alone.Targets))
			continue
		}
		for _, target := range alone.Targets {
			if len(target.Ops) != 1 || target.Ops[0].Name != name || target.Total() != 20 || target.Failed() != 0 {
				t.Errorf("%s alone on %s: %d answered, %d failed", name, target.URL, target.Total(), target.Failed())
			}
		}
	}
	var out strings.Builder
	report.Write(&out)
	for _, row := range []string{`(?m)^  profile +\d+ +\S+ +\d+\.\d\d× +\d+ `, `(?m)^  follow +\d+ +\S+ +\d+\.\d\d× +\d+ `} {
		if !regexp.MustCompile(row).MatchString(out.String()) {
			t.Errorf("no row %s in the report:\n%s", row, out.String())
		}
	}
}

// Requests lists every distinct read of the sample once, and each mutation's document with
// inputs the sample does not hold, so that a fresh server answers every one without error.
func TestRequests_AFreshServerAnswersEachWithoutError(t *testing.T) {
	srv := sampleServer(t)
	reqs, err := loadtest.Requests(sampleUsers, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := sample.Generate(sample.Config{Users: sampleUsers, Seed: 1})
	if want := 4*sampleUsers + len(d.Photos) + 4; len(reqs) != want {
		t.Errorf("%d requests, want %d: 4 reads of each user, one of each photo, 4 mutations", len(reqs), want)
	}
	seen := map[string]bool{}
	for _, req := range reqs {
		if seen[string(req.Body)] {
			t.Errorf("%s listed twice", req.Body)
		}
		seen[string(req.Body)] = true
		if !req.Write && len(seen) > 12 {
			continue // a sample of the reads is enough here: the floor's tests send them all
		}
		resp, err := http.Post(srv.URL+api.Endpoint, "application/json", strings.NewReader(string(req.Body)))
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Errors []any }
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || len(got.Errors) > 0 {
			t.Errorf("%s %s: HTTP %d, %v %v", req.Op, req.Body, resp.StatusCode, got.Errors, err)
		}
	}
}
