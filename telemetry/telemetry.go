package telemetry

import (
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// instrumentationName names the tracer every span of this package comes from.
const instrumentationName = "github.com/quickphotos/quickphotos/telemetry"

// Options configures Telemetry.
type Options struct {
	// Logger receives the access log (one line per HTTP request); nil discards it.
	Logger *slog.Logger
	// Registry is where the metrics are registered and what MetricsHandler exposes. Nil means
	// a new registry that also holds the Go runtime and process collectors. The metrics are
	// registered once, by New: giving the same registry to two New calls panics.
	Registry *prometheus.Registry
	// TracerProvider makes the spans; nil means otel.GetTracerProvider(), which follows
	// whatever SetupTracing (or anything else) installs as the global provider later. A
	// noop.TracerProvider (serve's when no exporter is configured) means no spans at all:
	// none is started and none of their attributes is built.
	TracerProvider trace.TracerProvider
}

// Telemetry holds the metrics, the tracer and the access logger of one server. Its methods
// hand out the hooks each layer takes: Middleware for HTTP, GraphQL for gqlgen, Store for
// the DynamoDB store and Loaders for the dataloaders. It is safe for concurrent use.
type Telemetry struct {
	log      *slog.Logger
	registry *prometheus.Registry
	tracer   trace.Tracer
	// traced is false under a noop.TracerProvider: the spans' work is skipped (startSpan).
	traced bool
	m      *metrics

	// operations bounds the operation label; errorCodes the code label of GraphQL errors.
	operations *boundedLabel
	errorCodes *boundedLabel
}

// New returns a Telemetry with its metrics registered in opts.Registry. It panics when they
// are already registered there.
func New(opts Options) *Telemetry {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	reg := opts.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	tp := opts.TracerProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	_, untraced := tp.(noop.TracerProvider)
	m := newMetrics()
	reg.MustRegister(m.collectors()...)
	return &Telemetry{
		log:        log,
		registry:   reg,
		tracer:     tp.Tracer(instrumentationName),
		traced:     !untraced,
		m:          m,
		operations: newBoundedLabel(maxOperationNames, isOperationName),
		errorCodes: newBoundedLabel(maxErrorCodes, isErrorCode),
	}
}

// MetricsHandler serves the registry in the Prometheus exposition format (text unless the
// scraper negotiates otherwise).
func (t *Telemetry) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(t.registry, promhttp.HandlerOpts{})
}
