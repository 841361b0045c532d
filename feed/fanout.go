package feed

import (
	"context"
	"fmt"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// Defaults of a zero Config field.
const (
	DefaultRetention = 30 * 24 * time.Hour
	DefaultBackfill  = 20
)

// Config says how feeds are kept.
type Config struct {
	// Retention is how long an entry stays in a feed after it is written; DefaultRetention
	// when zero.
	Retention time.Duration
	// Backfill is how many of a user's most recent photos come into a new follower's feed;
	// DefaultBackfill when zero.
	Backfill int
}

// FanOut turns the table's changes into feed writes. Its Handle is a stream.Handler.
type FanOut struct {
	store *dynamo.Store
	cfg   Config
	now   func() time.Time
}

// NewFanOut returns the fan-out of store's feeds.
func NewFanOut(store *dynamo.Store, cfg Config) *FanOut {
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultRetention
	}
	if cfg.Backfill <= 0 {
		cfg.Backfill = DefaultBackfill
	}
	return &FanOut{store: store, cfg: cfg, now: time.Now}
}

// Handle applies changes to the feeds, in order. It stops at the first failure; the stream
// consumer then hands the same changes again, and those already applied apply again to the
// same effect.
func (f *FanOut) Handle(ctx context.Context, changes []domain.Change) error {
	for _, c := range changes {
		if err := f.apply(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

func (f *FanOut) apply(ctx context.Context, c domain.Change) error {
	switch e := c.Entity().(type) {
	case domain.Photo:
		switch c.Op {
		case domain.Added:
			return f.fanOut(ctx, e.Key(), f.store.AddToFeeds)
		case domain.Removed:
			return f.fanOut(ctx, e.Key(), func(ctx context.Context, entries []domain.FeedEntry, _ time.Time) error {
				return f.store.RemoveFromFeeds(ctx, entries)
			})
		}
	case domain.Friendship:
		switch c.Op {
		case domain.Added:
			return f.backfill(ctx, e)
		case domain.Removed:
			return f.takeOut(ctx, e)
		}
	}
	return nil
}

// fanOut calls write with an entry of photo for every follower of its owner, a page of
// followers at a time.
func (f *FanOut) fanOut(ctx context.Context, photo domain.PhotoKey, write func(context.Context, []domain.FeedEntry, time.Time) error) error {
	expires := f.now().Add(f.cfg.Retention)
	return f.store.EachFollowerPage(ctx, photo.Owner, func(followers []string) error {
		entries := make([]domain.FeedEntry, len(followers))
		for i, reader := range followers {
			entries[i] = domain.FeedEntry{Reader: reader, Photo: photo}
		}
		if err := write(ctx, entries, expires); err != nil {
			return fmt.Errorf("feed: photo %s/%s: %w", photo.Owner, photo.Timestamp, err)
		}
		return nil
	})
}

// backfill brings the followed user's most recent photos into the new follower's feed.
func (f *FanOut) backfill(ctx context.Context, fr domain.Friendship) error {
	page, err := f.store.ListPhotos(ctx, fr.Followed, domain.PageRequest{First: f.cfg.Backfill})
	if err != nil {
		return fmt.Errorf("feed: %s follows %s: %w", fr.Follower, fr.Followed, err)
	}
	entries := make([]domain.FeedEntry, len(page.Items))
	for i, p := range page.Items {
		entries[i] = domain.FeedEntry{Reader: fr.Follower, Photo: p.Key()}
	}
	return f.store.AddToFeeds(ctx, entries, f.now().Add(f.cfg.Retention))
}

// takeOut removes the followed user's photos from the former follower's feed.
func (f *FanOut) takeOut(ctx context.Context, fr domain.Friendship) error {
	entries, err := f.store.FeedEntriesOf(ctx, fr.Follower, fr.Followed)
	if err != nil {
		return fmt.Errorf("feed: %s unfollows %s: %w", fr.Follower, fr.Followed, err)
	}
	return f.store.RemoveFromFeeds(ctx, entries)
}
