package telemetry_test

import (
	"context"
	"testing"

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
