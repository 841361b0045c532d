package telemetry_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

	"github.com/quickphotos/quickphotos/domain"
)

// accessLogFields are the attributes every access log line has.
var accessLogFields = []string{
	"request_id", "method", "path", "status", "duration_ms", "operation", "operation_type",
	"dynamodb_requests", "read_capacity_units", "write_capacity_units", "error_codes",
}

func TestGraphQL_OperationsAndAccessLog(t *testing.T) {
	f := newFixture(t)
	srv := f.serve(t, openStore(t, f.tel.Store()))

	const (
		secretToken  = "eyJhbGciOi.secret-token"
		secretCookie = "session=cookie-secret"
		secretName   = "Ann Secret-Name"
	)
	tests := []struct {
		name    string
		body    map[string]any
		op, typ string
		outcome string
		codes   []string
		// requests is the number of DynamoDB requests the operation sends.
		requests float64
		read     bool // whether it consumes read capacity
		write    bool // whether it consumes write capacity
	}{
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
			name: "transaction",
			body: map[string]any{"query": `mutation Follow { followUser(input: {follower: "ann", followed: "bob"}) { timestamp } }`},
			op:   "Follow", typ: "mutation", outcome: "ok", requests: 1, write: true,
		},
		{
			name: "cancelled transaction",
			body: map[string]any{"query": `mutation Follow { followUser(input: {follower: "ann", followed: "bob"}) { timestamp } }`},
			op:   "Follow", typ: "mutation", outcome: "error", codes: []string{"CONFLICT"}, requests: 1,
		},
		{
			name: "query through a loader",
			body: map[string]any{"query": `query Profiles { users(usernames: ["ann", "bob"]) { username followerCount } }`},
			op:   "Profiles", typ: "query", outcome: "ok", requests: 1, read: true,
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
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header := http.Header{"Authorization": {"Bearer " + secretToken}, "Cookie": {secretCookie}}
			resp, body := post(t, srv, tc.body, header)
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
			labels := map[string]string{"operation": tc.op, "type": tc.typ, "outcome": tc.outcome}
			if got := metric(t, f.reg, "quickphotos_graphql_operations_total", labels); got == 0 {
				t.Errorf("no quickphotos_graphql_operations_total%v", labels)
			}
			if got := line["read_capacity_units"].(float64) > 0; got != tc.read {
				t.Errorf("read_capacity_units = %v", line["read_capacity_units"])
			}
			if got := line["write_capacity_units"].(float64) > 0; got != tc.write {
				t.Errorf("write_capacity_units = %v", line["write_capacity_units"])
			}
		})
	}

	logs := f.log.String()
	for _, secret := range []string{secretToken, "Bearer", "cookie-secret", secretName, "createUser(", "nope", "x y"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log contains %q:\n%s", secret, logs)
		}
	}

	operations := "quickphotos_graphql_operations_total"
	for _, tc := range []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"operation": "CreateAnn", "type": "mutation", "outcome": "ok"}, 1},
		{map[string]string{"operation": "", "type": "mutation", "outcome": "ok"}, 1},
		{map[string]string{"operation": "Follow", "type": "mutation", "outcome": "ok"}, 1},
		{map[string]string{"operation": "Follow", "type": "mutation", "outcome": "error"}, 1},
		{map[string]string{"operation": "Profiles", "type": "query", "outcome": "ok"}, 1},
		{map[string]string{"operation": "", "type": "", "outcome": "rejected"}, 1},
		{map[string]string{"operation": "Bad", "type": "", "outcome": "rejected"}, 1},
		{map[string]string{"operation": "other", "type": "", "outcome": "rejected"}, 1},
	} {
		if got := metric(t, f.reg, operations, tc.labels); got != tc.want {
			t.Errorf("%s%v = %v, want %v", operations, tc.labels, got, tc.want)
		}
	}
	for code, want := range map[string]float64{"CONFLICT": 1, "GRAPHQL_PARSE_FAILED": 1, "GRAPHQL_VALIDATION_FAILED": 2} {
		if got := metric(t, f.reg, "quickphotos_graphql_errors_total", map[string]string{"code": code}); got != want {
			t.Errorf("quickphotos_graphql_errors_total{code=%q} = %v, want %v", code, got, want)
		}
	}
	if got := metric(t, f.reg, "quickphotos_graphql_operation_duration_seconds",
		map[string]string{"operation": "Follow", "type": "mutation"}); got != 2 {
		t.Errorf("Follow durations observed = %v, want 2", got)
	}
	if got := metric(t, f.reg, "quickphotos_dataloader_batch_size", map[string]string{"loader": "users"}); got != 1 {
		t.Errorf("users batches observed = %v, want 1", got)
	}
	if got := metric(t, f.reg, "quickphotos_http_requests_total",
		map[string]string{"method": "POST", "path": "/graphql", "status": "200"}); got < 5 {
		t.Errorf("POST /graphql 200 requests = %v, want at least 5", got)
	}

	// The exposition has every metric, and none of the clients' secrets.
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
	if strings.Contains(string(exposition), "x y") {
		t.Error("/metrics has a malformed operation name")
	}
}

// TestGraphQL_SpansNest checks that a request's spans form one trace that continues the
// caller's: server span, operation span, DynamoDB span.
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
