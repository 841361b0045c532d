package main

import "context"

// lifecycle is what a command has opened and started, for close to stop and close in reverse:
// what was opened first (the store) closes last, after every background worker and listener
// that uses it has stopped. A command adds each part as soon as it has it, so a failure halfway
// closes exactly what was opened.
type lifecycle struct {
	closers []func()
}

// onClose adds f to what close runs, before everything added earlier.
func (l *lifecycle) onClose(f func()) { l.closers = append(l.closers, f) }

// background runs work beside the command until ctx ends or close stops it: a stream
// consumer, a sweep, a listener other than the API's. close ends work's context and waits for
// it to return; what work returns is its own to log.
func (l *lifecycle) background(ctx context.Context, work func(context.Context) error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = work(ctx)
	}()
	l.onClose(func() { cancel(); <-done })
}

// close stops and closes everything added, the latest first.
func (l *lifecycle) close() {
	for i := len(l.closers) - 1; i >= 0; i-- {
		l.closers[i]()
	}
	l.closers = nil
}
