package telemetry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/vektah/gqlparser/v2/gqlerror"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/graph"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/loaders"
	"github.com/quickphotos/quickphotos/resolvers"
	"github.com/quickphotos/quickphotos/telemetry"
)

// fixture is a Telemetry with everything it reports captured for the test to read.
type fixture struct {
	tel   *telemetry.Telemetry
	reg   *prometheus.Registry
	spans *tracetest.SpanRecorder
	tp    *sdktrace.TracerProvider
	log   *syncBuffer
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{reg: prometheus.NewRegistry(), spans: tracetest.NewSpanRecorder(), log: &syncBuffer{}}
	f.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(f.spans))
	t.Cleanup(func() { _ = f.tp.Shutdown(context.Background()) })
	f.tel = telemetry.New(telemetry.Options{
		Logger:         slog.New(telemetry.LogHandler(slog.NewJSONHandler(f.log, nil))),
		Registry:       f.reg,
		TracerProvider: f.tp,
	})
	return f
}

// table is the name of the tests' table.
const table = "photos"

// openStore returns a store over a fresh embedded engine, its table created, reporting to obs.
func openStore(t *testing.T, obs dynamo.Observer) *dynamo.Store {
	t.Helper()
	engine, err := ddb.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = engine.Close() })
	store := dynamo.New(engine.Client(), table, dynamo.WithObserver(obs))
	if err := store.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	return store
}

// serve runs the GraphQL API over store behind f's middleware, the way the server wires it
// (minus package api, which imports this package).
func (f *fixture) serve(t *testing.T, store *dynamo.Store) *httptest.Server {
	t.Helper()
	gql := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: &resolvers.Resolver{Store: store}}))
	gql.AddTransport(transport.POST{})
	gql.Use(f.tel.GraphQL())
	gql.Use(withLoaders{store: store, observer: f.tel.Loaders()})
	gql.SetErrorPresenter(presentError)

	mux := http.NewServeMux()
	mux.Handle("POST /graphql", trusted(gql))
	mux.Handle("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "ok")
	}))
	mux.Handle("GET /metrics", f.tel.MetricsHandler())
	srv := httptest.NewServer(f.tel.Middleware(mux))
	t.Cleanup(srv.Close)
	return srv
}

// withLoaders gives each operation its loaders, as package api's per-operation extension does.
type withLoaders struct {
	store    *dynamo.Store
	observer loaders.BatchObserver
}

func (withLoaders) ExtensionName() string                   { return "TestLoaders" }
func (withLoaders) Validate(graphql.ExecutableSchema) error { return nil }
func (l withLoaders) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	return next(loaders.With(ctx, loaders.New(l.store, loaders.Options{Observer: l.observer})))
}

// trusted makes every caller trusted, as a server without authentication does.
func trusted(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(domain.WithCaller(r.Context(), domain.Trusted())))
	})
}

// presentError gives domain errors their extensions.code, like package api's presenter.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)
	var de *domain.Error
	if !errors.As(err, &de) {
		return gqlErr
	}
	if gqlErr.Extensions == nil {
		gqlErr.Extensions = map[string]any{}
	}
	gqlErr.Extensions["code"] = strings.ToUpper(string(de.Code))
	return gqlErr
}

// post sends one GraphQL request and returns the response with its decoded body.
func post(t *testing.T, srv *httptest.Server, body map[string]any, header http.Header) (*http.Response, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp, out
}

// syncBuffer is a log destination safe for the server's goroutines and the test's, that
// reads back the JSON records written to it.
type syncBuffer struct{ syncbuf.Buffer }

// lines are the JSON log records written so far.
func (b *syncBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// accessLog waits for the access log line of the request with id and returns it. The line is
// written after the response, so a client can see the response before the line exists.
func (b *syncBuffer) accessLog(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, l := range b.lines(t) {
			if l["request_id"] == id && l["path"] != nil {
				return l
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no access log line for request %s in:\n%s", id, b.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// metric returns the value of the counter, or the sample count of the histogram, called name
// with exactly these labels; 0 when there is no such series.
func metric(t *testing.T, reg prometheus.Gatherer, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range families {
		if fam.GetName() != name {
			continue
		}
		for _, m := range fam.GetMetric() {
			if !sameLabels(m.GetLabel(), labels) {
				continue
			}
			switch {
			case m.Counter != nil:
				return m.GetCounter().GetValue()
			case m.Histogram != nil:
				return float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return 0
}

// sameLabels compares label sets, a label with an empty value being the same as none (as in
// Prometheus).
func sameLabels(pairs []*dto.LabelPair, want map[string]string) bool {
	got := map[string]string{}
	for _, p := range pairs {
		if p.GetValue() != "" {
			got[p.GetName()] = p.GetValue()
		}
	}
	n := 0
	for k, v := range want {
		if v == "" {
			continue
		}
		n++
		if got[k] != v {
			return false
		}
	}
	return n == len(got)
}

// spanNamed returns the one ended span called name.
func (f *fixture) spanNamed(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	for _, s := range f.spans.Ended() {
		if s.Name() == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d ended spans called %q, want 1", len(found), name)
	}
	return found[0]
}

// attr returns the span attribute key as a string ("" when absent).
func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.String()
		}
	}
	return ""
}
