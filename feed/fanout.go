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
	DefaultRetention   = 30 * 24 * time.Hour
	DefaultBackfill    = 20
	DefaultFanOutLimit = 10000
)

// Config says how feeds are kept.
type Config struct {
	// Retention is how long an entry stays in a feed after it is written; DefaultRetention
	// when zero.
	Retention time.Duration
	// Backfill is how many of a user's most recent photos come into a new follower's feed;
	// DefaultBackfill when zero.
	Backfill int
	// FanOutLimit is the follower count from which a user is popular: their photos are not
	// written into their followers' feeds but merged in when a feed is read (one Query per
	// popular user followed, per page), and their followers' feeds mark that they follow them.
	// A user stops being popular below nine tenths of it, so that a count going up and down
	// around the limit does not rewrite every follower's feed each time. DefaultFanOutLimit
	// when zero.
	FanOutLimit int
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
	if cfg.FanOutLimit <= 0 {
		cfg.FanOutLimit = DefaultFanOutLimit
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
			popular, err := f.popular(ctx, e.Owner)
			if err != nil || popular {
				return err
			}
			return f.fanOut(ctx, e.Key(), f.store.AddToFeeds)
		case domain.Removed:
			return f.fanOut(ctx, e.Key(), func(ctx context.Context, entries []domain.FeedEntry, _ time.Time) error {
				return f.store.RemoveFromFeeds(ctx, entries)
			})
		}
	case domain.Friendship:
		switch c.Op {
		case domain.Added:
			popular, err := f.popular(ctx, e.Followed)
			if err != nil {
				return err
			}
			if popular {
				return f.store.FollowPopular(ctx, e.Followed, []string{e.Follower})
			}
			return f.backfill(ctx, e)
		case domain.Removed:
			if err := f.store.UnfollowPopular(ctx, e.Followed, []string{e.Follower}); err != nil {
				return err
			}
			return f.takeOut(ctx, e)
		}
	case domain.User:
		if old, ok := c.Old.(domain.User); ok && c.Op == domain.Updated {
			return f.popularityChanged(ctx, old, e)
		}
	}
	return nil
}

// popular reports whether username has FanOutLimit followers or more, reading the profile's
// counters now: what the stream delivers is past, and the count is what decides for the next
// photo.
func (f *FanOut) popular(ctx context.Context, username string) (bool, error) {
	users, err := f.store.GetUsers(ctx, []string{username}, []domain.ProfileField{})
	if err != nil {
		return false, fmt.Errorf("feed: is %s popular: %w", username, err)
	}
	return users[username].FollowerCount >= f.cfg.FanOutLimit, nil
}

// popularityChanged marks or unmarks every follower's feed when a user's follower count
// crosses the limit: up at FanOutLimit, down below nine tenths of it, when the followers' feeds
// also get the user's latest photos, which were not written there.
func (f *FanOut) popularityChanged(ctx context.Context, before, after domain.User) error {
	limit, floor := f.cfg.FanOutLimit, f.cfg.FanOutLimit*9/10
	switch {
	case before.FollowerCount < limit && after.FollowerCount >= limit:
		return f.store.EachFollowerPage(ctx, after.Username, func(followers []string) error {
			return f.store.FollowPopular(ctx, after.Username, followers)
		})
	case before.FollowerCount >= floor && after.FollowerCount < floor:
		return f.store.EachFollowerPage(ctx, after.Username, func(followers []string) error {
			if err := f.store.UnfollowPopular(ctx, after.Username, followers); err != nil {
				return err
			}
			for _, follower := range followers {
				if err := f.backfill(ctx, domain.Friendship{Follower: follower, Followed: after.Username}); err != nil {
					return err
				}
			}
			return nil
		})
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
