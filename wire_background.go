package main

import "context"

// serveInBackground runs serveFn, a server that stops when its context ends, beside the API;
// the returned stop ends it and waits until it has stopped.
func serveInBackground(ctx context.Context, serveFn func(context.Context) error) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serveFn(ctx)
	}()
	return func() { cancel(); <-done }
}
