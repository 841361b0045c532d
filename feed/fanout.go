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
	// SyncRetention is how long the change logs keep their entries (domain.SyncEntry);
	// domain.DefaultSyncRetention when zero.
	SyncRetention time.Duration
}

// FanOut turns the table's changes into feed writes and change log entries (synclog.go). Its Handle is a stream.Handler.
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
	if cfg.SyncRetention <= 0 {
		cfg.SyncRetention = domain.DefaultSyncRetention
	}
	return &FanOut{store: store, cfg: cfg, now: time.Now}
}

// Handle applies changes to the feeds and the change logs, in order. It stops at the first
// failure; the stream consumer then hands the same changes again, and those already applied
// apply again to the same effect.
func (f *FanOut) Handle(ctx context.Context, changes []domain.Change) error {
	r := &run{FanOut: f}
	for _, c := range changes {
		if err := r.apply(ctx, c); err != nil {
			return err
		}
	}
	return r.flush(ctx)
}

// run is the handling of one batch of changes: the change log entries its changes make are
// written together, at the end of the batch or once many are waiting, so that a batch of
// uploads costs a transaction per 33 log entries rather than two per upload. The entries of
// each log stay in the order of the changes.
type run struct {
	*FanOut
	pending []domain.SyncAppend
	entries int
}

func (f *run) apply(ctx context.Context, c domain.Change) error {
	switch c.Entity().(type) {
	case domain.User, domain.Photo, domain.Reaction, domain.Friendship:
	default:
		return nil // the feeds' and the logs' own items
	}
	if c.ID == "" {
		return fmt.Errorf("feed: a change of %T without the id of its stream record", c.Entity())
	}
	b := newSyncBatch(c.ID)
	syncOwn(b, c)
	if err := f.append(ctx, b); err != nil {
		return err
	}
	switch e := c.Entity().(type) {
	case domain.Photo:
		if c.Op == domain.Updated {
			return nil
		}
		owner, err := f.user(ctx, e.Owner)
		if err != nil {
			return err
		}
		if c.Op == domain.Added && f.isPopular(owner) {
			return f.append(ctx, publicBatch(c, e.Owner))
		}
		if c.Op == domain.Removed {
			if f.isPopular(owner) {
				if err := f.append(ctx, publicBatch(c, e.Owner)); err != nil {
					return err
				}
			}
			return f.fanOut(ctx, c, e.Key(), func(ctx context.Context, entries []domain.FeedEntry, _ time.Time) error {
				return f.store.RemoveFromFeeds(ctx, entries)
			})
		}
		return f.fanOut(ctx, c, e.Key(), f.store.AddToFeeds)
	case domain.Friendship:
		switch c.Op {
		case domain.Added:
			return f.follow(ctx, c, e)
		case domain.Removed:
			return f.unfollow(ctx, c, e)
		}
	case domain.User:
		if err := f.profileEdited(ctx, c, e); err != nil {
			return err
		}
		if old, ok := c.Old.(domain.User); ok && c.Op == domain.Updated {
			return f.popularityChanged(ctx, c, old, e)
		}
	}
	return nil
}

// publicBatch is change c for the public log of owner, a popular user.
func publicBatch(c domain.Change, owner string) *syncBatch {
	b := newSyncBatch(c.ID)
	b.add(public(owner), entryOf(c))
	return b
}

// user reads username's profile now: what the stream delivers is past, and the count is what
// decides for the next photo. A user deleted since reads as a profile with no followers.
func (f *FanOut) user(ctx context.Context, username string) (domain.User, error) {
	users, err := f.store.GetUsers(ctx, []string{username}, []domain.ProfileField{})
	if err != nil {
		return domain.User{}, fmt.Errorf("feed: reading %s: %w", username, err)
	}
	if u, ok := users[username]; ok {
		return u, nil
	}
	return domain.User{Username: username}, nil
}

// isPopular reports whether u has FanOutLimit followers or more.
func (f *FanOut) isPopular(u domain.User) bool { return u.FollowerCount >= f.cfg.FanOutLimit }

// follow brings the followed user's latest photos into the new follower's feed (a popular
// user's are merged when the feed is read: a mark says so), and their profile and those
// photos into the follower's change log.
func (f *run) follow(ctx context.Context, c domain.Change, fr domain.Friendship) error {
	followed, err := f.user(ctx, fr.Followed)
	if err != nil {
		return err
	}
	if f.isPopular(followed) {
		// The public log's head is read before the photos: a photo logged after it is read
		// from the public log, one logged before is among the photos read here.
		head, err := f.store.SyncHead(ctx, public(fr.Followed))
		if err != nil {
			return fmt.Errorf("feed: %s follows %s: %w", fr.Follower, fr.Followed, err)
		}
		if err := f.store.FollowPopular(ctx, fr.Followed, []string{fr.Follower}, head); err != nil {
			return err
		}
	}
	photos, err := f.latestPhotos(ctx, fr.Followed)
	if err != nil {
		return err
	}
	if !f.isPopular(followed) {
		if err := f.addToFeed(ctx, fr.Follower, photos); err != nil {
			return err
		}
	}
	b := newSyncBatch(c.ID + "#followed")
	syncFollowed(b, fr.Follower, followed, photos)
	return f.append(ctx, b)
}

// unfollow takes the followed user's photos out of the former follower's feed, and the
// followed profile out of their change log. The photos leave the follower's scope with the
// follow's own deletion, which the protocol gives that meaning (docs/offline-sync.md): listing
// each would cost an entry per photo, and could not list those a popular user's feed merges.
func (f *run) unfollow(ctx context.Context, c domain.Change, fr domain.Friendship) error {
	if err := f.store.UnfollowPopular(ctx, fr.Followed, []string{fr.Follower}); err != nil {
		return err
	}
	entries, err := f.store.FeedEntriesOf(ctx, fr.Follower, fr.Followed)
	if err != nil {
		return fmt.Errorf("feed: %s unfollows %s: %w", fr.Follower, fr.Followed, err)
	}
	b := newSyncBatch(c.ID + "#followed")
	b.add(own(fr.Follower), deleted(domain.UserKey{Username: fr.Followed}, 0)) // left the scope
	if err := f.append(ctx, b); err != nil {
		return err
	}
	return f.store.RemoveFromFeeds(ctx, entries)
}

// profileEdited sends a profile's edit to its user's followers' logs, or to the public log of
// a popular user.
func (f *run) profileEdited(ctx context.Context, c domain.Change, u domain.User) error {
	if !profileEdited(c) {
		return nil
	}
	if f.isPopular(u) {
		return f.append(ctx, publicBatch(c, u.Username))
	}
	return f.store.EachFollowerPage(ctx, u.Username, func(followers []string) error {
		b := newSyncBatch(c.ID)
		syncFollowers(b, c, followers)
		return f.append(ctx, b)
	})
}

// popularityChanged marks or unmarks every follower's feed when a user's follower count
// crosses the limit: up at FanOutLimit, down below nine tenths of it, when the followers' feeds
// also get the user's latest photos, which were not written there, and their logs the profile
// and those photos. A mark written here reads the public log from its start: the photos logged
// there between the count's change and the mark are not lost.
func (f *run) popularityChanged(ctx context.Context, c domain.Change, before, after domain.User) error {
	limit, floor := f.cfg.FanOutLimit, f.cfg.FanOutLimit*9/10
	switch {
	case before.FollowerCount < limit && after.FollowerCount >= limit:
		return f.store.EachFollowerPage(ctx, after.Username, func(followers []string) error {
			return f.store.FollowPopular(ctx, after.Username, followers, 0)
		})
	case before.FollowerCount >= floor && after.FollowerCount < floor:
		photos, err := f.latestPhotos(ctx, after.Username)
		if err != nil {
			return err
		}
		return f.store.EachFollowerPage(ctx, after.Username, func(followers []string) error {
			if err := f.store.UnfollowPopular(ctx, after.Username, followers); err != nil {
				return err
			}
			b := newSyncBatch(c.ID + "#unpopular")
			for _, follower := range followers {
				if err := f.addToFeed(ctx, follower, photos); err != nil {
					return err
				}
				syncFollowed(b, follower, after, photos)
			}
			return f.append(ctx, b)
		})
	}
	return nil
}

// fanOut calls write with an entry of photo for every follower of its owner, a page of
// followers at a time, and adds change c to the page's change logs.
func (f *run) fanOut(ctx context.Context, c domain.Change, photo domain.PhotoKey, write func(context.Context, []domain.FeedEntry, time.Time) error) error {
	expires := f.now().Add(f.cfg.Retention)
	return f.store.EachFollowerPage(ctx, photo.Owner, func(followers []string) error {
		entries := make([]domain.FeedEntry, len(followers))
		for i, reader := range followers {
			entries[i] = domain.FeedEntry{Reader: reader, Photo: photo}
		}
		if err := write(ctx, entries, expires); err != nil {
			return fmt.Errorf("feed: photo %s/%s: %w", photo.Owner, photo.Timestamp, err)
		}
		b := newSyncBatch(c.ID)
		syncFollowers(b, c, followers)
		return f.append(ctx, b)
	})
}

// latestPhotos are owner's Backfill most recent photos.
func (f *FanOut) latestPhotos(ctx context.Context, owner string) ([]domain.PhotoKey, error) {
	page, err := f.store.ListPhotos(ctx, owner, domain.PageRequest{First: f.cfg.Backfill})
	if err != nil {
		return nil, fmt.Errorf("feed: the latest photos of %s: %w", owner, err)
	}
	photos := make([]domain.PhotoKey, len(page.Items))
	for i, p := range page.Items {
		photos[i] = p.Key()
	}
	return photos, nil
}

// addToFeed brings photos into reader's feed.
func (f *FanOut) addToFeed(ctx context.Context, reader string, photos []domain.PhotoKey) error {
	entries := make([]domain.FeedEntry, len(photos))
	for i, p := range photos {
		entries[i] = domain.FeedEntry{Reader: reader, Photo: p}
	}
	return f.store.AddToFeeds(ctx, entries, f.now().Add(f.cfg.Retention))
}
