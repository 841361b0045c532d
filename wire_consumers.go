package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/stream"
)

// relayConsumerName is the name under which the relay's publisher keeps its checkpoints.
const relayConsumerName = "relay"

// feedConsumerName is the name under which the feed's stream consumer keeps its checkpoints:
// one name for `serve` and `stream`, so either takes over where the other stopped.
const feedConsumerName = "feed"

// feedConsumer is the feed's stream consumer over store; an error at once when the table has
// no stream.
func feedConsumer(ctx context.Context, opened *openedStore, store *dynamo.Store, cfg feed.Config, poll time.Duration, log *slog.Logger) (*stream.Consumer, error) {
	if _, err := store.StreamARN(ctx); err != nil {
		return nil, fmt.Errorf("the feed reads the table's stream: %w", err)
	}
	return &stream.Consumer{
		Name:    feedConsumerName,
		Streams: opened.streams,
		Store:   store,
		Handle:  feed.NewFanOut(store, cfg).Handle,
		Poll:    opened.pollOf(poll),
		Log:     log,
	}, nil
}

// mediaConsumer is the stream consumer that deletes the images of deleted photos.
func mediaConsumer(ctx context.Context, opened *openedStore, store *dynamo.Store, svc *media.Service, poll time.Duration, log *slog.Logger) (*stream.Consumer, error) {
	if _, err := store.StreamARN(ctx); err != nil {
		return nil, fmt.Errorf("deleting the images of deleted photos reads the table's stream: %w", err)
	}
	return &stream.Consumer{
		Name:    media.ConsumerName,
		Streams: opened.streams,
		Store:   store,
		Handle:  svc.Forget,
		Poll:    opened.pollOf(poll),
		Log:     log,
	}, nil
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

// liveConsumer is the stream consumer of this process's subscriptions: unnamed, so it keeps no
// checkpoint and starts at the newest change, and every instance delivers every change to its
// own subscribers.
func liveConsumer(ctx context.Context, opened *openedStore, store *dynamo.Store, hub *live.Hub, poll time.Duration, log *slog.Logger) (*stream.Consumer, error) {
	if _, err := store.StreamARN(ctx); err != nil {
		return nil, fmt.Errorf("subscriptions read the table's stream: %w", err)
	}
	return &stream.Consumer{Streams: opened.streams, Store: store, Handle: hub.Handle, Poll: opened.pollOf(poll), Log: log}, nil
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
