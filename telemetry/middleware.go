package telemetry

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/quickphotos/quickphotos/dynamo"
)

// StatusClientClosedRequest is the status logged and counted for a request whose client
// disconnected before the response was written (nginx's convention; it is never sent).
const StatusClientClosedRequest = 499

// Middleware wraps the server's whole handler. For every request it:
//
//   - takes the client's X-Request-Id when it is at most 64 characters of [A-Za-z0-9._-],
//     else makes a new id, and sends it back in the X-Request-Id response header;
//   - starts a server span, joining the caller's trace when the request carries a W3C
//     traceparent (and the global propagator, set by SetupTracing, understands it);
//   - counts the request and its duration, by method and route;
//   - writes one access log line once the handler returns.
//
// The access log line holds request_id, method, path (the route, never the query string),
// status, duration_ms, and what the layers below reported: operation, operation_type,
// dynamodb_requests, read_capacity_units, write_capacity_units and error_codes. It is logged
// at Info, at Warn for a 5xx status, and as "client disconnected" with status 499 when the
// request's context was cancelled before the response was written. Headers (Authorization,
// cookies), the query text and variables are never logged.
func (t *Telemetry) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get(RequestIDHeader)
		if !validRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set(RequestIDHeader, id)

		method, path := methodLabel(r.Method), pathLabel(r.URL.Path)
		ctx, cost := dynamo.WithCost(r.Context())
		rec := &record{id: id, cost: cost}
		ctx = otel.GetTextMapPropagator().Extract(ctx, propagation.HeaderCarrier(r.Header))
		var span trace.Span
		if !t.traced {
			ctx, span = t.tracer.Start(ctx, "") // a noop.TracerProvider's: nothing is built
		} else {
			ctx, span = t.tracer.Start(ctx, method+" "+path,
				trace.WithSpanKind(trace.SpanKindServer),
				trace.WithAttributes(
					attribute.String("http.request.method", r.Method),
					attribute.String("http.route", path),
					attribute.String("quickphotos.request_id", id),
				))
		}
		defer span.End()
		ctx = withRecord(ctx, rec)

		rw := &responseWriter{ResponseWriter: w, ctx: r.Context()}
		next.ServeHTTP(rw, r.WithContext(ctx))

		status, disconnected := rw.result()
		elapsed := time.Since(start)
		t.m.httpRequests.WithLabelValues(method, path, strconv.Itoa(status)).Inc()
		t.m.httpDuration.WithLabelValues(method, path).Observe(elapsed.Seconds())

		span.SetAttributes(attribute.Int("http.response.status_code", status))
		if status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(status))
		}

		level, msg := slog.LevelInfo, "http request"
		switch {
		case disconnected:
			msg = "client disconnected"
		case status >= 500:
			level = slog.LevelWarn
		}
		// One allocation for every attribute: five here, the record's, and trace_id.
		attrs := make([]slog.Attr, 0, 5+recordAttrs+1)
		attrs = append(attrs,
			slog.String("request_id", id),
			slog.String("method", r.Method),
			slog.String("path", path),
			slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
		)
		attrs = rec.appendAttrs(attrs)
		if sc := span.SpanContext(); sc.IsValid() {
			attrs = append(attrs, slog.String("trace_id", sc.TraceID().String()))
		}
		t.log.LogAttrs(ctx, level, msg, attrs...)
	})
}

// responseWriter notes the status of a response and whether the client had gone before it
// was written. It keeps the optional interfaces reachable: Flush and Hijack directly (some
// libraries still assert them), everything else through Unwrap and http.ResponseController.
type responseWriter struct {
	http.ResponseWriter
	// ctx is the request's context as the server made it: cancelled when the client goes.
	ctx context.Context

	status       int
	wrote        bool
	disconnected bool
}

func (w *responseWriter) WriteHeader(code int) {
	if !w.wrote && (code >= 200 || code == http.StatusSwitchingProtocols) {
		w.begin(code)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.begin(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// begin records the status of the response being started.
func (w *responseWriter) begin(code int) {
	w.wrote = true
	w.status = code
	w.disconnected = errors.Is(w.ctx.Err(), context.Canceled)
}

// result is the status to log and count, and whether the client disconnected first.
func (w *responseWriter) result() (status int, disconnected bool) {
	if !w.wrote {
		// net/http sends 200 for a handler that wrote nothing.
		w.begin(http.StatusOK)
	}
	if w.disconnected {
		return StatusClientClosedRequest, true
	}
	return w.status, false
}

// Unwrap lets http.ResponseController reach the server's ResponseWriter.
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush sends any buffered data to the client.
func (w *responseWriter) Flush() {
	if !w.wrote {
		w.begin(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack hands the connection over to the caller (WebSocket upgrades).
func (w *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil && !w.wrote {
		w.begin(http.StatusSwitchingProtocols)
	}
	return conn, rw, err
}
