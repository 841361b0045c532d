// Package httpserve runs an http.Server until its context ends and then stops it gracefully.
// Both listeners use it: the GraphQL API (package api) and the engine's DynamoDB API (ddb),
// neither of which should need the other to serve.
package httpserve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// DefaultShutdownTimeout bounds how long a stopping server waits for requests in flight.
const DefaultShutdownTimeout = 15 * time.Second

// Serve runs srv on ln until ctx ends, then shuts down gracefully: it stops accepting and
// waits up to grace for requests in flight (DefaultShutdownTimeout when zero). A clean stop
// returns nil; requests still running after grace make it return an error.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	if grace <= 0 {
		grace = DefaultShutdownTimeout
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("requests still running after %s were cut off: %w", grace, err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
