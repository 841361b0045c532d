package main

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/stream"
)

// consumer is a background worker fed by the table's change stream (the feed's fan-out, the
// subscriptions' hub, the relay's publisher, …): what a command lists, one line each, for
// backend.consumers to start over its store, with the stream's polling, logging and lag
// metric every consumer shares.
type consumer struct {
	// name keeps the consumer's checkpoints in the table, so that its next run, in this
	// process or another, resumes where it stopped; "" keeps none, and it starts at the
	// stream's newest change.
	name string
	// lag labels its quickphotos_stream_lag_seconds; its name when "".
	lag string
	// reads begins its error when the table has no stream: "the feed reads".
	reads string
	// orElse, when set, ends that error: how to do without it.
	orElse string
	handle stream.Handler
	// ready and caughtUp, when set, are its stream.Consumer's Ready and CaughtUp.
	ready, caughtUp func()
}

// The names under which consumers keep their checkpoints.
const (
	// feedConsumerName is one name for `serve` and `stream`, so either takes over where the
	// other stopped.
	feedConsumerName = "feed"
	// relayConsumerName is the relay's publisher's (`stream --publish-changes`).
	relayConsumerName = "relay"
)

// consumers makes the stream consumers of cs over b's store, in order; an error at once when
// the table has no stream, in the words of the first consumer (one look at the table serves
// them all).
func (b *backend) consumers(ctx context.Context, cs ...consumer) ([]*stream.Consumer, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	if _, err := b.store.StreamARN(ctx); err != nil {
		err = fmt.Errorf("%s the table's stream: %w", cs[0].reads, err)
		if cs[0].orElse != "" {
			err = fmt.Errorf("%w (%s)", err, cs[0].orElse)
		}
		return nil, err
	}
	out := make([]*stream.Consumer, 0, len(cs))
	for _, c := range cs {
		sc := &stream.Consumer{
			Name: c.name, Streams: b.opened.streams, Store: b.store, Handle: c.handle,
			Poll: b.opened.pollOf(b.poll), Log: b.log, Ready: c.ready, CaughtUp: c.caughtUp,
		}
		if b.tel != nil {
			sc.Observe = b.tel.StreamLag(cmp.Or(c.lag, c.name))
		}
		out = append(out, sc)
	}
	return out, nil
}

// handleBoth handles each batch with first, then second. Both must be idempotent, as every
// stream.Handler is: a failure of either delivers the batch to both again.
func handleBoth(first, second stream.Handler) stream.Handler {
	return func(ctx context.Context, changes []domain.Change) error {
		if err := first(ctx, changes); err != nil {
			return err
		}
		return second(ctx, changes)
	}
}

// embeddedStreamPoll is the stream readers' wait on the embedded store, whose GetRecords is an
// in-process call with no rate limit: a change reaches a feed, then a subscriber, in two
// stream hops, each up to one wait. DynamoDB Streams allows about five GetRecords a second per
// shard, shared by its readers: there stream.DefaultPoll.
const embeddedStreamPoll = 50 * time.Millisecond

// pollOf is the wait --stream-poll asks for on opened: by the store when 0.
func (s *openedStore) pollOf(flag time.Duration) time.Duration {
	switch {
	case flag > 0:
		return flag
	case s.engine != nil:
		return embeddedStreamPoll
	default:
		return stream.DefaultPoll
	}
}
