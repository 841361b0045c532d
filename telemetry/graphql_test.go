package telemetry_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// accessLogFields are the attributes every access log line has.
var accessLogFields = []string{
	"request_id", "method", "path", "status", "duration_ms", "operation", "operation_type",
	"dynamodb_requests", "read_capacity_units", "write_capacity_units", "error_codes",
}

// Secrets a client sends that no log line or metric may contain.
const (
	secretToken  = "eyJhbGciOi.secret-token"
	secretCookie = "session=cookie-secret"
	secretName   = "Ann Secret-Name"
)

// operationCase is one GraphQL request and what telemetry must record of it.
type operationCase struct {
	name string
	// given is what the table holds before the request: "users" (ann and bob) or "following"
	// (ann follows bob too). It is written through the store, so no operation records it.
	given   string
	body    map[string]any
	op, typ string
	outcome string
	codes   []string
	// requests is the number of DynamoDB requests the operation sends.
	requests float64
	read     bool // whether it consumes read capacity
	write    bool // whether it consumes write capacity
}

var operationCases = []operationCase{
	{
		name: "named mutation",
		body: map[string]any{
			"query":     `mutation CreateAnn($in: CreateUserInput!) { createUser(input: $in) { username } }`,
			"variables": map[string]any{"in": map[string]any{"username": "ann", "name": secretName}},
		},
		op: "CreateAnn", typ: "mutation", outcome: "ok", requests: 1, write: true,
	},
	{
		name:     "anonymous mutation",
		body:     map[string]any{"query": `mutation { createUser(input: {username: "bob"}) { username } }`},
		op:       "",
		typ:      "mutation",
		outcome:  "ok",
		requests: 1, write: true,
	},
	{
		name:  "transaction",
		given: "users",
		body:  map[string]any{"query": `mutation Follow { followUser(input: {follower: "ann", followed: "bob"}) { timestamp } }`},
		op:    "Follow", typ: "mutation", outcome: "ok", requests: 1, write: true,
	},
	{
		name:  "cancelled transaction",
		given: "following",
		body:  map[string]any{"query": `mutation Follow { followUser(input: {follower: "ann", followed: "bob"}) { timestamp } }`},
		op:    "Follow", typ: "mutation", outcome: "error", codes: []string{"CONFLICT"}, requests: 1,
	},
	{
		name:  "query through a loader",
		given: "users",
		body:  map[string]any{"query": `query Profiles { users(usernames: ["ann", "bob"]) { username followerCount } }`},
		op:    "Profiles", typ: "query", outcome: "ok", requests: 1, read: true,
	},
	{
		name:    "parse error",
		body:    map[string]any{"query": `{ user(`},
		outcome: "rejected", codes: []string{"GRAPHQL_PARSE_FAILED"},
	},
	{
		name: "validation error",
		body: map[string]any{"query": `query Bad { nope }`, "operationName": "Bad"},
		op:   "Bad", outcome: "rejected", codes: []string{"GRAPHQL_VALIDATION_FAILED"},
	},
	{
		name: "malformed operation name",
		body: map[string]any{"query": `query A { users(usernames: []) { username } }`, "operationName": "x y\nz"},
		op:   "other", outcome: "rejected", codes: []string{"GRAPHQL_VALIDATION_FAILED"},
	},
}

// arrange writes what tc.given names through store.
func (tc operationCase) arrange(t *testing.T, store *dynamo.Store) {
	t.Helper()
	ctx := context.Background()
	if tc.given == "" {
		return
	}
	for _, u := range []string{"ann", "bob"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	if tc.given == "following" {
		if _, err := store.Follow(ctx, domain.FriendshipKey{Follower: "ann", Followed: "bob"}); err != nil {
			t.Fatal(err)
		}
	}
}

// send posts tc's request as a client that also sends a token and a cookie.
func (tc operationCase) send(t *testing.T, srv *httptest.Server) (*http.Response, map[string]any) {
	t.Helper()
	header := http.Header{"Authorization": {"Bearer " + secretToken}, "Cookie": {secretCookie}}
	return post(t, srv, tc.body, header)
}

func TestGraphQL_OperationsAndAccessLog(t *testing.T) {
	for _, tc := range operationCases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			store := openStore(t, f.tel.Store())
			tc.arrange(t, store)
			srv := f.serve(t, store)
			resp, body := tc.send(t, srv)

			id := resp.Header.Get("X-Request-Id")
			if id == "" {
				t.Fatal("no X-Request-Id in the response")
			}
			line := f.log.accessLog(t, id)
			for _, k := range accessLogFields {
				if _, ok := line[k]; !ok {
					t.Errorf("access log has no %s: %v", k, line)
				}
			}
			want := map[string]any{
				"msg": "http request", "method": "POST", "path": "/graphql", "status": float64(resp.StatusCode),
				"operation": tc.op, "operation_type": tc.typ, "dynamodb_requests": tc.requests,
			}
			for k, v := range want {
				if line[k] != v {
					t.Errorf("access log %s = %v, want %v", k, line[k], v)
				}
			}
			var codes []string
			for _, c := range line["error_codes"].([]any) {
				codes = append(codes, c.(string))
			}
			if !slices.Equal(codes, tc.codes) {
				t.Errorf("access log error_codes = %v, want %v (response errors %v)", codes, tc.codes, body["errors"])
			}
			if got := line["read_capacity_units"].(float64) > 0; got != tc.read {
				t.Errorf("read_capacity_units = %v", line["read_capacity_units"])
			}
			if got := line["write_capacity_units"].(float64) > 0; got != tc.write {
				t.Errorf("write_capacity_units = %v", line["write_capacity_units"])
			}

			operations := "quickphotos_graphql_operations_total"
			labels := map[string]string{"operation": tc.op, "type": tc.typ, "outcome": tc.outcome}
			if got := metric(t, f.reg, operations, labels); got != 1 {
				t.Errorf("%s%v = %v, want 1", operations, labels, got)
			}
			for _, code := range tc.codes {
				if got := metric(t, f.reg, "quickphotos_graphql_errors_total", map[string]string{"code": code}); got != 1 {
					t.Errorf("quickphotos_graphql_errors_total{code=%q} = %v, want 1", code, got)
				}
			}
			if tc.typ != "" {
				durations := "quickphotos_graphql_operation_duration_seconds"
				if got := metric(t, f.reg, durations, map[string]string{"operation": tc.op, "type": tc.typ}); got != 1 {
					t.Errorf("%s observed %v times, want 1", durations, got)
				}
			}
			if got := metric(t, f.reg, "quickphotos_http_requests_total",
				map[string]string{"method": "POST", "path": "/graphql", "status": strconv.Itoa(resp.StatusCode)}); got != 1 {
				t.Errorf("POST /graphql %d requests = %v, want 1", resp.StatusCode, got)
			}
			if tc.read {
				if got := metric(t, f.reg, "quickphotos_dataloader_batch_size", map[string]string{"loader": "users"}); got != 1 {
					t.Errorf("users batches observed = %v, want 1", got)
				}
			}
			assertNoSecrets(t, f.log.String())
		})
	}
}

// assertNoSecrets fails t when text holds what a client sent in confidence, or the text of its
// query.
func assertNoSecrets(t *testing.T, text string) {
	t.Helper()
	for _, secret := range []string{secretToken, "Bearer", "cookie-secret", secretName, "createUser(", "nope", "x y"} {
		if strings.Contains(text, secret) {
			t.Errorf("%q is in:\n%s", secret, text)
		}
	}
}

// TestMetrics_ExpositionAfterEveryKindOfOperation sends every operation case to one server
// and reads /metrics: every metric family is there, and nothing a client sent.
func TestMetrics_ExpositionAfterEveryKindOfOperation(t *testing.T) {
	f := newFixture(t)
	store := openStore(t, f.tel.Store())
	srv := f.serve(t, store)
	for _, tc := range operationCases {
		tc.send(t, srv)
	}

	resp, err := srv.Client().Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	exposition, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		"quickphotos_http_requests_total", "quickphotos_http_request_duration_seconds",
		"quickphotos_graphql_operations_total", "quickphotos_graphql_errors_total",
		"quickphotos_graphql_operation_duration_seconds",
		"quickphotos_dynamodb_requests_total", "quickphotos_dynamodb_request_duration_seconds",
		"quickphotos_dynamodb_consumed_capacity_total", "quickphotos_dynamodb_transaction_cancellations_total",
		"quickphotos_dataloader_batch_size",
	} {
		if !strings.Contains(string(exposition), "\n"+name) {
			t.Errorf("/metrics has no %s", name)
		}
	}
	assertNoSecrets(t, string(exposition))
	assertNoSecrets(t, f.log.String())
}

func TestGraphQL_SpansNest(t *testing.T) {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	f := newFixture(t)
	store := openStore(t, f.tel.Store())
	for _, u := range []string{"ann", "bob"} {
		if _, err := store.CreateUser(context.Background(), u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	f.spans.Reset()
	srv := f.serve(t, store)

	const traceID, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	header := http.Header{"Traceparent": {"00-" + traceID + "-" + callerSpan + "-01"}}
	post(t, srv, map[string]any{"query": `mutation Follow { followUser(input: {follower: "ann", followed: "bob"}) { timestamp } }`}, header)

	server := f.spanNamed(t, "POST /graphql")
	op := f.spanNamed(t, "mutation Follow")
	db := f.spanNamed(t, "DynamoDB.TransactWriteItems")
	if got := server.SpanContext().TraceID().String(); got != traceID {
		t.Errorf("server span in trace %s, want the caller's %s", got, traceID)
	}
	if got := server.Parent().SpanID().String(); got != callerSpan {
		t.Errorf("server span's parent %s, want the caller's span %s", got, callerSpan)
	}
	if op.Parent().SpanID() != server.SpanContext().SpanID() {
		t.Error("the operation span is not a child of the server span")
	}
	if db.Parent().SpanID() != op.SpanContext().SpanID() {
		t.Error("the DynamoDB span is not a child of the operation span")
	}
	for k, want := range map[string]string{"graphql.operation.name": "Follow", "graphql.operation.type": "mutation"} {
		if got := attr(op, k); got != want {
			t.Errorf("operation span %s = %q, want %q", k, got, want)
		}
	}
	if got := attr(server, "http.response.status_code"); got != "200" {
		t.Errorf("server span status code %q", got)
	}
}
