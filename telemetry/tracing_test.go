package telemetry_test

import (
	"context"
	"log/slog"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/quickphotos/quickphotos/telemetry"
)

func TestSetupTracing(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		enabled bool
	}{
		{"nothing configured", map[string]string{}, false},
		{"exporter none", map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false},
		{"console exporter", map[string]string{"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "qp-test"}, true},
		{"OTLP endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, true},
		{"OTLP traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
				t.Setenv(k, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			if got := telemetry.TracingConfigured(); got != tc.enabled {
				t.Errorf("TracingConfigured() = %v, want %v", got, tc.enabled)
			}
			shutdown, enabled, err := telemetry.SetupTracing(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if enabled != tc.enabled {
				t.Errorf("enabled = %v, want %v", enabled, tc.enabled)
			}
			if err := shutdown(context.Background()); err != nil {
				t.Errorf("shutdown: %v", err)
			}
		})
	}
}

// Under a noop.TracerProvider (serve's without an exporter) no span is made, and the access
// log and the metrics are what they are with spans.
func TestNoopTracerProvider_LogsAndCountsWithoutSpans(t *testing.T) {
	f := newFixture(t)
	f.reg = prometheus.NewRegistry()
	f.tel = telemetry.New(telemetry.Options{
		Logger:         slog.New(telemetry.LogHandler(slog.NewJSONHandler(f.log, nil))),
		Registry:       f.reg,
		TracerProvider: noop.NewTracerProvider(),
	})
	srv := f.serve(t, openStore(t, f.tel.Store()))
	resp, body := post(t, srv, map[string]any{"query": `mutation Sign { createUser(input: {username: "ann", name: "Ann"}) { username } }`},
		http.Header{"X-Request-Id": {"noop-1"}})
	if resp.StatusCode != http.StatusOK || body["errors"] != nil {
		t.Fatalf("status %d, body %v", resp.StatusCode, body)
	}
	line := f.log.accessLog(t, "noop-1")
	if line["status"] != float64(200) || line["operation"] != "Sign" || line["dynamodb_requests"] != float64(1) || line["trace_id"] != nil {
		t.Errorf("access log %v", line)
	}
	if got := metric(t, f.reg, "quickphotos_graphql_operations_total", map[string]string{"operation": "Sign", "type": "mutation", "outcome": "ok"}); got != 1 {
		t.Errorf("operations counted %v, want 1", got)
	}
	if got := metric(t, f.reg, "quickphotos_dynamodb_requests_total", map[string]string{"operation": "PutItem", "table": table, "outcome": "ok"}); got != 1 {
		t.Errorf("DynamoDB requests counted %v, want 1", got)
	}
	if n := len(f.spans.Ended()); n != 0 {
		t.Errorf("%d spans recorded", n)
	}
}
