package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
)

// codeBadRequest is the extensions.code of a request the GraphQL endpoint cannot take at all,
// whatever its operation: a method other than GET and POST, a body that is not JSON, a
// mutation sent with GET. Like the codes of errortable.go, it is answered in GraphQL's error
// shape, as GraphQL over HTTP allows for such refusals, so that clients read every refusal
// the same way.
const codeBadRequest = "BAD_REQUEST"

// writeRefusal answers a request refused before GraphQL ran with status and a GraphQL error
// body, in the media type the client asked for: application/graphql-response+json when it
// accepts it, application/json otherwise.
func writeRefusal(w http.ResponseWriter, r *http.Request, status int, code, message string) {
	contentType := "application/json"
	if acceptsGraphQLResponse(r.Header.Get("Accept")) {
		contentType = "application/graphql-response+json"
	}
	w.Header().Set("Content-Type", contentType+"; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(refusalBody(code, message))
}

// refusalBody is the GraphQL response of a refusal: one error with message and code, no data.
func refusalBody(code, message string) []byte {
	b, _ := json.Marshal(map[string]any{
		"errors": []any{map[string]any{"message": message, "extensions": map[string]any{"code": code}}},
	})
	return append(b, '\n')
}

// acceptsGraphQLResponse reports whether an Accept header lists application/graphql-response+json.
func acceptsGraphQLResponse(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		if mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && mediaType == "application/graphql-response+json" {
			return true
		}
	}
	return false
}

// endpointMethods answers a request to Endpoint with a method other than GET, HEAD and POST
// with 405 in GraphQL's error shape; the mux would answer it in plain text.
func endpointMethods(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path != Endpoint, r.Method == http.MethodGet, r.Method == http.MethodHead, r.Method == http.MethodPost:
			next.ServeHTTP(w, r)
		default:
			w.Header().Set("Allow", "GET, POST")
			writeRefusal(w, r, http.StatusMethodNotAllowed, codeBadRequest,
				fmt.Sprintf("the GraphQL endpoint takes GET and POST, not %.20q", r.Method))
		}
	})
}

// unsupportedRequest is the last transport: it takes every request no other transport took,
// and refuses it in GraphQL's error shape (gqlgen answers those with a bare "transport not
// supported" and no code).
type unsupportedRequest struct{}

var _ graphql.Transport = unsupportedRequest{}

func (unsupportedRequest) Supports(*http.Request) bool { return true }

func (unsupportedRequest) Do(w http.ResponseWriter, r *http.Request, _ graphql.GraphExecutor) {
	if r.Method == http.MethodPost && !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		contentType := r.Header.Get("Content-Type")
		if contentType == "" {
			contentType = "missing"
		}
		w.Header().Set("Accept-Post", "application/json")
		writeRefusal(w, r, http.StatusUnsupportedMediaType, codeBadRequest,
			fmt.Sprintf("the request's Content-Type is %.60q: send the GraphQL request as application/json", contentType))
		return
	}
	writeRefusal(w, r, http.StatusBadRequest, codeBadRequest,
		"this request is not a GraphQL request: send a query with GET or POST, or open a WebSocket with GET and the graphql-transport-ws subprotocol")
}

// refusalLog logs the live connections refused, with their close codes, at most once a
// second per code: a client that reconnects in a loop after each refusal must not flood the
// log. A line says how many refusals of its code went unlogged since the last one.
type refusalLog struct {
	logger *slog.Logger
	// every is the least time between two lines of one code.
	every time.Duration

	mu      sync.Mutex
	last    map[int]time.Time
	dropped map[int]int
}

func newRefusalLog(log *slog.Logger) *refusalLog {
	return &refusalLog{logger: log, every: time.Second, last: map[int]time.Time{}, dropped: map[int]int{}}
}

// log records a refusal with code; a code of 4500 or more is the server's fault, and logged
// as an error.
func (l *refusalLog) log(ctx context.Context, code int, reason string) {
	l.mu.Lock()
	now := time.Now()
	if now.Sub(l.last[code]) < l.every {
		l.dropped[code]++
		l.mu.Unlock()
		return
	}
	l.last[code] = now
	dropped := l.dropped[code]
	l.dropped[code] = 0
	l.mu.Unlock()
	level := slog.LevelInfo
	if code >= 4500 {
		level = slog.LevelError
	}
	l.logger.Log(ctx, level, "graphql-ws connection closed", "code", code, "reason", reason, "unlogged_since_last", dropped)
}
