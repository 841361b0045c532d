package apitest

import (
	"context"
	"sync"

	"github.com/quickphotos/quickphotos/dynamo"
)

// RequestLog is a dynamo.Observer that remembers every DynamoDB request a server sent, for
// tests that must prove a refused operation sent none. Block makes requests wait until their
// context ends, for tests of timeouts and disconnects.
type RequestLog struct {
	mu       sync.Mutex
	requests []string
	ended    []error
	block    bool
}

// Block makes every later request wait until its context is done, as a store that hangs would.
func (l *RequestLog) Block() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.block = true
}

// BeginRequest records the request, and blocks it when Block was called.
func (l *RequestLog) BeginRequest(ctx context.Context, operation, _ string) (context.Context, func(dynamo.RequestOutcome)) {
	l.mu.Lock()
	l.requests = append(l.requests, operation)
	block := l.block
	l.mu.Unlock()
	if block {
		<-ctx.Done()
	}
	return ctx, func(o dynamo.RequestOutcome) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ended = append(l.ended, o.Err)
	}
}

// Requests are the operations of the requests sent so far.
func (l *RequestLog) Requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.requests...)
}

// Errors are the errors of the requests that ended so far, nil for those that succeeded.
func (l *RequestLog) Errors() []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]error(nil), l.ended...)
}
