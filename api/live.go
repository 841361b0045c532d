package api

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/loaders"
)

// DefaultMaxLiveConnections bounds the WebSocket and Server-Sent Events connections a server
// holds at once.
const DefaultMaxLiveConnections = 10000

// Heartbeats of live connections: a graphql-ws "ping" or an SSE keep-alive every
// liveKeepAlive, so that proxies keep idle connections open and dead ones are found.
const (
	liveKeepAlive   = 15 * time.Second
	liveInitTimeout = 10 * time.Second
)

// liveTransports are the transports of subscriptions: graphql-ws (graphql-transport-ws over
// WebSocket, authenticated in connection_init) and Server-Sent Events (authenticated as any
// request). SSE goes before POST, whose test would take an SSE POST too.
func liveTransports(v auth.Verifier, origins []string) []graphql.Transport {
	accept := websocket.AcceptOptions{OriginPatterns: originPatterns(origins)}
	return []graphql.Transport{
		transport.SSE{KeepAlivePingInterval: liveKeepAlive},
		transport.Websocket{
			Implementation:        transport.CoderWebsocketImplementation{AcceptOptions: accept},
			InitFunc:              authenticateInit(v),
			InitTimeout:           liveInitTimeout,
			KeepAlivePingInterval: liveKeepAlive,
		},
	}
}

// originPatterns are the browser origins a WebSocket may come from besides the server's own,
// as coder/websocket matches them (host patterns): the CORS origins.
func originPatterns(origins []string) []string {
	var patterns []string
	for _, o := range origins {
		if o == "*" {
			return []string{"*"}
		}
		if _, host, ok := strings.Cut(o, "://"); ok {
			patterns = append(patterns, host)
		}
	}
	return patterns
}

// authenticateInit reads the caller of a WebSocket from its connection_init payload: an
// "Authorization": "Bearer <token>" entry, as Apollo Client and graphql-ws send connection
// parameters. Without one, the caller identify found for the upgrade request stays (anonymous,
// or trusted without authentication). A bad token refuses the connection.
func authenticateInit(v auth.Verifier) transport.WebsocketInitFunc {
	return func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		ctx = live.WithConnection(ctx)
		header := payload.Authorization()
		if header == "" || v == nil {
			return ctx, nil, nil
		}
		r, _ := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
		r.Header.Set("Authorization", header)
		caller, err := callerOf(r, v)
		if err != nil {
			return ctx, nil, err
		}
		return domain.WithCaller(ctx, caller), nil, nil
	}
}

// isLive reports whether r opens a subscription connection: a WebSocket upgrade, or a
// request for Server-Sent Events. Those run without the request timeout.
func isLive(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket") || strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// limitLive refuses a live connection past max open ones with 503, and marks an SSE request
// as one connection for the per-connection subscription cap (a WebSocket is marked when it
// starts, in authenticateInit).
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
		// The server's read and write timeouts are for requests; a live connection lasts.
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		next.ServeHTTP(w, r.WithContext(live.WithConnection(r.Context())))
	})
}

// perEvent makes every response of a subscription read with new loaders, so that an event
// never shows what an earlier one cached, and makes the response that follows a subscription
// the server ended (it fell behind) carry the error, instead of ending in silence.
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
