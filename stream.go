package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/relay"
	"github.com/quickphotos/quickphotos/stream"
)

// streamConfig is the configuration of `quickphotos stream`.
type streamConfig struct {
	store   storeConfig
	publish string
	feed    feed.Config
	poll    time.Duration
	log     logConfig
}

// runStream runs `quickphotos stream`: the feed's stream consumer alone, for deployments that
// scale it apart from `serve --no-feed`. It stops on SIGTERM or SIGINT, after the batch in
// hand; its checkpoints let the next run, here or elsewhere, go on from there.
func runStream(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg streamConfig
	f := newFlags("stream", stderr)
	cfg.store.register(f)
	registerFeed(f, &cfg.feed)
	registerStreamPoll(f, &cfg.poll)
	cfg.log.register(f)
	f.String(&cfg.publish, "publish-changes", "", "also publish every change of the table to this Redis (redis://host:6379/0), for `serve --changes-from`")
	if err := f.parse(args); err != nil {
		return err
	}
	log, err := cfg.log.logger(stderr)
	if err != nil {
		return err
	}
	cfg.store.log = log
	opened, err := cfg.store.open(ctx)
	if err != nil {
		return err
	}
	defer opened.Close()
	store := dynamo.New(opened.client, cfg.store.table)
	if err := cfg.store.prepareTable(ctx, store); err != nil {
		return err
	}
	consumer, err := feedConsumer(ctx, opened, store, cfg.feed, cfg.poll, log)
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return consumer.Run(gctx) })
	if cfg.publish != "" {
		client, err := relay.Open(cfg.publish)
		if err != nil {
			return fmt.Errorf("--publish-changes: %w", err)
		}
		defer client.Close()
		publisher := &stream.Consumer{
			Name:    relayConsumerName,
			Streams: opened.streams,
			Store:   store,
			Handle:  relay.NewPublisher(client, relay.Channel(cfg.store.table)).Handle,
			Poll:    opened.pollOf(cfg.poll),
			Log:     log,
		}
		g.Go(func() error { return publisher.Run(gctx) })
		fmt.Fprintf(stdout, "quickphotos: publishing the changes of table %s to %s\n", cfg.store.table, relay.Channel(cfg.store.table))
	}
	fmt.Fprintf(stdout, "quickphotos: filling feeds from the stream of table %s (store: %s, %s)\n", cfg.store.table, cfg.store.kind, cfg.store.describe())
	if err := g.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fmt.Fprintln(stdout, "quickphotos: stopped")
	return nil
}

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
