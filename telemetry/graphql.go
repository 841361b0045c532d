package telemetry

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// The outcomes of a GraphQL operation, the outcome label of quickphotos_graphql_operations_total.
const (
	// OutcomeOK: the operation ran and its response has no errors.
	OutcomeOK = "ok"
	// OutcomeError: the operation ran and its response has at least one error (a resolver
	// failed; the data may be partial or null).
	OutcomeError = "error"
	// OutcomeRejected: the operation never ran. gqlgen refused it before any resolver was
	// called: the body did not decode, the document did not parse or validate, the variables
	// did not coerce, or an extension (such as the query limits) refused it. Its response has
	// errors and no data.
	OutcomeRejected = "rejected"
)

// GraphQL returns the gqlgen extension that measures and traces operations. Use it first
// (before the extensions that set up loaders and costs) so that its span is the parent of
// everything the operation does.
//
// Each operation gets a span named after its type and name ("query userProfile"), with the
// attributes graphql.operation.type and graphql.operation.name, and is counted in
// quickphotos_graphql_operations_total with its outcome (OutcomeOK, OutcomeError or
// OutcomeRejected), timed in quickphotos_graphql_operation_duration_seconds from the moment
// gqlgen received it, and the extensions.code of each error of its response is counted in
// quickphotos_graphql_errors_total (UNKNOWN for an error without one). By the time the
// extension sees a response, gqlgen has passed its errors through the error presenter, so
// these are the codes clients see. The operation's name, type and error codes also go into
// the access log line of its HTTP request.
//
// Operation names come from clients, so only names that match [A-Za-z_][A-Za-z0-9_]{0,63}
// are kept, in spans, logs and metrics; any other is "other". The metrics keep the first 200
// distinct names seen and count every later one as "other". An anonymous operation has the
// name "", and a refused operation whose type was never known has the type "".
func (t *Telemetry) GraphQL() graphql.HandlerExtension {
	return graphqlExtension{t}
}

type graphqlExtension struct{ t *Telemetry }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.ResponseInterceptor
} = graphqlExtension{}

func (graphqlExtension) ExtensionName() string { return "QuickphotosTelemetry" }

func (graphqlExtension) Validate(graphql.ExecutableSchema) error { return nil }

// dispatchedKey marks the context of an operation that InterceptOperation saw, so that
// InterceptResponse can tell a refused operation (which never reaches InterceptOperation)
// from a running one.
type dispatchedKey struct{}

// InterceptOperation runs for every operation gqlgen executes.
func (e graphqlExtension) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	op := e.t.begin(ctx, oc)
	ctx = context.WithValue(op.ctx, dispatchedKey{}, true)
	responses := next(ctx)
	subscription := op.typ == string(ast.Subscription)
	return func(ctx context.Context) *graphql.Response {
		resp := responses(ctx)
		// A query or mutation has one response; a subscription ends with a nil one.
		op.observe(resp)
		if resp == nil || !subscription {
			op.finish()
		}
		return resp
	}
}

// InterceptResponse sees the response of every operation, including those gqlgen refused
// before execution; it accounts for the latter, the others are left to InterceptOperation.
func (e graphqlExtension) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if ctx.Value(dispatchedKey{}) != nil {
		return next(ctx)
	}
	var oc *graphql.OperationContext
	if graphql.HasOperationContext(ctx) {
		oc = graphql.GetOperationContext(ctx)
	}
	op := e.t.begin(ctx, oc)
	resp := next(op.ctx)
	op.rejected = true
	op.observe(resp)
	op.finish()
	return resp
}

// operation is one GraphQL operation being measured.
type operation struct {
	t     *Telemetry
	ctx   context.Context
	span  trace.Span
	start time.Time
	name  string // a valid name, "" or otherLabel
	typ   string

	once     sync.Once
	mu       sync.Mutex
	rejected bool
	failed   bool
	codes    []string
}

// begin starts measuring the operation oc describes (nil when gqlgen had not even decoded
// the request).
func (t *Telemetry) begin(ctx context.Context, oc *graphql.OperationContext) *operation {
	op := &operation{t: t, start: time.Now()}
	if oc != nil {
		if !oc.Stats.OperationStart.IsZero() {
			op.start = oc.Stats.OperationStart
		}
		name := oc.OperationName
		if oc.Operation != nil {
			name = oc.Operation.Name
			op.typ = string(oc.Operation.Operation)
		}
		op.name = operationName(name)
	}
	if !t.traced {
		op.ctx, op.span = t.tracer.Start(ctx, "") // a noop.TracerProvider's: nothing is built
	} else {
		attrs := []attribute.KeyValue{attribute.String("graphql.operation.type", op.typ)}
		if op.name != "" {
			attrs = append(attrs, attribute.String("graphql.operation.name", op.name))
		}
		op.ctx, op.span = t.tracer.Start(ctx, spanName(op.name, op.typ),
			trace.WithTimestamp(op.start), trace.WithAttributes(attrs...))
	}
	if rec := recordFrom(ctx); rec != nil {
		rec.setOperation(op.name, op.typ)
	}
	return op
}

// operationName is the name to report for a client's operation name.
func operationName(name string) string {
	if name == "" || isOperationName(name) {
		return name
	}
	return otherLabel
}

// spanName follows OpenTelemetry's GraphQL conventions: "{type} {name}", or the type alone.
func spanName(name, typ string) string {
	switch {
	case typ == "":
		return "GraphQL Operation"
	case name == "":
		return typ
	}
	return typ + " " + name
}

// observe notes the errors of one response; nil is an operation that produced none.
func (op *operation) observe(resp *graphql.Response) {
	op.mu.Lock()
	defer op.mu.Unlock()
	if resp == nil {
		return
	}
	for _, err := range resp.Errors {
		code, _ := err.Extensions["code"].(string)
		if code == "" {
			code = unknownCode
		}
		code = op.t.errorCodes.value(code)
		op.codes = append(op.codes, code)
		op.t.m.graphqlErrors.WithLabelValues(code).Inc()
	}
	if len(resp.Errors) > 0 {
		op.failed = true
	}
}

// finish counts the operation and ends its span, once.
func (op *operation) finish() {
	op.once.Do(func() {
		op.mu.Lock()
		defer op.mu.Unlock()
		outcome := OutcomeOK
		switch {
		case op.rejected:
			outcome = OutcomeRejected
		case op.failed:
			outcome = OutcomeError
		}
		name := op.t.operations.value(op.name)
		op.t.m.operations.WithLabelValues(name, op.typ, outcome).Inc()
		op.t.m.operationDuration.WithLabelValues(name, op.typ).Observe(time.Since(op.start).Seconds())
		if rec := recordFrom(op.ctx); rec != nil {
			rec.addErrorCodes(op.codes)
		}
		op.span.SetAttributes(attribute.String("quickphotos.graphql.outcome", outcome))
		if outcome != OutcomeOK {
			op.span.SetStatus(codes.Error, outcome+": "+strings.Join(op.codes, ","))
		}
		op.span.End()
	})
}
