package domain

import "time"

// Offline sync. Each signed-in user has a change log: the changes to their sync scope (their
// profile, their photos, the photos in their feed, the reactions on their photos and those
// they made, their followers and followed, the profiles of the users they follow), in the
// order the log received them, each at a position no other entry of that log holds. A client
// keeps a cursor (a position in its log) and asks for what came after it.
//
// The logs are written after the fact from the table's change stream, as the feed is: a
// change reaches its readers' logs a moment after it commits. A popular user's photos and
// profile edits are not copied into every follower's log (as their photos are not copied
// into every feed) but kept once, in the user's public log, which each follower reads beside
// their own.

// SyncOp says what an entry of a change log tells of its object.
type SyncOp uint8

// The operations of a SyncEntry.
const (
	// Upserted: the object is in the scope; read it as it is now.
	Upserted SyncOp = iota + 1
	// Deleted: the object was deleted, or left the scope (a photo that left the feed on an
	// unfollow, the profile of a user no longer followed): a client drops it.
	Deleted
)

func (op SyncOp) String() string {
	switch op {
	case Upserted:
		return "upserted"
	case Deleted:
		return "deleted"
	}
	return "SyncOp(?)"
}

// SyncEntry is one entry of a change log.
type SyncEntry struct {
	// Object is the changed object's identity.
	Object NodeKey
	Op     SyncOp
	// Version is the object's version after the change (User.Version for a profile); 0 for
	// the objects no client edits (photos, reactions, friendships).
	Version int
	// At is when the log received the entry, by the clock of the process that wrote it.
	At time.Time
}

// SyncLog names one change log: a user's own, or a popular user's public log.
type SyncLog struct {
	User   string
	Public bool
}

// SyncHead is where a change log ends: the position of its last entry. Its changes, in the
// table's stream, are what wakes a client that is online (the changesAvailable subscription).
type SyncHead struct {
	Log SyncLog
	Seq uint64
}

// SyncAppend is entries to add to one log, all for one change of the table. Change names that
// change (its stream record's event id), so that the change, delivered again, adds nothing.
type SyncAppend struct {
	Log     SyncLog
	Change  string
	Entries []SyncEntry
}

// DefaultSyncRetention is how long a change log keeps its entries unless configured otherwise:
// a week, as the marks of client mutation ids, for a phone offline over a weekend abroad.
const DefaultSyncRetention = 7 * 24 * time.Hour

// SyncPosition is a position in one change log: the last entry read (0 before the first),
// and when that entry was written (or, for a position taken at the log's head, when it was
// taken), by which a position older than the retention is known to have lost entries.
type SyncPosition struct {
	Seq uint64
	At  time.Time
}

// SyncPage is a page of changes: the entries after a cursor, oldest first, and the cursor
// after each (a client keeps the last one it applied).
type SyncPage struct {
	Entries []SyncEntry
	// Cursors[i] is the cursor after Entries[i]; End is the cursor after the page (the last
	// entry's, or the request's own cursor when the page is empty).
	Cursors []string
	End     string
	// More is true when entries after the page were already in the logs.
	More bool
}
