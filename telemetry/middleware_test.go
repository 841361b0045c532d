package telemetry_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/telemetry"
)

func TestMiddleware_RequestID(t *testing.T) {
	f := newFixture(t)
	srv := f.serve(t, openStore(t, f.tel.Store()))
	tests := []struct {
		name   string
		sent   string
		accept bool
	}{
		{"accepted", "abc-123_X.y", true},
		{"longest accepted", strings.Repeat("a", 64), true},
		{"missing", "", false},
		{"too long", strings.Repeat("a", 65), false},
		{"space", "abc 123", false},
		{"markup", "<script>", false},
		{"log injection", `x" level=ERROR msg="forged`, false},
		{"non-ASCII", "idé", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/healthz", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.sent != "" {
				req.Header.Set("X-Request-Id", tc.sent)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			id := resp.Header.Get("X-Request-Id")
			switch {
			case tc.accept && id != tc.sent:
				t.Errorf("X-Request-Id %q, want the client's %q", id, tc.sent)
			case !tc.accept && (id == tc.sent || len(id) != 26):
				t.Errorf("X-Request-Id %q, want a new id in place of %q", id, tc.sent)
			}
			if line := f.log.accessLog(t, id); line["path"] != "/healthz" || line["status"] != float64(200) {
				t.Errorf("access log %v", line)
			}
		})
	}
	if strings.Contains(f.log.String(), "forged") || strings.Contains(f.log.String(), "<script>") {
		t.Errorf("a refused request id was logged:\n%s", f.log.String())
	}
}

func TestMiddleware_PathsAndStatus(t *testing.T) {
	f := newFixture(t)
	srv := f.serve(t, openStore(t, f.tel.Store()))
	tests := []struct {
		method, target string
		path, status   string
		level          string
	}{
		{"GET", "/healthz", "/healthz", "200", "INFO"},
		{"GET", "/healthz?token=s3cr3t", "/healthz", "200", "INFO"},
		{"GET", "/users/s3cr3t", "other", "404", "INFO"},
		{"DELETE", "/graphql", "/graphql", "405", "INFO"},
		{"BREW", "/graphql", "/graphql", "405", "INFO"},
	}
	for _, tc := range tests {
		req, err := http.NewRequest(tc.method, srv.URL+tc.target, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		line := f.log.accessLog(t, resp.Header.Get("X-Request-Id"))
		if line["path"] != tc.path || line["status"] != float64(resp.StatusCode) || line["level"] != tc.level {
			t.Errorf("%s %s: access log %v", tc.method, tc.target, line)
		}
		method := tc.method
		if method == "BREW" {
			method = "other"
		}
		labels := map[string]string{"method": method, "path": tc.path, "status": tc.status}
		if got := metric(t, f.reg, "quickphotos_http_requests_total", labels); got == 0 {
			t.Errorf("%s %s: no quickphotos_http_requests_total%v", tc.method, tc.target, labels)
		}
	}
	if strings.Contains(f.log.String(), "s3cr3t") {
		t.Errorf("the log holds a raw URL:\n%s", f.log.String())
	}
}

func TestMiddleware_ServerErrorIsWarning(t *testing.T) {
	f := newFixture(t)
	h := f.tel.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "boom", http.StatusServiceUnavailable)
	}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	line := f.log.accessLog(t, w.Header().Get("X-Request-Id"))
	if line["level"] != "WARN" || line["status"] != float64(503) || line["path"] != "/readyz" {
		t.Errorf("access log %v", line)
	}
}

// TestMiddleware_KeepsOptionalInterfaces checks that handlers behind the middleware can still
// flush, directly and through http.ResponseController.
func TestMiddleware_KeepsOptionalInterfaces(t *testing.T) {
	f := newFixture(t)
	h := f.tel.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if _, ok := w.(http.Flusher); !ok {
			t.Error("the ResponseWriter is no http.Flusher")
		}
		if _, ok := w.(http.Hijacker); !ok {
			t.Error("the ResponseWriter is no http.Hijacker")
		}
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("ResponseController.Flush: %v", err)
		}
	}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	if !w.Flushed {
		t.Error("the response was not flushed")
	}
}

// blockingObserver holds every DynamoDB request until its context ends, as a store that
// hangs would, then lets the real observer see it.
type blockingObserver struct {
	next    dynamo.Observer
	entered chan struct{}
}

func (o blockingObserver) BeginRequest(ctx context.Context, operation, table string) (context.Context, func(dynamo.RequestOutcome)) {
	select {
	case o.entered <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return o.next.BeginRequest(ctx, operation, table)
}

func TestMiddleware_ClientDisconnect(t *testing.T) {
	f := newFixture(t)
	obs := blockingObserver{next: f.tel.Store(), entered: make(chan struct{}, 1)}
	srv := f.serve(t, openStore(t, obs))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/graphql",
		strings.NewReader(`{"query": "query Hang { user(username: \"ann\") { username } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Request-Id", "gone-1")
	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-obs.entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("request: %v, want it cancelled", err)
	}

	line := f.log.accessLog(t, "gone-1")
	if line["msg"] != "client disconnected" || line["status"] != float64(telemetry.StatusClientClosedRequest) ||
		line["operation"] != "Hang" || line["dynamodb_requests"] != float64(1) {
		t.Errorf("access log %v", line)
	}
	if got := metric(t, f.reg, "quickphotos_http_requests_total",
		map[string]string{"method": "POST", "path": "/graphql", "status": "499"}); got != 1 {
		t.Errorf("requests counted with status 499: %v, want 1", got)
	}
	if got := metric(t, f.reg, "quickphotos_dynamodb_requests_total",
		map[string]string{"operation": "GetItem", "table": table, "outcome": "aborted"}); got != 1 {
		t.Errorf("aborted GetItem requests (ann's profile, one key): %v, want 1", got)
	}
}

func TestLogHandler(t *testing.T) {
	f := newFixture(t)
	buf := &syncBuffer{}
	log := slog.New(telemetry.LogHandler(slog.NewJSONHandler(buf, nil))).With("component", "test")
	h := f.tel.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		if got := telemetry.RequestID(r.Context()); got != "req-7" {
			t.Errorf("RequestID = %q, want req-7", got)
		}
		log.InfoContext(r.Context(), "with context")
		log.Info("without context")
		log.InfoContext(r.Context(), "own id", "request_id", "mine")
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("X-Request-Id", "req-7")
	h.ServeHTTP(httptest.NewRecorder(), req)

	lines := buf.lines(t)
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3:\n%s", len(lines), buf.String())
	}
	for i, want := range []any{"req-7", nil, "mine"} {
		if lines[i]["request_id"] != want || lines[i]["component"] != "test" {
			t.Errorf("line %d: %v, want request_id %v", i, lines[i], want)
		}
	}
	if strings.Count(buf.String(), "request_id") != 2 {
		t.Errorf("request_id added twice:\n%s", buf.String())
	}
	if got := telemetry.RequestID(context.Background()); got != "" {
		t.Errorf("RequestID outside a request = %q", got)
	}
}
