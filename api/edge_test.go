package api_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/live"
)

func TestQueriesOverALimitAreRefusedWithoutAnyDynamoDBRequest(t *testing.T) {
	var log apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithStoreObserver(&log), apitest.WithConfig(func(c *api.Config) {
		c.Limits = &limits.Config{MaxTokens: 100, MaxDepth: 6, MaxCost: 500, MaxAliases: 2, MaxOperations: 2}
	}))
	cases := []struct {
		name, query, limit string
	}{
		{"depth", `{ user(username: "a") { followers { edges { node { follower { photos { edges { node { url } } } } } } } } }`, "depth"},
		{"cost", `{ users(usernames: ["a", "b", "c"]) { photos(first: 100) { edges { node { url owner { name } } } } } }`, "cost"},
		{"aliases", `{ a: user(username: "a") { name } b: user(username: "b") { name } c: user(username: "c") { name } }`, "aliases"},
		{"tokens", `{ user(username: "a") { ` + strings.Repeat("name ", 100) + `} }`, "tokens"},
		{"operations", `query A { user(username: "a") { name } } query B { user(username: "b") { name } } query C { user(username: "c") { name } }`, "operations"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			params := map[string]any{"query": c.query}
			if c.limit == "operations" {
				params["operationName"] = "A"
			}
			body, _ := json.Marshal(params)
			resp := postRaw(t, srv.URL, body, nil)
			if resp.Code() != limits.Code {
				t.Fatalf("code %q, want %s: %+v", resp.Code(), limits.Code, resp.Errors)
			}
			if got := resp.Errors[0].Extensions["limit"]; got != c.limit {
				t.Errorf("limit %v, want %s (message %q)", got, c.limit, resp.Errors[0].Message)
			}
			if !strings.Contains(resp.Errors[0].Message, "over the limit") {
				t.Errorf("message %q does not say by how much", resp.Errors[0].Message)
			}
		})
	}
	if reqs := log.Requests(); len(reqs) != 0 {
		t.Errorf("refused queries sent DynamoDB requests: %v", reqs)
	}
	// Under the limits the same server serves.
	if resp := srv.Query(t, `{ user(username: "a") { name } }`, nil); len(resp.Errors) > 0 {
		t.Errorf("a small query was refused: %+v", resp.Errors)
	}
}

func TestIntrospectionCanBeSwitchedOff(t *testing.T) {
	const introspect = `{ __schema { queryType { name } } }`
	on := apitest.NewServer(t)
	if resp := on.Query(t, introspect, nil); len(resp.Errors) > 0 || !strings.Contains(string(resp.Data), "Query") {
		t.Fatalf("introspection on by default: %s %+v", resp.Data, resp.Errors)
	}
	off := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) { c.DisableIntrospection = true }))
	resp := off.Query(t, introspect, nil)
	if resp.Code() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(resp.Errors[0].Message, "introspection") {
		t.Fatalf("introspection switched off answered: %s %+v", resp.Data, resp.Errors)
	}
	if resp := off.Query(t, `{ user(username: "a") { __typename name } }`, nil); len(resp.Errors) > 0 {
		t.Errorf("ordinary queries, __typename included, must still work: %+v", resp.Errors)
	}
	viaFragment := `query { ...F } fragment F on Query { __type(name: "User") { name } }`
	if resp := off.Query(t, viaFragment, nil); resp.Code() != "GRAPHQL_VALIDATION_FAILED" {
		t.Errorf("introspection through a fragment: code %q, data %s", resp.Code(), resp.Data)
	}
}

func TestAutomaticPersistedQueries(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	const query = `{ user(username: "alice") { username } }`
	sum := sha256.Sum256([]byte(query))
	persisted := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(sum[:])}}

	// A client first sends only the hash; the server does not know it yet.
	hashOnly, _ := json.Marshal(map[string]any{"extensions": persisted})
	if resp := postRaw(t, srv.URL, hashOnly, nil); resp.Code() != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("unknown hash: code %q, want PERSISTED_QUERY_NOT_FOUND: %+v", resp.Code(), resp.Errors)
	}
	// It then sends the query with its hash, which registers it…
	full, _ := json.Marshal(map[string]any{"query": query, "extensions": persisted})
	if resp := postRaw(t, srv.URL, full, nil); string(resp.Data) != `{"user":{"username":"alice"}}` {
		t.Fatalf("registering: %s %+v", resp.Data, resp.Errors)
	}
	// …and from then on the hash alone runs it, also as a GET a CDN can cache.
	if resp := postRaw(t, srv.URL, hashOnly, nil); string(resp.Data) != `{"user":{"username":"alice"}}` {
		t.Fatalf("hash only: %s %+v", resp.Data, resp.Errors)
	}
	ext, _ := json.Marshal(persisted)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?extensions="+string(ext), nil)
	if resp := send(t, req); string(resp.Data) != `{"user":{"username":"alice"}}` {
		t.Fatalf("GET with hash: %s %+v", resp.Data, resp.Errors)
	}
	// A query whose hash does not match is refused.
	wrong, _ := json.Marshal(map[string]any{"query": `{ user(username: "bob") { username } }`, "extensions": persisted})
	if resp := postRaw(t, srv.URL, wrong, nil); len(resp.Errors) == 0 {
		t.Fatal("a query that does not match its hash ran")
	}
}

func TestRequestBodiesAreBounded(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) { c.MaxBodyBytes = 1024 }))
	before := srv.ItemCount(t)
	padding := strings.Repeat(" ", 2048)
	body := []byte(`{"query": "mutation { createUser(input: {username: \"big\"}) { username } }` + padding + `"}`)
	resp := postRaw(t, srv.URL, body, nil)
	if resp.Status != http.StatusRequestEntityTooLarge || resp.Code() != "BAD_USER_INPUT" {
		t.Fatalf("a body over the limit: status %d, errors %+v", resp.Status, resp.Errors)
	}
	if srv.ItemCount(t) != before {
		t.Error("a body over the limit wrote")
	}
}

func TestRequestTimeoutReachesDynamoDB(t *testing.T) {
	var log apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithStoreObserver(&log), apitest.WithConfig(func(c *api.Config) {
		c.RequestTimeout = 100 * time.Millisecond
	}))
	log.Block() // the store hangs until the request's context ends
	resp := srv.Query(t, `{ user(username: "alice") { name } }`, nil)
	if resp.Code() != "SERVICE_UNAVAILABLE" || !strings.Contains(resp.Errors[0].Message, "too long") {
		t.Fatalf("a hung store: code %q %+v, want SERVICE_UNAVAILABLE saying it took too long", resp.Code(), resp.Errors)
	}
	errs := log.Errors()
	if len(errs) == 0 || !errors.Is(errs[0], context.DeadlineExceeded) {
		t.Errorf("the DynamoDB request ended with %v, want the request's deadline", errs)
	}
}

// TestRequestTimeoutOverLiveTransports: a query or mutation over graphql-ws or Server-Sent
// Events, whose connections have no deadline, runs under the request timeout as over HTTP; a
// subscription does not.
func TestRequestTimeoutOverLiveTransports(t *testing.T) {
	var store apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithStoreObserver(&store), apitest.WithConfig(func(c *api.Config) {
		c.RequestTimeout = 100 * time.Millisecond
	}))
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "ann", `subscription { userChanged(username: "ann") { kind } }`, nil)
	store.Block() // the store hangs until the request's context ends
	const read = `{ user(username: "alice") { name } }`

	if resp := ws.Query(t, "read", read, nil); resp.Code() != "SERVICE_UNAVAILABLE" || !strings.Contains(resp.Errors[0].Message, "too long") {
		t.Errorf("over graphql-ws, a hung store: code %q %+v, want SERVICE_UNAVAILABLE saying it took too long", resp.Code(), resp.Errors)
	}
	if resp, sse := srv.QueryOverSSE(t, read, nil); !strings.Contains(sse, "SERVICE_UNAVAILABLE") || !strings.Contains(sse, "too long") {
		t.Errorf("over SSE, a hung store: %d %s, want SERVICE_UNAVAILABLE saying it took too long", resp.StatusCode, sse)
	}

	// The subscription, older than the timeout by now, still delivers.
	if err := srv.Hub().Handle(t.Context(), []domain.Change{{Op: domain.Added, New: domain.User{Username: "ann"}}}); err != nil {
		t.Fatal(err)
	}
	if resp, ended := ws.Next(t, "ann"); ended || len(resp.Errors) > 0 {
		t.Fatalf("the subscription after the timeout: %+v, ended %v", resp, ended)
	}
}

func TestClientDisconnectEndsItsDynamoDBRequests(t *testing.T) {
	var log apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithStoreObserver(&log))
	log.Block()
	ctx, cancel := context.WithCancel(context.Background())
	body, _ := json.Marshal(map[string]any{"query": `{ user(username: "alice") { name } }`})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	waitFor(t, func() bool { return len(log.Requests()) > 0 })
	cancel() // the client goes away while its request waits on DynamoDB
	<-done
	waitFor(t, func() bool { return len(log.Errors()) > 0 })
	if err := log.Errors()[0]; !errors.Is(err, context.Canceled) {
		t.Errorf("the DynamoDB request ended with %v, want the client's cancellation", err)
	}
}

func TestCORS(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) { c.CORSOrigins = []string{"https://app.example.com"} }))
	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, srv.URL+api.Endpoint, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	allowed := preflight("https://app.example.com")
	if got := allowed.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example.com" {
		t.Errorf("allowed origin: Access-Control-Allow-Origin %q", got)
	}
	if got := strings.ToLower(allowed.Header.Get("Access-Control-Allow-Headers")); !strings.Contains(got, "authorization") {
		t.Errorf("allowed origin: Access-Control-Allow-Headers %q lacks authorization", got)
	}
	if got := preflight("https://evil.example").Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("another origin: Access-Control-Allow-Origin %q, want none", got)
	}
	closed := apitest.NewServer(t)
	req, _ := http.NewRequest(http.MethodOptions, closed.URL+api.Endpoint, nil)
	req.Header.Set("Origin", "https://app.example.com")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("no origins configured: Access-Control-Allow-Origin %q, want none", got)
	}
}

func TestHealthAndReadiness(t *testing.T) {
	srv := apitest.NewServer(t)
	get := func(path string) (int, map[string]string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]string
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	if status, body := get("/healthz"); status != 200 || body["status"] != "ok" {
		t.Errorf("/healthz: %d %v", status, body)
	}
	if status, body := get("/readyz"); status != 200 || body["status"] != "ready" {
		t.Errorf("/readyz with the table: %d %v", status, body)
	}
	srv.DeleteTable(t)
	if status, body := get("/readyz"); status != 503 || !strings.Contains(body["reason"], "missing") {
		t.Errorf("/readyz without the table: %d %v, want 503 saying it is missing", status, body)
	}
	if status, _ := get("/healthz"); status != 200 {
		t.Errorf("/healthz must not depend on the store: %d", status)
	}
}

// TestReadiness_WaitsForWhatServeWaitsFor: /readyz answers 503 with Config.Ready's reason
// while it says not yet, and 200 once it says ready.
func TestReadiness_WaitsForWhatServeWaitsFor(t *testing.T) {
	var caughtUp atomic.Bool
	srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) {
		c.Ready = func() error {
			if !caughtUp.Load() {
				return errors.New("the feed is catching up with the table's stream")
			}
			return nil
		}
	}))
	get := func() (int, map[string]string) {
		resp, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]string
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	if status, body := get(); status != 503 || body["reason"] != "the feed is catching up with the table's stream" {
		t.Errorf("/readyz while not ready: %d %v", status, body)
	}
	caughtUp.Store(true)
	if status, body := get(); status != 200 || body["status"] != "ready" {
		t.Errorf("/readyz once ready: %d %v", status, body)
	}
}

// postRaw posts body to the server's GraphQL endpoint with extra headers.
func postRaw(t *testing.T, base string, body []byte, header http.Header) *apitest.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	return send(t, req)
}

func send(t *testing.T, req *http.Request) *apitest.Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r apitest.Response
	_ = json.NewDecoder(resp.Body).Decode(&r)
	r.Status = resp.StatusCode
	return &r
}

// waitFor polls cond for up to ten seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestMalformedRequestsAreTheClientsMistake(t *testing.T) {
	srv := apitest.NewServer(t)
	cases := map[string]string{
		"a body that is not JSON":            `{"query": `,
		"an unknown persisted query version": `{"query": "{ user(username: \"a\") { name } }", "extensions": {"persistedQuery": {"version": 2, "sha256Hash": "x"}}}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			resp := postRaw(t, srv.URL, []byte(body), nil)
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %+v", resp.Code(), resp.Errors)
			}
			if strings.Contains(resp.Errors[0].Message, body) {
				t.Errorf("the message echoes the body: %q", resp.Errors[0].Message)
			}
		})
	}
}

// brokenVerifier fails the way a verifier with a bug does: an internal error.
type brokenVerifier struct{}

func (brokenVerifier) Verify(context.Context, string) (auth.Identity, error) {
	return auth.Identity{}, domain.Wrap(domain.Internal, errors.New("key cache closed"), "verifier broken")
}

func TestAVerifierFailureIsLoggedAndHidden(t *testing.T) {
	var logs syncbuf.Buffer
	srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) {
		c.Verifier = brokenVerifier{}
		c.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	}))
	resp := srv.WithHeader("Authorization", "Bearer x.y.z").Query(t, `{ user(username: "a") { name } }`, nil)
	if resp.Status != http.StatusInternalServerError || resp.Code() != "INTERNAL_SERVER_ERROR" {
		t.Fatalf("status %d code %q, want 500 INTERNAL_SERVER_ERROR", resp.Status, resp.Code())
	}
	if strings.Contains(resp.Errors[0].Message, "key cache") {
		t.Errorf("the client sees the cause: %q", resp.Errors[0].Message)
	}
	if !strings.Contains(logs.String(), "key cache closed") {
		t.Errorf("the cause was not logged: %q", logs.String())
	}
}

// TestTextMustBeUTF8: bytes that are not UTF-8 and escaped lone surrogates, which JSON and
// GraphQL decoders turn into U+FFFD, are refused before anything is written: in the request's
// JSON with BAD_USER_INPUT and 400, in the document's string literals as a syntax error. A
// surrogate pair, escaped, is a character like any other.
func TestTextMustBeUTF8(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "ann")
	const mutation = `mutation($s: String) { updateUser(username: "ann", input: {status: $s}) { status } }`
	jsonBody := func(status string) []byte { // status is spliced in as JSON string text
		return []byte(`{"query": "mutation($s: String) { updateUser(username: \"ann\", input: {status: $s}) { status } }", "variables": {"s": "` + status + `"}}`)
	}
	literal := func(status string) []byte { // status is spliced into the document's literal
		return []byte(`{"query": "mutation { updateUser(username: \"ann\", input: {status: \"` + status + `\"}) { status } }"}`)
	}
	cases := []struct {
		name   string
		body   []byte
		code   string
		status int
	}{
		{"raw bytes that are not UTF-8 in a variable", jsonBody("ok\xff\xfeok"), "BAD_USER_INPUT", http.StatusBadRequest},
		{"an escaped lone high surrogate in a variable", jsonBody(`ok\ud800ok`), "BAD_USER_INPUT", http.StatusBadRequest},
		{"an escaped lone low surrogate in a variable", jsonBody(`ok\uDC00`), "BAD_USER_INPUT", http.StatusBadRequest},
		{"two high surrogates in a variable", jsonBody(`\ud800\ud800`), "BAD_USER_INPUT", http.StatusBadRequest},
		{"raw bytes that are not UTF-8 in a literal", literal("ok\xffok"), "BAD_USER_INPUT", http.StatusBadRequest},
		{"an escaped lone surrogate in a literal", literal(`ok\\ud800ok`), "GRAPHQL_PARSE_FAILED", http.StatusOK},
		{"a lone surrogate escaped at the end of a literal", literal(`ok\\udfff`), "GRAPHQL_PARSE_FAILED", http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := postRaw(t, srv.URL, c.body, nil)
			if resp.Status != c.status || resp.Code() != c.code {
				t.Fatalf("%d %+v, want %d %s", resp.Status, resp.Errors, c.status, c.code)
			}
			var got struct{ User struct{ Status *string } }
			srv.Query(t, `{ user(username: "ann") { status } }`, nil).Decode(t, &got)
			if got.User.Status != nil {
				t.Fatalf("status written: %q", *got.User.Status)
			}
		})
	}
	t.Run("GET parameters", func(t *testing.T) {
		for name, raw := range map[string]string{
			"query":     "query=%7B+user(username:+%22%FF%22)+%7B+name+%7D+%7D",
			"variables": "query=query($u:ID!)%7Buser(username:$u)%7Bname%7D%7D&variables=%7B%22u%22:%22%5Cud800%22%7D",
		} {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?"+raw, nil)
			if resp := send(t, req); resp.Status != http.StatusBadRequest || resp.Code() != "BAD_USER_INPUT" {
				t.Errorf("%s: %d %+v, want 400 BAD_USER_INPUT", name, resp.Status, resp.Errors)
			}
		}
	})
	t.Run("a surrogate pair", func(t *testing.T) {
		var got struct{ UpdateUser struct{ Status string } }
		srv.Query(t, mutation, map[string]any{"s": "ok 😀"}).Decode(t, &got) // encoding/json escapes nothing here
		resp := postRaw(t, srv.URL, jsonBody(`ok \ud83d\ude00`), nil)
		resp.Decode(t, &got)
		if got.UpdateUser.Status != "ok 😀" {
			t.Fatalf("status %q", got.UpdateUser.Status)
		}
		resp = postRaw(t, srv.URL, literal(`ok \\ud83d\\ude00 \\u{1F600}`), nil)
		resp.Decode(t, &got)
		if got.UpdateUser.Status != "ok 😀 😀" {
			t.Fatalf("status %q", got.UpdateUser.Status)
		}
	})
}

// TestTextMustBeUTF8OverGraphQLWS: a subscribe payload is held to the same rule, and the
// refusal ends that operation only.
func TestTextMustBeUTF8OverGraphQLWS(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	ws := srv.DialRawWS(t)
	ws.Init(t, "")
	ws.Send(t, `{"id":"v","type":"subscribe","payload":{"query":"subscription($u: ID!) { userChanged(username: $u) { kind } }","variables":{"u":"\ud800"}}}`)
	m := ws.Next(t)
	if m["type"] != "error" || m["id"] != "v" || !strings.Contains(fmt.Sprint(m["payload"]), "BAD_USER_INPUT") {
		t.Fatalf("%v, want an error with BAD_USER_INPUT", m)
	}
	ws.Send(t, `{"id":"d","type":"subscribe","payload":{"query":"subscription { userChanged(username: \"\\ud800\") { kind } }"}}`)
	m = ws.Next(t)
	if m["type"] != "error" || m["id"] != "d" || !strings.Contains(fmt.Sprint(m["payload"]), "GRAPHQL_PARSE_FAILED") {
		t.Fatalf("%v, want an error with GRAPHQL_PARSE_FAILED", m)
	}
	ws.Send(t, `{"type":"ping"}`)
	if m := ws.Next(t); m["type"] != "pong" {
		t.Fatalf("%v after the refusals, want the connection open", m)
	}
}

// TestTransportRefusalsAreGraphQLErrors: requests the endpoint cannot take at all are refused
// with their HTTP status and a GraphQL error body with a code, in the media type asked for.
func TestTransportRefusalsAreGraphQLErrors(t *testing.T) {
	srv := apitest.NewServer(t)
	query := `{"query": "{ user(username: \"a\") { name } }"}`
	mutation := url.Values{"query": {`mutation { createUser(input: {username: "viaget"}) { username } }`}}.Encode()
	cases := []struct {
		name, method, target, contentType, body, accept string
		status                                          int
		allow                                           string
	}{
		{"PUT", http.MethodPut, "", "application/json", query, "", http.StatusMethodNotAllowed, "GET, POST"},
		{"DELETE", http.MethodDelete, "", "", "", "", http.StatusMethodNotAllowed, "GET, POST"},
		{"PATCH", http.MethodPatch, "", "application/json", query, "application/graphql-response+json", http.StatusMethodNotAllowed, "GET, POST"},
		{"a mutation by GET", http.MethodGet, "?" + mutation, "", "", "", http.StatusMethodNotAllowed, "POST"},
		{"a mutation by GET for graphql-response+json", http.MethodGet, "?" + mutation, "", "", "application/graphql-response+json", http.StatusMethodNotAllowed, "POST"},
		{"a text/plain body", http.MethodPost, "", "text/plain", query, "", http.StatusUnsupportedMediaType, ""},
		{"no Content-Type", http.MethodPost, "", "", query, "application/graphql-response+json", http.StatusUnsupportedMediaType, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, srv.URL+api.Endpoint+c.target, strings.NewReader(c.body))
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			if c.accept != "" {
				req.Header.Set("Accept", c.accept)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			wantType := "application/json"
			if c.accept != "" {
				wantType = c.accept
			}
			if got, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); got != wantType {
				t.Errorf("Content-Type %q, want %s", resp.Header.Get("Content-Type"), wantType)
			}
			var r apitest.Response
			if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
				t.Fatalf("status %d, body not JSON: %v", resp.StatusCode, err)
			}
			if resp.StatusCode != c.status || r.Code() != "BAD_REQUEST" || r.Errors[0].Message == "" || r.Data != nil {
				t.Fatalf("%d %+v data %s, want %d BAD_REQUEST", resp.StatusCode, r.Errors, r.Data, c.status)
			}
			if c.allow != "" && resp.Header.Get("Allow") != c.allow {
				t.Errorf("Allow %q, want %q", resp.Header.Get("Allow"), c.allow)
			}
		})
	}
}

// TestLiveRequestsReadTheirBodyUnderTheReadDeadline: a POST that asks for Server-Sent Events,
// or carries an Upgrade: websocket header, and sends its body slowly is cut by the server's
// read timeout like any request (the deadline used to be lifted before the body was read).
func TestLiveRequestsReadTheirBodyUnderTheReadDeadline(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	slow := httptest.NewUnstartedServer(srv.Handler)
	slow.Config.ReadTimeout = 300 * time.Millisecond
	slow.Start()
	t.Cleanup(slow.Close)
	for name, header := range map[string]string{
		"SSE":                "Accept: text/event-stream\r\n",
		"Upgrade: websocket": "Upgrade: websocket\r\nConnection: Upgrade\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(slow.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// A generous bound for the test's own sake: the server is to cut the connection
			// well before it.
			_ = conn.SetDeadline(time.Now().Add(apitest.LiveTimeout))
			_, err = fmt.Fprintf(conn, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n%sContent-Length: 100\r\n\r\n{\"query\"", header)
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.Copy(io.Discard, conn)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the server kept the connection open with the body half sent")
			}
		})
	}
}
