package main

import (
	"fmt"
	"time"

	"github.com/quickphotos/quickphotos/domain"

	"github.com/quickphotos/quickphotos/feed"
)

// registerFeed registers the feed's flags, which `serve`, `stream` and `lambda` share.
func registerFeed(f *flags, cfg *feed.Config) {
	f.Duration(&cfg.Retention, "feed-retention", feed.DefaultRetention, "how long a photo stays in its followers' feeds (the table's TTL removes it then)")
	f.Int(&cfg.Backfill, "feed-backfill", feed.DefaultBackfill, "how many of a user's latest photos a new follower's feed receives")
	f.Int(&cfg.FanOutLimit, "feed-fanout-limit", feed.DefaultFanOutLimit, "the follower count from which a user's photos are merged into feeds when read instead of written into each follower's feed")
	f.Duration(&cfg.SyncRetention, "sync-retention", domain.DefaultSyncRetention, "how long the change logs of offline sync keep their entries; an older cursor is refused with CURSOR_EXPIRED (1h to 8760h)")
}

// The bounds of --sync-retention: an hour lets a test or a small deployment keep little; a
// year is past any phone's time offline.
const (
	minSyncRetention = time.Hour
	maxSyncRetention = 365 * 24 * time.Hour
)

// checkSyncRetention refuses a --sync-retention out of its bounds.
func checkSyncRetention(d time.Duration) error {
	if d < minSyncRetention || d > maxSyncRetention {
		return fmt.Errorf("--sync-retention %s: want %s to %s", d, minSyncRetention, maxSyncRetention)
	}
	return nil
}

// registerStreamPoll registers the flag of the stream readers' polling, which `serve` and
// `stream` share.
func registerStreamPoll(f *flags, poll *time.Duration) {
	f.Duration(poll, "stream-poll", 0, "how long a stream reader waits after finding no new record in a shard (0: 50ms on the embedded store, 250ms on DynamoDB Streams)")
}
