package feed

import (
	"context"
	"fmt"
	"reflect"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// The change logs of offline sync (domain.SyncEntry) are written here, by the consumer that
// fills the feeds, from the same changes and the same pages of followers: a table's stream
// allows few readers, and a photo's fan-out reads its owner's followers once for both.
//
// Who hears of what (the sync scope, docs/offline-sync.md):
//
//	a profile created, edited, counted, deleted   its user; an edit also every follower
//	a photo added or deleted                       its owner and every follower
//	a photo's counters                             its owner
//	a reaction added or removed                    the reacting user and the photo's owner
//	a follow                                       both users; the follower also gets the followed
//	                                               profile and latest photos (the feed's backfill)
//	an unfollow                                    both users; the follower also loses the followed
//	                                               profile (and, by the follow's deletion, the
//	                                               followed user's photos in the feed)
//
// A popular user's edits and photos go to their public log instead of every follower's.

// syncBatch gathers the entries one change adds to logs, one append per log.
type syncBatch struct {
	change  string
	appends []domain.SyncAppend
	at      map[domain.SyncLog]int
}

func newSyncBatch(change string) *syncBatch {
	return &syncBatch{change: change, at: map[domain.SyncLog]int{}}
}

func (b *syncBatch) add(l domain.SyncLog, entries ...domain.SyncEntry) {
	i, ok := b.at[l]
	if !ok {
		i = len(b.appends)
		b.at[l] = i
		b.appends = append(b.appends, domain.SyncAppend{Log: l, Change: b.change})
	}
	b.appends[i].Entries = append(b.appends[i].Entries, entries...)
}

// own and public are a user's logs.
func own(u string) domain.SyncLog    { return domain.SyncLog{User: u} }
func public(u string) domain.SyncLog { return domain.SyncLog{User: u, Public: true} }

func upsert(k domain.NodeKey, version int) domain.SyncEntry {
	return domain.SyncEntry{Object: k, Op: domain.Upserted, Version: version}
}
func deleted(k domain.NodeKey, version int) domain.SyncEntry {
	return domain.SyncEntry{Object: k, Op: domain.Deleted, Version: version}
}

// entryOf is the entry of change c for its entity.
func entryOf(c domain.Change) domain.SyncEntry {
	n := c.Entity().(domain.Node)
	version := 0
	if u, ok := c.Entity().(domain.User); ok {
		version = u.Version
	}
	if c.Op == domain.Removed {
		return deleted(n.NodeKey(), version)
	}
	return upsert(n.NodeKey(), version)
}

// profileEdited reports whether a profile's own fields changed, not only its counters: an
// edit reaches the followers' logs, a count does not. The fields are compared, not only the
// version, so that a writer that does not move the version (a plain DynamoDB client) is heard.
func profileEdited(c domain.Change) bool {
	old, _ := c.Old.(domain.User)
	updated, _ := c.New.(domain.User)
	return c.Op == domain.Updated && (old.Version != updated.Version || !reflect.DeepEqual(old.Profile, updated.Profile))
}

// append queues a change's batch for the run's next flush, in appends of at most
// dynamo.MaxSyncAppend entries: a larger one (a follow's backfill, with --feed-backfill above
// 99) is split under derived change names, each dropped alike when delivered again.
func (f *run) append(ctx context.Context, b *syncBatch) error {
	for _, a := range b.appends {
		for part := 0; len(a.Entries) > 0; part++ {
			n := min(len(a.Entries), dynamo.MaxSyncAppend)
			change := a.Change
			if part > 0 {
				change = fmt.Sprintf("%s#%d", a.Change, part)
			}
			f.pending = append(f.pending, domain.SyncAppend{Log: a.Log, Change: change, Entries: a.Entries[:n]})
			f.entries += n
			a.Entries = a.Entries[n:]
		}
	}
	if f.entries >= maxPendingEntries {
		return f.flush(ctx)
	}
	return nil
}

// maxPendingEntries bounds the log entries a run holds before it writes them.
const maxPendingEntries = 2000

// flush writes the queued appends.
func (f *run) flush(ctx context.Context) error {
	if len(f.pending) == 0 {
		return nil
	}
	if err := f.store.AppendSync(ctx, f.pending, f.cfg.SyncRetention); err != nil {
		return fmt.Errorf("feed: change logs: %w", err)
	}
	f.pending, f.entries = nil, 0
	return nil
}

// syncOwn adds, for change c, the entries of the users whose own part of the scope it touches
// (all but the followers of a photo's owner or an edited profile, whom fanOut and
// profileEdited reach with syncFollowers).
func syncOwn(b *syncBatch, c domain.Change) {
	e := entryOf(c)
	switch v := c.Entity().(type) {
	case domain.User:
		b.add(own(v.Username), e)
	case domain.Photo:
		b.add(own(v.Owner), e)
	case domain.Reaction:
		b.add(own(v.Username), e)
		if v.Photo.Owner != v.Username {
			b.add(own(v.Photo.Owner), e)
		}
	case domain.Friendship:
		b.add(own(v.Followed), e)
		b.add(own(v.Follower), e)
	}
}

// syncFollowers adds c's entry to each follower's log.
func syncFollowers(b *syncBatch, c domain.Change, followers []string) {
	e := entryOf(c)
	for _, r := range followers {
		b.add(own(r), e)
	}
}

// syncFollowed adds, to a new follower's log, the followed profile and its latest photos (the
// photos the feed's backfill brings).
func syncFollowed(b *syncBatch, follower string, followed domain.User, photos []domain.PhotoKey) {
	entries := []domain.SyncEntry{upsert(followed.NodeKey(), followed.Version)}
	for _, p := range photos {
		entries = append(entries, upsert(p, 0))
	}
	b.add(own(follower), entries...)
}
