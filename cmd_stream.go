package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/relay"
)

// streamConfig is the configuration of `quickphotos stream`.
type streamConfig struct {
	store   storeConfig
	publish string
	feed    feed.Config
	poll    time.Duration
	log     logConfig
	media   mediaConfig
}

func (c *streamConfig) register(f *flags) {
	c.store.register(f)
	registerFeed(f, &c.feed)
	registerStreamPoll(f, &c.poll)
	c.log.register(f)
	c.media.registerDeleting(f)
	f.String(&c.publish, "publish-changes", "", "also publish every change of the table to this Redis (redis://host:6379/0), for `serve --changes-from`: a second reader of the stream, beside the feed's")
}

// runStream runs `quickphotos stream`: the feed's stream consumer alone, which also deletes the
// images of deleted photos, for deployments that scale it apart from `serve --no-feed`. It
// stops on SIGTERM or SIGINT, after the batch in hand; its checkpoints let the next run, here
// or elsewhere, go on from there. It fails when a consumer does.
func runStream(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg streamConfig
	f := newFlags("stream", stderr)
	cfg.register(f)
	if err := f.parse(args); err != nil {
		return err
	}
	if err := checkSyncRetention(cfg.feed.SyncRetention); err != nil {
		return err
	}
	log, err := cfg.log.logger(stderr)
	if err != nil {
		return err
	}
	var lc lifecycle
	defer lc.close()
	b, err := openBackend(ctx, &lc, opening{store: cfg.store, media: &cfg.media, prepareTable: true, poll: cfg.poll, log: log})
	if err != nil {
		return err
	}
	cs, err := cfg.consumers(&lc, b)
	if err != nil {
		return err
	}
	consumers, err := b.consumers(ctx, cs...)
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	for _, c := range consumers {
		g.Go(func() error { return c.Run(gctx) })
	}
	fmt.Fprintf(stdout, "quickphotos: deleting the images of deleted photos from the photo files: %s\n", b.media.says)
	if cfg.publish != "" {
		fmt.Fprintf(stdout, "quickphotos: publishing the changes of table %s to %s\n", cfg.store.table, relay.Channel(cfg.store.table))
	}
	fmt.Fprintf(stdout, "quickphotos: filling feeds from the stream of table %s (store: %s, %s)\n", cfg.store.table, cfg.store.kind, cfg.store.describe())
	if err := g.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fmt.Fprintln(stdout, "quickphotos: stopped")
	return nil
}

// consumers are the workers `stream` feeds from the table's change stream, each a reader of
// every shard: DynamoDB Streams serves about two, so a new one is one more reader to count in
// docs/feed-and-live-updates.md, not just one more line here.
func (c *streamConfig) consumers(lc *lifecycle, b *backend) ([]consumer, error) {
	// The images of deleted photos go with the feed's reading of the stream, as in serve and
	// the Lambda fan-out: `serve --no-feed` reads none for them, so this is the one place they
	// go in the deployments that run `stream`.
	cs := []consumer{{name: feedConsumerName, reads: "the feed reads", handle: handleBoth(feed.NewFanOut(b.store, c.feed).Handle, b.images().Forget)}}
	if c.publish != "" {
		// The relay reads on its own rather than with the feed: sharing the feed's reader would
		// publish a batch only once its fan-out had written every follower's feed, and a
		// fan-out retrying a failed batch with backoff would hold every instance's
		// subscriptions with it. Two readers are what a shard serves.
		client, err := relay.Open(c.publish)
		if err != nil {
			return nil, fmt.Errorf("--publish-changes: %w", err)
		}
		lc.onClose(func() { _ = client.Close() })
		cs = append(cs, consumer{name: relayConsumerName, reads: "the relay reads", handle: relay.NewPublisher(client, relay.Channel(c.store.table)).Handle})
	}
	return cs, nil
}
