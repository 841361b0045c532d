package telemetry

import (
	"regexp"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the Prometheus collectors of one Telemetry; doc.go lists them for operators.
type metrics struct {
	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec

	operations        *prometheus.CounterVec
	operationDuration *prometheus.HistogramVec
	graphqlErrors     *prometheus.CounterVec

	dynamoRequests      *prometheus.CounterVec
	dynamoDuration      *prometheus.HistogramVec
	dynamoCapacity      *prometheus.CounterVec
	dynamoCancellations *prometheus.CounterVec

	batchSize *prometheus.HistogramVec

	streamLag *prometheus.GaugeVec

	rateRefused, rateUnits, rateFailures *prometheus.CounterVec
}

// latencyBuckets (seconds) suit requests that take from a millisecond to several seconds.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// batchBuckets suit dataloader batches, which hold at most 100 keys.
var batchBuckets = []float64{1, 2, 5, 10, 25, 50, 100}

const namespace = "quickphotos"

func newMetrics() *metrics {
	counter := func(subsystem, name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Subsystem: subsystem, Name: name, Help: help,
		}, labels)
	}
	histogram := func(subsystem, name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Subsystem: subsystem, Name: name, Help: help, Buckets: buckets,
		}, labels)
	}
	return &metrics{
		httpRequests: counter("http", "requests_total",
			"HTTP requests served, by method, route and status (499: the client disconnected first).",
			"method", "path", "status"),
		httpDuration: histogram("http", "request_duration_seconds",
			"Time from receiving an HTTP request to its handler returning.", latencyBuckets,
			"method", "path"),
		operations: counter("graphql", "operations_total",
			"GraphQL operations, by name, type and outcome (ok, error or rejected).",
			"operation", "type", "outcome"),
		operationDuration: histogram("graphql", "operation_duration_seconds",
			"Time to execute a GraphQL operation, or to refuse it.", latencyBuckets,
			"operation", "type"),
		graphqlErrors: counter("graphql", "errors_total",
			"Errors in GraphQL responses, by extensions.code.",
			"code"),
		dynamoRequests: counter("dynamodb", "requests_total",
			"DynamoDB requests, by operation, table and outcome (ok, error, cancelled or aborted).",
			"operation", "table", "outcome"),
		dynamoDuration: histogram("dynamodb", "request_duration_seconds",
			"Time of one DynamoDB request, including the SDK's own retries.", latencyBuckets,
			"operation", "table"),
		dynamoCapacity: counter("dynamodb", "consumed_capacity_total",
			"Capacity units DynamoDB reported as consumed, by operation, table and kind (read or write).",
			"operation", "table", "kind"),
		dynamoCancellations: counter("dynamodb", "transaction_cancellations_total",
			"Actions that caused a transaction to be cancelled, by cancellation reason code.",
			"reason"),
		batchSize: histogram("dataloader", "batch_size",
			"Keys in each batch a dataloader sends.", batchBuckets,
			"loader"),
		streamLag: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: namespace, Subsystem: "stream", Name: "lag_seconds",
			Help: "How long before its last batch's newest change a stream consumer handled it, by consumer (feed, live).",
		}, []string{"consumer"}),
		rateRefused: counter("ratelimit", "refused_total",
			"Operations refused because their caller's bucket of capacity units was empty, by kind of caller (user or address).",
			"caller"),
		rateUnits: counter("ratelimit", "units_total",
			"Capacity units charged to callers' buckets, by kind of caller (user or address).",
			"caller"),
		rateFailures: counter("ratelimit", "failures_total",
			"Operations that ran unmetered because the buckets did not answer, by kind of caller (user or address).",
			"caller"),
	}
}

func (m *metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{
		m.httpRequests, m.httpDuration,
		m.operations, m.operationDuration, m.graphqlErrors,
		m.dynamoRequests, m.dynamoDuration, m.dynamoCapacity, m.dynamoCancellations,
		m.batchSize, m.streamLag,
		m.rateRefused, m.rateUnits, m.rateFailures,
	}
}

// Label values that come from clients are bounded, so that no client can make the server
// keep (and Prometheus store) an unbounded number of series.
const (
	// maxOperationNames is how many distinct operation names get their own series.
	maxOperationNames = 200
	// maxErrorCodes is how many distinct extensions.code values get their own series.
	maxErrorCodes = 50
	// otherLabel stands for every value past a bound, or not of the expected shape.
	otherLabel = "other"
	// unknownCode stands for an error that carries no extensions.code.
	unknownCode = "UNKNOWN"
)

var (
	operationNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	errorCodePattern     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	reasonPattern        = regexp.MustCompile(`^[A-Za-z]{1,64}$`)
)

func isOperationName(s string) bool { return operationNamePattern.MatchString(s) }
func isErrorCode(s string) bool     { return errorCodePattern.MatchString(s) }

// boundedLabel admits the first max distinct well-formed values of a label as themselves
// and maps every other value to otherLabel. The empty value is always admitted.
type boundedLabel struct {
	max   int
	valid func(string) bool

	mu   sync.Mutex
	seen map[string]bool
}

func newBoundedLabel(limit int, valid func(string) bool) *boundedLabel {
	return &boundedLabel{max: limit, valid: valid, seen: map[string]bool{}}
}

// value is the label value to use for v.
func (b *boundedLabel) value(v string) string {
	if v == "" {
		return ""
	}
	if !b.valid(v) {
		return otherLabel
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[v] {
		return v
	}
	if len(b.seen) >= b.max {
		return otherLabel
	}
	b.seen[v] = true
	return v
}

// knownMethods are the HTTP methods that get their own series; any other is otherLabel.
var knownMethods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true,
}

func methodLabel(m string) string {
	if knownMethods[m] {
		return m
	}
	return otherLabel
}

// knownPaths are the routes the server has; any other path is otherLabel.
var knownPaths = map[string]bool{
	"/": true, "/graphql": true, "/healthz": true, "/readyz": true, "/metrics": true,
}

func pathLabel(p string) string {
	if knownPaths[p] {
		return p
	}
	return otherLabel
}
