package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/loaders"
)

// DefaultMaxLiveConnections bounds the WebSocket and Server-Sent Events connections a server
// holds at once.
const DefaultMaxLiveConnections = 10000

// liveKeepAlive is the heartbeat of live connections: a graphql-ws "ping" or an SSE
// keep-alive every liveKeepAlive, so that proxies keep idle connections open and dead ones
// are found.
const liveKeepAlive = 15 * time.Second

// DefaultLiveInitTimeout is how long a WebSocket may take to send connection_init.
const DefaultLiveInitTimeout = 10 * time.Second

// liveTransports are the transports of subscriptions: graphql-ws (graphql-transport-ws over
// WebSocket, authenticated in connection_init, graphqlws.go) and Server-Sent Events, by POST
// or GET (authenticated as any request). SSE goes before POST and GET, whose tests would take
// an SSE request too.
func liveTransports(cfg Config, rl rateLimit) []graphql.Transport {
	sse := transport.SSE{KeepAlivePingInterval: liveKeepAlive}
	perConnection := live.DefaultPerConnection
	if cfg.Live != nil {
		perConnection = cfg.Live.PerConnection()
	}
	return []graphql.Transport{
		sse,
		sseGET{sse: sse},
		graphqlWS{
			accept:      websocket.AcceptOptions{OriginPatterns: originPatterns(cfg.CORSOrigins)},
			verifier:    cfg.Verifier,
			initTimeout: cfg.LiveInitTimeout,
			readLimit:   cfg.MaxBodyBytes,
			refusals:    newRefusalLog(cfg.Logger),
			limit:       rl,
			maxInFlight: perConnection,
		},
	}
}

// originPatterns are the browser origins a WebSocket may come from besides the server's own:
// the CORS origins, whole. coder/websocket matches a pattern with a scheme against the
// Origin's scheme and host, and one without against the host alone, which would let a page
// served over plain http in where only https was allowed.
func originPatterns(origins []string) []string {
	var patterns []string
	for _, o := range origins {
		if o == "*" {
			return []string{"*"}
		}
		if strings.Contains(o, "://") {
			patterns = append(patterns, o)
		}
	}
	return patterns
}

// sseGET takes a subscription (or a query) over Server-Sent Events sent with GET, its query,
// operationName, variables and extensions in the URL as for a GET query: graphql-sse's
// "distinct connections mode" allows GET, and EventSource can send nothing else. gqlgen's SSE
// transport reads POST bodies only, so sseGET hands it the same request as a POST of JSON.
// A mutation is refused with 405, as over plain GET: a GET must not change anything.
type sseGET struct{ sse transport.SSE }

var _ graphql.Transport = sseGET{}

func (sseGET) Supports(r *http.Request) bool {
	return r.Method == http.MethodGet && wantsEventStream(r) && r.Header.Get("Upgrade") == ""
}

func (t sseGET) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	params := r.URL.Query()
	if isMutation(params.Get("query"), params.Get("operationName")) {
		w.Header().Set("Allow", http.MethodPost)
		writeRefusal(w, r, http.StatusMethodNotAllowed, codeBadRequest, "a mutation cannot be sent with GET: send it with POST")
		return
	}
	body := map[string]any{"query": params.Get("query")}
	if name := params.Get("operationName"); name != "" {
		body["operationName"] = name
	}
	for _, member := range []string{"variables", "extensions"} {
		if raw := params.Get(member); raw != "" {
			if !json.Valid([]byte(raw)) {
				writeRefusal(w, r, http.StatusBadRequest, extensionCode(domain.Invalid), "the "+member+" parameter is not JSON")
				return
			}
			body[member] = json.RawMessage(raw)
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		writeRefusal(w, r, http.StatusBadRequest, extensionCode(domain.Invalid), "the request could not be encoded")
		return
	}
	post := r.Clone(r.Context())
	post.Method = http.MethodPost
	post.Header.Set("Content-Type", "application/json")
	post.Body = io.NopCloser(bytes.NewReader(b))
	post.ContentLength = int64(len(b))
	gate := &noMutationByGET{GraphExecutor: exec, w: w, r: r}
	t.sse.Do(gate.writer(), post, gate)
}

// noMutationByGET is the executor sseGET hands the SSE transport. A URL can name its document
// without its text, by a persisted query's hash or a trusted document's id, so whether the
// operation is a mutation is known only once the document is found: then it is refused with
// 405, as the URL's text is above, before it runs, and whatever the transport writes after
// is dropped.
type noMutationByGET struct {
	graphql.GraphExecutor
	w       http.ResponseWriter
	r       *http.Request
	refused bool
}

func (g *noMutationByGET) CreateOperationContext(ctx context.Context, p *graphql.RawParams) (*graphql.OperationContext, gqlerror.List) {
	oc, errs := g.GraphExecutor.CreateOperationContext(ctx, p)
	if errs == nil && oc != nil && oc.Operation != nil && oc.Operation.Operation == ast.Mutation {
		g.refused = true
		g.w.Header().Set("Allow", http.MethodPost)
		writeRefusal(g.w, g.r, http.StatusMethodNotAllowed, codeBadRequest, "a mutation cannot be sent with GET: send it with POST")
		return oc, gqlerror.List{gqlerror.Errorf("a mutation cannot be sent with GET")}
	}
	return oc, errs
}

// writer is the transport's writer: g's, until g refuses.
func (g *noMutationByGET) writer() http.ResponseWriter { return afterRefusal{g} }

type afterRefusal struct{ g *noMutationByGET }

func (a afterRefusal) Header() http.Header { return a.g.w.Header() }

func (a afterRefusal) Write(b []byte) (int, error) {
	if a.g.refused {
		return len(b), nil
	}
	return a.g.w.Write(b)
}

func (a afterRefusal) WriteHeader(code int) {
	if !a.g.refused {
		a.g.w.WriteHeader(code)
	}
}

// Flush lets the SSE transport stream, which it does only through an http.Flusher.
func (a afterRefusal) Flush() {
	if f, ok := a.g.w.(http.Flusher); ok && !a.g.refused {
		f.Flush()
	}
}

// isMutation reports whether the operation named in query is a mutation. A document that does
// not parse is not: the SSE transport answers it with its parse error.
func isMutation(query, operationName string) bool {
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return false
	}
	op := doc.Operations.ForName(operationName)
	return op != nil && op.Operation == ast.Mutation
}

func wantsEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// isLive reports whether r opens a subscription connection: a WebSocket upgrade (a GET), or a
// request for Server-Sent Events (a GET or a POST). Those run without the request timeout.
func isLive(r *http.Request) bool {
	return isWebSocket(r) || (r.Method == http.MethodGet || r.Method == http.MethodPost) && wantsEventStream(r)
}

// limitLive refuses a live connection past max open ones with 503, and marks each one as one
// connection for the per-connection subscription cap. It lifts the server's read and write
// deadlines, which are for requests, since a live connection lasts: so it must run after the
// body is read (limitBody), under the read deadline, lest a client that sends its body slowly
// hold a connection for ever.
func limitLive(max int, hub *live.Hub, next http.Handler) http.Handler {
	var open atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if open.Add(1) > int64(max) {
			open.Add(-1)
			writeHTTPError(w, 0, domain.Errorf(domain.Unavailable, "the server holds %d live connections already; retry later", max))
			return
		}
		defer open.Add(-1)
		if hub != nil {
			defer hub.Connected()()
		}
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		next.ServeHTTP(w, r.WithContext(live.WithConnection(r.Context())))
	})
}

// perEvent makes every response of a subscription read with new loaders, so that an event
// never shows what an earlier one cached, and makes the response that follows a subscription
// the server ended (it fell behind) carry the error, instead of ending in silence. A stream of
// Server-Sent Events whose token expired ends with UNAUTHENTICATED in place of its next event
// (tokenexpiry.go).
type perEvent struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.ResponseInterceptor
} = perEvent{}

func (perEvent) ExtensionName() string { return "QuickphotosPerEvent" }

func (perEvent) Validate(graphql.ExecutableSchema) error { return nil }

type outcomeKey struct{}

func (perEvent) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc == nil || oc.Operation == nil || oc.Operation.Operation != ast.Subscription {
		return next(ctx)
	}
	ctx, outcome := live.WithOutcome(ctx)
	return next(context.WithValue(ctx, outcomeKey{}, outcome))
}

func (perEvent) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	outcome, ok := ctx.Value(outcomeKey{}).(*live.Outcome)
	if !ok {
		return next(ctx)
	}
	resp := next(loaders.With(ctx, loaders.For(ctx).Renewed()))
	if streamExpired(ctx) {
		// The event, if one came, is the token's user's no longer.
		return &graphql.Response{Errors: gqlerror.List{requestError(errTokenExpired)}}
	}
	if resp == nil {
		if err := outcome.Untold(); err != nil {
			graphql.AddError(ctx, err)
			return &graphql.Response{Errors: graphql.GetErrors(ctx)}
		}
	}
	return resp
}

// liveOr sends subscription connections to subscriptions and every other request to rest.
func liveOr(subscriptions, rest http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isLive(r) {
			subscriptions.ServeHTTP(w, r)
			return
		}
		rest.ServeHTTP(w, r)
	})
}
