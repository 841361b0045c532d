package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/ratelimit"
	"github.com/quickphotos/quickphotos/telemetry"
)

// rateLimited starts a server with authentication whose callers have buckets of limits in
// memory, timed by the returned clock, and telemetry (for /metrics).
func rateLimited(t *testing.T, limits ratelimit.Limits, opts ...apitest.Option) (*apitest.Server, *testClock) {
	t.Helper()
	clk := newTestClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	buckets, err := ratelimit.NewMemory(limits, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	tel := telemetry.New(telemetry.Options{})
	opts = append(opts, apitest.WithAuth(), apitest.WithStoreObserver(tel.Store()), apitest.WithConfig(func(c *api.Config) {
		c.RateLimit = buckets
		c.Telemetry = tel
	}))
	return apitest.NewServer(t, opts...), clk
}

const profileOf = `query($u: ID!) { user(username: $u) { username name followerCount } }`

// spend sends reads as the caller until one is refused, and returns that refusal.
func spend(t *testing.T, as *apitest.Server) *apitest.Response {
	t.Helper()
	for range 200 {
		resp := as.Query(t, profileOf, map[string]any{"u": "alice"})
		if resp.Status != http.StatusOK {
			return resp
		}
		if len(resp.Errors) > 0 {
			t.Fatalf("an admitted read failed: %+v", resp.Errors)
		}
	}
	t.Fatal("200 reads were never refused")
	return nil
}

// TestRateLimit_AnOverdrawnCallerIsRefused: a caller who spent their bucket is refused with
// 429, Retry-After and LIMIT_EXCEEDED, a mutation of theirs writes nothing, another caller is
// served meanwhile, and once the bucket refills the caller is served again.
func TestRateLimit_AnOverdrawnCallerIsRefused(t *testing.T) {
	srv, clk := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 1})
	srv.MustCreateUsers(t, "alice", "bob")
	alice, bob := srv.As(t, "alice"), srv.As(t, "bob")

	refused := spend(t, alice)
	if refused.Status != http.StatusTooManyRequests || refused.Code() != "LIMIT_EXCEEDED" || refused.Data != nil {
		t.Fatalf("refused with status %d, code %s, data %s; want 429, LIMIT_EXCEEDED, no data", refused.Status, refused.Code(), refused.Data)
	}
	retry, err := strconv.Atoi(refused.Header.Get("Retry-After"))
	if err != nil || retry < 1 {
		t.Fatalf("Retry-After %q: want whole seconds, at least 1", refused.Header.Get("Retry-After"))
	}
	if got := refused.Errors[0].Extensions["retryAfter"]; got != float64(retry) {
		t.Errorf("extensions.retryAfter %v, Retry-After %d", got, retry)
	}

	items := srv.ItemCount(t)
	if upload := srv.UploadPhoto(t, "alice", apitest.Timestamp(1)); upload.Status != http.StatusTooManyRequests || upload.Code() != "LIMIT_EXCEEDED" {
		t.Fatalf("alice's upload in debt: status %d, code %s", upload.Status, upload.Code())
	}
	if n := srv.ItemCount(t); n != items {
		t.Fatalf("the refused upload wrote: %d items, was %d", n, items)
	}

	if resp := bob.Query(t, profileOf, map[string]any{"u": "alice"}); resp.Status != http.StatusOK || len(resp.Errors) > 0 {
		t.Fatalf("bob, whose bucket is his own: status %d, %+v", resp.Status, resp.Errors)
	}

	clk.Advance(time.Duration(retry-1) * time.Second)
	if resp := alice.Query(t, profileOf, map[string]any{"u": "alice"}); resp.Status != http.StatusTooManyRequests {
		t.Fatalf("a second before Retry-After: status %d, want 429", resp.Status)
	}
	clk.Advance(time.Second)
	if resp := alice.UploadPhoto(t, "alice", apitest.Timestamp(1)); resp.Status != http.StatusOK || len(resp.Errors) > 0 {
		t.Fatalf("after Retry-After: status %d, %+v", resp.Status, resp.Errors)
	}
}

// TestRateLimit_AnonymousCallersBehindAProxy: behind a trusted proxy (loopback here, where the
// test's requests come from), anonymous callers are known by the address the proxy says it was
// reached from, each with a bucket of its own, and an address a client writes left of the
// proxy's does not give it another; with no proxy trusted, the header counts for nothing and
// they share the connection's bucket.
func TestRateLimit_AnonymousCallersBehindAProxy(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted []string
		shared  bool
	}{
		{"trusted", []string{"127.0.0.0/8", "::1"}, false},
		{"untrusted", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxies, err := api.ParseTrustedProxies(tc.trusted)
			if err != nil {
				t.Fatal(err)
			}
			srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 1}, apitest.WithConfig(func(c *api.Config) { c.TrustedProxies = proxies }))
			srv.MustCreateUsers(t, "alice")

			if refused := spend(t, srv.WithHeader("X-Forwarded-For", "198.51.100.7")); refused.Code() != "LIMIT_EXCEEDED" {
				t.Fatalf("refused with %d %s, want LIMIT_EXCEEDED", refused.Status, refused.Code())
			}
			forged := srv.WithHeader("X-Forwarded-For", "203.0.113.9, 198.51.100.7")
			if resp := forged.Query(t, profileOf, map[string]any{"u": "alice"}); resp.Status != http.StatusTooManyRequests {
				t.Errorf("the same caller with a made-up address in front: status %d, want 429", resp.Status)
			}
			resp := srv.WithHeader("X-Forwarded-For", "198.51.100.8").Query(t, profileOf, map[string]any{"u": "alice"})
			if tc.shared && resp.Status != http.StatusTooManyRequests {
				t.Errorf("another address behind an untrusted proxy: status %d, want 429 (one bucket)", resp.Status)
			}
			if !tc.shared && (resp.Status != http.StatusOK || len(resp.Errors) > 0) {
				t.Errorf("another caller behind the proxy: status %d, %+v; want its own bucket", resp.Status, resp.Errors)
			}
		})
	}
}

// TestRateLimit_CostReportsTheBucket: extensions.cost.limit is the caller's bucket after the
// operation's charge: its capacity and refill, and what is left once the units extensions.cost
// reports (at least half a unit) are taken. A refused request reports the bucket too.
func TestRateLimit_CostReportsTheBucket(t *testing.T) {
	srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 1000, RefillPerSecond: 0.001})
	srv.MustCreateUser(t, "alice")
	alice := srv.As(t, "alice")

	type withLimit struct {
		Extensions struct {
			Cost struct {
				ReadCapacityUnits  float64          `json:"readCapacityUnits"`
				WriteCapacityUnits float64          `json:"writeCapacityUnits"`
				Limit              *ratelimit.State `json:"limit"`
			} `json:"cost"`
		} `json:"extensions"`
	}
	post := func(query string) (withLimit, int) {
		resp, raw := postWithCost(t, alice, query, true)
		var r withLimit
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		return r, resp.StatusCode
	}
	first, _ := post(`{ user(username: "alice") { name } }`)
	second, _ := post(`{ __typename }`)
	one, two := first.Extensions.Cost, second.Extensions.Cost
	if one.Limit == nil || two.Limit == nil {
		t.Fatalf("extensions.cost has no limit: %+v, %+v", one, two)
	}
	if one.Limit.Capacity != 1000 || one.Limit.RefillPerSecond != 0.001 {
		t.Errorf("limit %+v: want the bucket's capacity and refill", one.Limit)
	}
	spent := one.ReadCapacityUnits + one.WriteCapacityUnits
	if spent <= 0 {
		t.Fatalf("reading a profile cost %v units", spent)
	}
	// Refill over the test's milliseconds is under a thousandth of a unit a second: none here
	// (the clock does not move).
	if d := (one.Limit.Remaining - two.Limit.Remaining) - 0.5; d > 1e-9 || d < -1e-9 {
		t.Errorf("an operation that read nothing took %v units, want the least charge, 0.5", one.Limit.Remaining-two.Limit.Remaining)
	}

	// Without the header, no extensions.cost, limits or not.
	if _, raw := postWithCost(t, alice, `{ __typename }`, false); strings.Contains(string(raw), `"cost"`) {
		t.Errorf("extensions.cost without asking: %s", raw)
	}

	// A caller deep in debt is refused, and told the bucket.
	srvDebt, _ := rateLimited(t, ratelimit.Limits{Capacity: 1, RefillPerSecond: 0.001})
	srvDebt.MustCreateUser(t, "alice") // the create's write units overdraw a bucket of one unit
	resp, raw := postWithCost(t, srvDebt.As(t, "alice"), `{ __typename }`, true)
	var refused withLimit
	_ = json.Unmarshal(raw, &refused)
	if l := refused.Extensions.Cost.Limit; resp.StatusCode != http.StatusTooManyRequests || l == nil || l.Remaining > 0 || l.Capacity != 1 {
		t.Errorf("refused (%d): extensions.cost.limit %+v, want the bucket in debt", resp.StatusCode, l)
	}
}

// postWithCost posts query as srv's caller, asking for the cost when cost is true, and returns the
// raw response.
func postWithCost(t *testing.T, srv *apitest.Server, query string, cost bool) (*http.Response, []byte) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+api.Endpoint, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+srv.Token(t, "alice"))
	if cost {
		req.Header.Set(api.CostHeader, "1")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, raw
}

// TestRateLimit_Subscriptions: a caller in debt cannot start a subscription, over graphql-ws
// or Server-Sent Events; another caller can.
func TestRateLimit_Subscriptions(t *testing.T) {
	srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 0.001}, apitest.WithLive(live.Config{}))
	srv.MustCreateUsers(t, "alice", "bob")
	spend(t, srv.As(t, "alice"))
	q := `subscription { userChanged(username: "bob") { kind } }`

	if code := srv.DialWS(t, srv.Token(t, "alice")).SubscribeRefused(t, "1", q, nil); code != "LIMIT_EXCEEDED" {
		t.Errorf("alice in debt subscribes over graphql-ws: %s, want LIMIT_EXCEEDED", code)
	}
	resp, sse := srv.As(t, "alice").QueryOverSSE(t, q, nil)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(sse, `"code":"LIMIT_EXCEEDED"`) {
		t.Errorf("alice in debt subscribes over SSE: %d %s, want 429 with Retry-After, LIMIT_EXCEEDED", resp.StatusCode, sse)
	}
	srv.DialWS(t, srv.Token(t, "bob")).Subscribe(t, "1", q, nil)
}

// TestRateLimit_LiveOperationsAreAdmittedBeforeTheirDocumentIsRead: over graphql-ws and
// Server-Sent Events as over HTTP, an operation is admitted before its document is parsed: a
// caller in debt is refused with LIMIT_EXCEEDED whatever the document (one that would not
// validate is not even looked at), and a caller who is not pays the least charge for a
// document that does not validate; a subscription pays it as it starts, its events nothing.
func TestRateLimit_LiveOperationsAreAdmittedBeforeTheirDocumentIsRead(t *testing.T) {
	srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 0.001}, apitest.WithLive(live.Config{}))
	srv.MustCreateUsers(t, "alice", "bob")
	const invalid = `{ user(username: "alice") { username nosuchfield } }`

	charged := unitsCharged(t, srv)
	bob := srv.DialWS(t, srv.Token(t, "bob"))
	if code := bob.SubscribeRefused(t, "invalid", invalid, nil); code != "GRAPHQL_VALIDATION_FAILED" {
		t.Fatalf("bob's invalid document over graphql-ws: %s", code)
	}
	if resp, sse := srv.As(t, "bob").QueryOverSSE(t, invalid, nil); resp.StatusCode != http.StatusOK || !strings.Contains(sse, "GRAPHQL_VALIDATION_FAILED") {
		t.Fatalf("bob's invalid document over SSE: %d %s", resp.StatusCode, sse)
	}
	bob.Subscribe(t, "carol", `subscription { userChanged(username: "carol") { kind } }`, nil)
	if _, err := srv.Store.CreateUser(t.Context(), "carol", domain.Profile{}); err != nil { // not through the API: it charges no one
		t.Fatal(err)
	}
	bob.Next(t, "carol")
	// An operation is charged once its answer is sent.
	apitest.Eventually(t, "two invalid documents and a subscription with an event charged 1.5 units", func() (bool, string) {
		got := unitsCharged(t, srv) - charged
		return got == 3*0.5, fmt.Sprintf("%v units", got)
	})

	spend(t, srv.As(t, "alice"))
	if code := srv.DialWS(t, srv.Token(t, "alice")).SubscribeRefused(t, "invalid", invalid, nil); code != "LIMIT_EXCEEDED" {
		t.Errorf("alice in debt sends an invalid document over graphql-ws: %s, want LIMIT_EXCEEDED", code)
	}
	resp, sse := srv.As(t, "alice").QueryOverSSE(t, invalid, nil)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(sse, `"code":"LIMIT_EXCEEDED"`) {
		t.Errorf("alice in debt sends an invalid document over SSE: %d %s, want 429 LIMIT_EXCEEDED", resp.StatusCode, sse)
	}
}

// unitsCharged is what /metrics says authenticated callers were charged so far.
func unitsCharged(t *testing.T, srv *apitest.Server) float64 {
	t.Helper()
	const metric = `quickphotos_ratelimit_units_total{caller="user"} `
	for _, line := range strings.Split(scrape(t, srv), "\n") {
		if v, ok := strings.CutPrefix(line, metric); ok {
			units, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return units
		}
	}
	return 0
}

// TestRateLimit_ARefusalHoldsTheGraphQLWSConnection: a refusal over graphql-ws is held as over
// HTTP, and the connection reads its next message only once the refusal is sent: operations
// sent at once by a caller in debt are refused two a second, and a ping behind them is
// answered after them.
func TestRateLimit_ARefusalHoldsTheGraphQLWSConnection(t *testing.T) {
	srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 0.001}, apitest.WithLive(live.Config{}))
	srv.MustCreateUser(t, "alice")
	spend(t, srv.As(t, "alice"))
	ws := srv.DialRawWS(t)
	ws.Init(t, srv.Token(t, "alice"))
	const n = 4
	start := time.Now()
	for i := range n {
		ws.Send(t, fmt.Sprintf(`{"id":"%d","type":"subscribe","payload":{"query":"{ __typename }"}}`, i))
	}
	ws.Send(t, `{"type":"ping"}`)
	for i := range n {
		m := ws.Next(t)
		if m["type"] != "error" || m["id"] != strconv.Itoa(i) || !strings.Contains(fmt.Sprint(m["payload"]), "LIMIT_EXCEEDED") {
			t.Fatalf("message %d: %v, want operation %d refused with LIMIT_EXCEEDED", i, m, i)
		}
		if took, least := time.Since(start), time.Duration(i+1)*500*time.Millisecond; took < least {
			t.Errorf("refusal %d sent after %v, want at least %v: the connection went on reading", i, took, least)
		}
	}
	if m := ws.Next(t); m["type"] != "pong" {
		t.Errorf("after the refusals: %v, want the ping's pong", m)
	}
}

// TestRateLimit_QueriesOverLiveConnections: graphql-ws and Server-Sent Events carry queries and
// mutations too; those are charged and refused as over plain HTTP, so the limit has no side door.
func TestRateLimit_QueriesOverLiveConnections(t *testing.T) {
	srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 0.001}, apitest.WithLive(live.Config{}))
	srv.MustCreateUsers(t, "alice", "bob")
	ws := srv.DialWS(t, srv.Token(t, "bob"))
	refused := ""
	for i := range 200 {
		resp := ws.Query(t, strconv.Itoa(i), profileOf, map[string]any{"u": "alice"})
		if code := resp.Code(); code != "" {
			refused = code
			break
		}
	}
	if refused != "LIMIT_EXCEEDED" {
		t.Fatalf("bob's queries over graphql-ws: never refused (last code %q)", refused)
	}
	items := srv.ItemCount(t)
	if resp := ws.Query(t, "upload", `mutation { uploadPhoto(input: {owner: "bob", timestamp: "2024-01-01T00:00:00Z", url: "https://cdn.example.com/b.jpg"}) { timestamp } }`, nil); resp.Code() != "LIMIT_EXCEEDED" {
		t.Errorf("bob's upload over graphql-ws in debt: %+v", resp.Errors)
	}
	if n := srv.ItemCount(t); n != items {
		t.Errorf("the refused upload wrote: %d items, was %d", n, items)
	}
	// Over HTTP, bob's bucket is the same one.
	if resp := srv.As(t, "bob").Query(t, profileOf, map[string]any{"u": "alice"}); resp.Status != http.StatusTooManyRequests {
		t.Errorf("bob over HTTP after spending over graphql-ws: status %d", resp.Status)
	}
}

// TestRateLimit_Metrics: refusals and charged units are counted by kind of caller.
func TestRateLimit_Metrics(t *testing.T) {
	srv, _ := rateLimited(t, ratelimit.Limits{Capacity: 20, RefillPerSecond: 0.001})
	srv.MustCreateUser(t, "alice")
	spend(t, srv.As(t, "alice"))
	srv.Query(t, `{ __typename }`, nil) // anonymous: the address's bucket
	metrics := scrape(t, srv)
	for _, want := range []string{
		`quickphotos_ratelimit_refused_total{caller="user"} 1`,
		`quickphotos_ratelimit_units_total{caller="user"} `,
		`quickphotos_ratelimit_units_total{caller="address"} 0.5`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func scrape(t *testing.T, srv *apitest.Server) string {
	t.Helper()
	res, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// TestRateLimit_BucketsUnreachable: when the buckets' Redis does not answer, requests run
// unmetered rather than all being refused, and the failures are counted.
func TestRateLimit_BucketsUnreachable(t *testing.T) {
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: time.Second})
	t.Cleanup(func() { dead.Close() })
	buckets, err := ratelimit.NewRedis(dead, "qp:", ratelimit.Limits{Capacity: 1, RefillPerSecond: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tel := telemetry.New(telemetry.Options{})
	srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) { c.RateLimit = buckets; c.Telemetry = tel }))
	for range 3 {
		if resp := srv.Query(t, `{ __typename }`, nil); resp.Status != http.StatusOK || len(resp.Errors) > 0 {
			t.Fatalf("with the buckets down: status %d, %+v", resp.Status, resp.Errors)
		}
	}
	if m := scrape(t, srv); !strings.Contains(m, `quickphotos_ratelimit_failures_total{caller="address"} 3`) {
		t.Errorf("/metrics does not count 3 unmetered requests:\n%s", grepLines(m, "ratelimit"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
