package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
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
