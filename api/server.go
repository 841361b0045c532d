package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/graph"
	"github.com/quickphotos/quickphotos/playground"
	"github.com/quickphotos/quickphotos/resolvers"
)

// Endpoint is the path of the GraphQL API.
const Endpoint = "/graphql"

// Config is what the HTTP edge needs.
type Config struct {
	// Store is the data layer every operation uses.
	Store *dynamo.Store
	// Logger receives internal errors; nil discards them.
	Logger *slog.Logger
	// MaxBodyBytes bounds a request body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
}

// DefaultMaxBodyBytes bounds request bodies: GraphQL documents are small, and a large body is
// either a mistake or an attack.
const DefaultMaxBodyBytes = 1 << 20

// New returns the server's HTTP handler: the GraphQL API at Endpoint (POST, and GET for
// queries), the GraphiQL playground at /, and /healthz.
func New(cfg Config) http.Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	maxBody := cfg.MaxBodyBytes
	if maxBody == 0 {
		maxBody = DefaultMaxBodyBytes
	}
	gql := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: &resolvers.Resolver{Store: cfg.Store}}))
	gql.AddTransport(transport.GET{})
	gql.AddTransport(transport.POST{})
	gql.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	gql.Use(extension.Introspection{})
	gql.Use(perOperation{store: cfg.Store})
	gql.Use(costReporter{})
	gql.SetErrorPresenter(presentError(log))
	gql.SetRecoverFunc(recoverPanic(log))

	mux := http.NewServeMux()
	api := limitBody(maxBody, askCost(gql))
	mux.Handle("GET "+Endpoint, api)
	mux.Handle("POST "+Endpoint, api)
	mux.Handle("GET /healthz", http.HandlerFunc(healthz))
	mux.Handle("GET /", playground.Handler(Endpoint))
	return mux
}

func limitBody(n int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, n)
		next.ServeHTTP(w, r)
	})
}

func healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"status": "ok"})
}

// ShutdownTimeout bounds how long a stopping server waits for requests in flight.
const ShutdownTimeout = 15 * time.Second

// Serve runs srv on ln until ctx ends, then shuts down gracefully: it stops accepting and
// waits up to ShutdownTimeout for requests in flight. A clean stop returns nil.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
