package live

import (
	"context"
	"sync"
)

// Outcome is how one subscription operation ended, for the GraphQL edge to tell the client:
// its last response carries the error (ErrLagged) instead of ending in silence.
type Outcome struct {
	mu   sync.Mutex
	err  error
	told bool
}

type outcomeKey struct{}

// WithOutcome gives a subscription operation's context an Outcome to record its end in.
func WithOutcome(ctx context.Context) (context.Context, *Outcome) {
	o := &Outcome{}
	return context.WithValue(ctx, outcomeKey{}, o), o
}

// Ended records why the subscription of the operation in ctx ended; nil err records nothing.
func Ended(ctx context.Context, err error) {
	if o, ok := ctx.Value(outcomeKey{}).(*Outcome); ok && err != nil {
		o.mu.Lock()
		o.err = err
		o.mu.Unlock()
	}
}

// Untold returns the error the subscription ended with, once: nil afterwards, and when it
// ended without one.
func (o *Outcome) Untold() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.told || o.err == nil {
		return nil
	}
	o.told = true
	return o.err
}
