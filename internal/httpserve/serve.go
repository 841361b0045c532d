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

// Drain is what a server behind a load balancer does between being told to stop and stopping:
// it goes on serving for Delay, new connections included, after Begin has made its readiness
// check fail, so that the load balancer stops sending it requests before its listener closes.
// Kubernetes takes a stopping pod out of its Service's endpoints as it signals the pod, not
// before, and the proxies and load balancers routing to it learn of that seconds later: a
// listener closed at once refuses the connections they send meanwhile.
type Drain struct {
	// Delay is how long the server goes on serving; not at all when zero.
	Delay time.Duration
	// Begin, when set, is called once the context ends, before the delay: what makes the
	// server's readiness check fail.
	Begin func()
}

// Serve runs srv on ln until ctx ends, then shuts down gracefully: it stops accepting and
// waits up to grace for requests in flight (DefaultShutdownTimeout when zero). A clean stop
// returns nil; requests still running after grace make it return an error.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	return ServeDraining(ctx, srv, ln, Drain{}, grace)
}

// ServeDraining is Serve with drain between the end of ctx and the shutdown. During the delay
// every response asks its client to close the connection, so that clients holding one open
// (a load balancer's pool) reconnect, to another server, rather than lose an idle connection
// to the shutdown while sending a request on it.
func ServeDraining(ctx context.Context, srv *http.Server, ln net.Listener, drain Drain, grace time.Duration) error {
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
	if drain.Begin != nil {
		drain.Begin()
	}
	if drain.Delay > 0 {
		srv.SetKeepAlivesEnabled(false)
		t := time.NewTimer(drain.Delay)
		select {
		case err := <-errc:
			t.Stop()
			return err
		case <-t.C:
		}
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
