package telemetry

import (
	"context"
	"crypto/rand"
	"log/slog"
	"sync"

	"github.com/quickphotos/quickphotos/dynamo"
)

// RequestIDHeader carries the request id: a client may send one, and every response has one.
const RequestIDHeader = "X-Request-Id"

// maxRequestIDLength bounds a request id a client sends.
const maxRequestIDLength = 64

// validRequestID reports whether a client's request id is short and made only of
// [A-Za-z0-9._-], so that it can go into logs and headers as it is.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// newRequestID returns a random request id (26 characters of base32).
func newRequestID() string { return rand.Text() }

// record is what the layers below the middleware learn about one HTTP request, for its
// access log line. The GraphQL extension and the store observer fill it in, from several
// goroutines: resolvers run in parallel.
type record struct {
	id string
	// cost is the request's DynamoDB requests, as the store counts them (see dynamo.Cost).
	cost *dynamo.Cost

	mu            sync.Mutex
	operation     string
	operationType string
	errorCodes    []string
}

type recordKey struct{}

func withRecord(ctx context.Context, r *record) context.Context {
	return context.WithValue(ctx, recordKey{}, r)
}

// recordFrom returns the request's record, nil outside Middleware.
func recordFrom(ctx context.Context) *record {
	r, _ := ctx.Value(recordKey{}).(*record)
	return r
}

// RequestID returns the id Middleware gave the request that ctx belongs to, "" when there is
// none.
func RequestID(ctx context.Context) string {
	if r := recordFrom(ctx); r != nil {
		return r.id
	}
	return ""
}

func (r *record) setOperation(name, typ string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.operation, r.operationType = name, typ
}

func (r *record) addErrorCodes(codes []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errorCodes = append(r.errorCodes, codes...)
}

// recordAttrs is how many attributes appendAttrs adds.
const recordAttrs = 6

// appendAttrs appends the record's fields for the access log to attrs.
func (r *record) appendAttrs(attrs []slog.Attr) []slog.Attr {
	cost := r.cost.Snapshot()
	r.mu.Lock()
	defer r.mu.Unlock()
	codes := make([]string, len(r.errorCodes))
	copy(codes, r.errorCodes)
	return append(attrs,
		slog.String("operation", r.operation),
		slog.String("operation_type", r.operationType),
		slog.Int("dynamodb_requests", cost.Requests),
		slog.Float64("read_capacity_units", cost.ReadCapacityUnits),
		slog.Float64("write_capacity_units", cost.WriteCapacityUnits),
		slog.Any("error_codes", codes),
	)
}

// LogHandler wraps h so that every record logged with a context (the *Context methods of
// slog.Logger) during a request carries the request's id as request_id, unless the record
// already has a request_id of its own. Under a group opened with WithGroup, request_id is
// added inside that group, as slog does for every attribute of a record.
func LogHandler(h slog.Handler) slog.Handler {
	return logHandler{h}
}

type logHandler struct{ slog.Handler }

func (h logHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" && !hasAttr(r, "request_id") {
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{h.Handler.WithAttrs(attrs)}
}

func (h logHandler) WithGroup(name string) slog.Handler {
	return logHandler{h.Handler.WithGroup(name)}
}

func hasAttr(r slog.Record, key string) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == key
		return !found
	})
	return found
}
