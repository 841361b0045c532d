package telemetry

import (
	"context"
	"errors"
	"fmt"
	"os"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// DefaultServiceName is the service.name of the traces unless OTEL_SERVICE_NAME (or
// OTEL_RESOURCE_ATTRIBUTES) says otherwise.
const DefaultServiceName = "quickphotos"

// TracingConfigured reports whether the environment configures a trace exporter: either
// OTEL_TRACES_EXPORTER is set to something other than "none", or it is unset and
// OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set.
func TracingConfigured() bool {
	if exporter, ok := os.LookupEnv("OTEL_TRACES_EXPORTER"); ok && exporter != "" {
		return exporter != "none"
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// SetupTracing turns tracing on when the environment configures an exporter (see
// TracingConfigured): it makes the exporter the standard OTEL_* variables describe
// (autoexport: otlp, console, …), a batching TracerProvider whose resource comes from the
// environment with service.name defaulting to DefaultServiceName, and installs it as the
// global TracerProvider along with the W3C trace-context and baggage propagators. Sampling
// follows OTEL_TRACES_SAMPLER (parent-based, always on, by default).
//
// shutdown flushes the spans not yet exported and stops the provider; call it when the
// server stops. When tracing is not configured, SetupTracing changes nothing and returns
// enabled false and a shutdown that does nothing.
func SetupTracing(ctx context.Context) (shutdown func(context.Context) error, enabled bool, err error) {
	noop := func(context.Context) error { return nil }
	if !TracingConfigured() {
		return noop, false, nil
	}
	exporter, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return noop, false, fmt.Errorf("telemetry: trace exporter: %w", err)
	}
	// Later options win: the environment overrides the default service name. A partly
	// malformed OTEL_RESOURCE_ATTRIBUTES still gives the attributes that could be read.
	res, err := resource.New(ctx,
		resource.WithTelemetrySDK(),
		resource.WithAttributes(attribute.String("service.name", DefaultServiceName)),
		resource.WithFromEnv(),
	)
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		_ = exporter.Shutdown(ctx)
		return noop, false, fmt.Errorf("telemetry: trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return tp.Shutdown, true, nil
}
