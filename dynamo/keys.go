package dynamo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/quickphotos/quickphotos/domain"
)

// Key construction for the single-table design of docs/design.md ("The table"). This file is
// the only place that builds or parses PK and SK strings.
//
// String sort keys compare by UTF-8 bytes and '#' < '$' < letters, which the ranges below rely on:
//
//	PK USER#u          SK #FRIEND#f … #METADATA#u … PHOTO#u#t     followers, profile, photos
//	PK REACTION#r#type SK PHOTO#o#t                               a reaction
//	InvertedIndex: SK PHOTO#o#t  PK REACTION#… … USER#o           a photo's reactions, then the photo
//	InvertedIndex: SK #FRIEND#f  PK USER#u …                      whom f follows
//	PK DELETION#o#t    SK #DELETION                               a photo deletion under way
//	InvertedIndex: SK #DELETION  PK DELETION#…                    every deletion under way
//	PK FEED#r          SK t#o                                     r's feed, newest first
//	PK FEED#r          SK ~POPULAR#u                              r follows u, whose photos are not fanned out
//	PK STREAM#c        SK SHARD#id                                stream consumer c's checkpoints
//	PK UPLOAD#id       SK #UPLOAD                                 a photo upload (staging record)
//	InvertedIndex: SK #UPLOAD  PK UPLOAD#…                        every upload, for the sweeper
//	PK MUTATION#u      SK #MUTATION#h                             u's mark of a client mutation id (h: its hash)
//	PK SYNC#u          SK #HEAD#u … #SEEN#h … E#n#u               u's change log: its head, changes already in it, entries up to n
//	PK SYNC#~u         SK #HEAD#~u … #SEEN#h … E#n#~u             popular u's public log, the same way
//	PK SYNC#           SK #KEY                                    the key that signs change log cursors
const (
	prefixUser     = "USER#"
	prefixMetadata = "#METADATA#"
	prefixPhoto    = "PHOTO#"
	prefixReaction = "REACTION#"
	prefixFriend   = "#FRIEND#"
	prefixDeletion = "DELETION#"
	deletionSK     = "#DELETION"
	prefixFeed     = "FEED#"
	prefixPopular  = "~POPULAR#" // '~' sorts above every timestamp: first in a descending Query
	prefixStream   = "STREAM#"
	prefixShard    = "SHARD#"
	prefixUpload   = "UPLOAD#"
	uploadSK       = "#UPLOAD"
	prefixMark     = "MUTATION#"
	prefixMarkSK   = "#MUTATION#"
	prefixSync     = "SYNC#"
	publicSync     = "~" // before the username of a public log: no username holds '~'
	prefixSyncHead = "#HEAD#"
	prefixSyncSeen = "#SEEN#"
	prefixSyncLog  = "E#"
	syncKeySK      = "#KEY"
)

// Attribute and index names of the table.
const (
	attrPK            = "PK"
	attrSK            = "SK"
	InvertedIndexName = "InvertedIndex"
)

func userPK(username string) string     { return prefixUser + username }
func metadataSK(username string) string { return prefixMetadata + username }
func photoSK(k domain.PhotoKey) string  { return prefixPhoto + k.Owner + "#" + k.Timestamp }
func photoPrefix(owner string) string   { return prefixPhoto + owner + "#" }
func friendSK(follower string) string   { return prefixFriend + follower }
func reactionPK(username string, t domain.ReactionType) string {
	return prefixReaction + username + "#" + storedReactionTypes[t]
}

// Range bounds. "PHOTO$" is just past every "PHOTO#…" key, and "USER$" past every "USER#…" key.
// In a feed partition, every popular mark begins with popularMarks and every entry sorts below
// it; on InvertedIndex, the feed entries of a photo are the keys that begin with feedPartitions.
const (
	friendsLow     = prefixFriend
	photosHigh     = "PHOTO$"
	reactionsLow   = prefixReaction
	photoItemHigh  = "USER$"
	popularMarks   = prefixPopular
	feedPartitions = prefixFeed
)

// Key is a table item's primary key.
type Key struct {
	PK, SK string
}

// UserKey is the key of a user's profile item.
func UserKey(username string) Key {
	return Key{PK: userPK(username), SK: metadataSK(username)}
}

// PhotoKey is the key of a photo item.
func PhotoKey(k domain.PhotoKey) Key {
	return Key{PK: userPK(k.Owner), SK: photoSK(k)}
}

// ReactionKey is the key of a reaction item.
func ReactionKey(k domain.ReactionKey) Key {
	return Key{PK: reactionPK(k.Username, k.Type), SK: photoSK(k.Photo)}
}

// NodeKey is the key of the item of the entity k identifies (see domain.NodeKey).
func NodeKey(k domain.NodeKey) Key {
	switch k := k.(type) {
	case domain.UserKey:
		return UserKey(k.Username)
	case domain.PhotoKey:
		return PhotoKey(k)
	case domain.ReactionKey:
		return ReactionKey(k)
	case domain.FriendshipKey:
		return friendshipKey(k)
	}
	panic(fmt.Sprintf("dynamo: no item key for %T", k))
}

// friendshipKey is the key of a friendship item: it lives in the followed user's partition.
func friendshipKey(k domain.FriendshipKey) Key {
	return Key{PK: userPK(k.Followed), SK: friendSK(k.Follower)}
}

// photoDeletionKey is the key of the record of a photo deletion under way. Its constant sort
// key gathers every such record in one InvertedIndex partition, so that deletions a crash
// interrupted can be found without a Scan.
func photoDeletionKey(k domain.PhotoKey) Key {
	return Key{PK: prefixDeletion + k.Owner + "#" + k.Timestamp, SK: deletionSK}
}

// uploadKey is the key of an upload's staging record. Its constant sort key gathers every
// upload in one InvertedIndex partition, where the sweeper finds the expired ones without a
// Scan.
func uploadKey(id string) Key {
	return Key{PK: prefixUpload + id, SK: uploadSK}
}

// mutationMarkKey is the key of the mark caller's mutation with client mutation id left. The
// id is any printable text, so the sort key holds a hash: no id can spell another item's
// key. The hash is of caller and id (apart by a NUL, which neither holds), so the marks spread
// over InvertedIndex's partitions (one per hash) rather than sharing one, even when every
// caller counts its ids from "0" or sends the same constant. No access pattern reads
// MUTATION# partitions or #MUTATION# index partitions.
func mutationMarkKey(caller, id string) Key {
	h := sha256.Sum256([]byte(caller + "\x00" + id))
	return Key{PK: prefixMark + caller, SK: prefixMarkSK + hex.EncodeToString(h[:16])}
}

// syncLogName is how a change log is spelled in its keys: u, or ~u for u's public log.
func syncLogName(l domain.SyncLog) string {
	if l.Public {
		return publicSync + l.User
	}
	return l.User
}

// syncLogFromName reads syncLogName's spelling back.
func syncLogFromName(name string) (domain.SyncLog, bool) {
	if u, ok := strings.CutPrefix(name, publicSync); ok {
		return domain.SyncLog{User: u, Public: true}, u != ""
	}
	return domain.SyncLog{User: name}, name != ""
}

func syncPK(l domain.SyncLog) string { return prefixSync + syncLogName(l) }

// syncHeadKey is the key of a change log's head, which holds the position of its last entry.
// Every append moves it in the same transaction as the entries it writes, conditional on the
// position it read: appends to one log are serialised, and an entry's position is never
// reused nor left out. The log's name in the sort key spreads the heads over InvertedIndex's
// partitions.
func syncHeadKey(l domain.SyncLog) Key {
	return Key{PK: syncPK(l), SK: prefixSyncHead + syncLogName(l)}
}

// syncEntryKey is the key of the item of a change log whose last entry is at position seq
// (an item holds the entries of one append, up to maxItemEntries). The position is written in
// 20 digits, so that the items sort by it; the log's name after it keeps InvertedIndex's
// partitions one item each.
func syncEntryKey(l domain.SyncLog, seq uint64) Key {
	return Key{PK: syncPK(l), SK: fmt.Sprintf("%s%020d#%s", prefixSyncLog, seq, syncLogName(l))}
}

// syncEntryRange is the sort-key range of a log's entry items after position after whose
// last entry is at through or before (0: to the log's end).
func syncEntryRange(l domain.SyncLog, after, through uint64) (low, high string) {
	low, high = syncEntryKey(l, after+1).SK, prefixSyncLog+"~"
	if through > 0 {
		high = syncEntryKey(l, through).SK
	}
	return low, high
}

// syncSeqFromSK returns n from "E#n#…".
func syncSeqFromSK(sk string) (uint64, bool) {
	rest, ok := cutPrefix(sk, prefixSyncLog)
	digits, _, cut := strings.Cut(rest, "#")
	if !ok || !cut || len(digits) != 20 {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	return n, err == nil && n > 0
}

// syncSeenKey is the key of the record that change has added its entries to log l: an
// append writes it with its entries, on condition that it is not there, so that a change
// delivered again (a consumer restarted before its checkpoint, a Lambda retry) adds nothing.
// The change's id is the stream's, any text: the key holds its hash.
func syncSeenKey(l domain.SyncLog, change string) Key {
	h := sha256.Sum256([]byte(syncLogName(l) + "\x00" + change))
	return Key{PK: syncPK(l), SK: prefixSyncSeen + hex.EncodeToString(h[:16])}
}

// syncSigningKey is the key of the item that holds the key cursors of change logs are signed
// with: one per table, so that every server of the table signs and checks alike.
var syncSigningKey = Key{PK: prefixSync, SK: syncKeySK}

// syncLogFromPK returns the log of "SYNC#…".
func syncLogFromPK(pk string) (domain.SyncLog, bool) {
	name, ok := cutPrefix(pk, prefixSync)
	if !ok {
		return domain.SyncLog{}, false
	}
	return syncLogFromName(name)
}

// uploadIDFromPK returns id from "UPLOAD#id".
func uploadIDFromPK(pk string) (string, bool) { return cutPrefix(pk, prefixUpload) }

// feedEntryKey is the key of a feed entry: in the reader's feed partition, sorted by the
// photo's timestamp then its owner, so that a descending Query reads the feed newest first.
func feedEntryKey(e domain.FeedEntry) Key {
	return Key{PK: feedPK(e.Reader), SK: feedSK(e.Photo)}
}

func feedPK(reader string) string     { return prefixFeed + reader }
func feedSK(k domain.PhotoKey) string { return k.Timestamp + "#" + k.Owner }

// feedEntryFromKey returns the entry of "FEED#r" / "t#o". Timestamps never contain '#', so
// the first '#' of the sort key separates timestamp from owner.
func feedEntryFromKey(k Key) (domain.FeedEntry, bool) {
	reader, ok := cutPrefix(k.PK, prefixFeed)
	if !ok {
		return domain.FeedEntry{}, false
	}
	ts, owner, ok := strings.Cut(k.SK, "#")
	if !ok || ts == "" || owner == "" || strings.HasPrefix(k.SK, prefixPopular) {
		return domain.FeedEntry{}, false
	}
	return domain.FeedEntry{Reader: reader, Photo: domain.PhotoKey{Owner: owner, Timestamp: ts}}, true
}

// popularFollowKey is the key of the mark, in reader's feed partition, that reader follows
// popular, a user whose photos are merged into the feed when it is read rather than fanned out.
func popularFollowKey(reader, popular string) Key {
	return Key{PK: feedPK(reader), SK: prefixPopular + popular}
}

// popularFromSK returns u from "~POPULAR#u".
func popularFromSK(sk string) (string, bool) { return cutPrefix(sk, prefixPopular) }

// checkpointKey is the key of a stream consumer's position in one shard.
func checkpointKey(consumer, shard string) Key {
	return Key{PK: prefixStream + consumer, SK: prefixShard + shard}
}

// photoKeyFromDeletionPK returns the photo of "DELETION#o#t".
func photoKeyFromDeletionPK(pk string) (domain.PhotoKey, bool) {
	rest, ok := cutPrefix(pk, prefixDeletion)
	if !ok {
		return domain.PhotoKey{}, false
	}
	return photoKeyFromSK(prefixPhoto + rest)
}

// usernameFromUserPK returns u from "USER#u".
func usernameFromUserPK(pk string) (string, bool) {
	return cutPrefix(pk, prefixUser)
}

// photoKeyFromSK returns the photo identified by "PHOTO#o#t". Usernames never contain '#',
// so the first '#' after the prefix separates owner from timestamp.
func photoKeyFromSK(sk string) (domain.PhotoKey, bool) {
	rest, ok := cutPrefix(sk, prefixPhoto)
	if !ok {
		return domain.PhotoKey{}, false
	}
	owner, ts, ok := strings.Cut(rest, "#")
	if !ok || owner == "" || ts == "" {
		return domain.PhotoKey{}, false
	}
	return domain.PhotoKey{Owner: owner, Timestamp: ts}, true
}

// reactionFromPK returns the user and type of "REACTION#u#type".
func reactionFromPK(pk string) (string, domain.ReactionType, bool) {
	rest, ok := cutPrefix(pk, prefixReaction)
	if !ok {
		return "", 0, false
	}
	user, stored, ok := strings.Cut(rest, "#")
	t, valid := reactionTypeFromStored(stored)
	if !ok || user == "" || !valid {
		return "", 0, false
	}
	return user, t, true
}

// followerFromSK returns f from "#FRIEND#f".
func followerFromSK(sk string) (string, bool) { return cutPrefix(sk, prefixFriend) }

// itemKind is what a table item holds, as its key's prefixes tell (see kindOf).
type itemKind int

const (
	kindUnknown       itemKind = iota // no item this package writes
	kindUser                          // USER#u / #METADATA#…
	kindPhoto                         // USER#… / PHOTO#…
	kindFriendship                    // USER#… / #FRIEND#…
	kindReaction                      // REACTION#… / PHOTO#…
	kindFeedEntry                     // FEED#… / anything but ~POPULAR#…
	kindPopularFollow                 // FEED#… / ~POPULAR#…
	kindDeletion                      // DELETION#… / #DELETION
	kindCheckpoint                    // STREAM#… / SHARD#…
	kindUpload                        // UPLOAD#… / #UPLOAD
	kindMutationMark                  // MUTATION#… / #MUTATION#…
	kindSyncHead                      // SYNC#… / #HEAD#…
	kindSyncSeen                      // SYNC#… / #SEEN#…
	kindSyncEntry                     // SYNC#… / E#…
	kindSyncKey                       // SYNC# / #KEY
)

var kindNames = [...]string{
	kindUnknown:       "unknown item",
	kindUser:          "profile",
	kindPhoto:         "photo",
	kindFriendship:    "friendship",
	kindReaction:      "reaction",
	kindFeedEntry:     "feed entry",
	kindPopularFollow: "popular follow",
	kindDeletion:      "deletion record",
	kindCheckpoint:    "stream checkpoint",
	kindUpload:        "upload record",
	kindMutationMark:  "client mutation mark",
	kindSyncHead:      "change log head",
	kindSyncSeen:      "change log record of a change",
	kindSyncEntry:     "change log entry",
	kindSyncKey:       "change log cursor key",
}

func (k itemKind) String() string { return kindNames[k] }

// kindOf classifies an item by the prefixes of its key alone, the one place that does. The
// kind says which family of keys k belongs to, not that k is well formed: the parsers below
// (userFromKey, photoFromKey, reactionFromKey, friendshipFromKey, feedEntryFromKey,
// photoKeyFromDeletionPK, shardFromCheckpointSK, uploadIDFromPK) say that, and return what
// the key names.
func kindOf(k Key) itemKind {
	switch {
	case strings.HasPrefix(k.PK, prefixUser):
		switch {
		case strings.HasPrefix(k.SK, prefixMetadata):
			return kindUser
		case strings.HasPrefix(k.SK, prefixPhoto):
			return kindPhoto
		case strings.HasPrefix(k.SK, prefixFriend):
			return kindFriendship
		}
	case strings.HasPrefix(k.PK, prefixReaction) && strings.HasPrefix(k.SK, prefixPhoto):
		return kindReaction
	case strings.HasPrefix(k.PK, prefixFeed):
		if strings.HasPrefix(k.SK, prefixPopular) {
			return kindPopularFollow
		}
		return kindFeedEntry
	case strings.HasPrefix(k.PK, prefixDeletion) && k.SK == deletionSK:
		return kindDeletion
	case strings.HasPrefix(k.PK, prefixStream) && strings.HasPrefix(k.SK, prefixShard):
		return kindCheckpoint
	case strings.HasPrefix(k.PK, prefixUpload) && k.SK == uploadSK:
		return kindUpload
	case strings.HasPrefix(k.PK, prefixMark) && strings.HasPrefix(k.SK, prefixMarkSK):
		return kindMutationMark
	case k == syncSigningKey:
		return kindSyncKey
	case strings.HasPrefix(k.PK, prefixSync):
		switch {
		case strings.HasPrefix(k.SK, prefixSyncHead):
			return kindSyncHead
		case strings.HasPrefix(k.SK, prefixSyncSeen):
			return kindSyncSeen
		case strings.HasPrefix(k.SK, prefixSyncLog):
			return kindSyncEntry
		}
	}
	return kindUnknown
}

// userFromKey returns u from the profile key "USER#u" / "#METADATA#u".
func userFromKey(k Key) (string, bool) {
	u, ok := usernameFromUserPK(k.PK)
	return u, ok && k.SK == metadataSK(u)
}

// photoFromKey returns the photo of "USER#o" / "PHOTO#o#t": the owner in both parts.
func photoFromKey(k Key) (domain.PhotoKey, bool) {
	owner, ok := usernameFromUserPK(k.PK)
	p, isPhoto := photoKeyFromSK(k.SK)
	return p, ok && isPhoto && p.Owner == owner
}

// reactionFromKey returns the reaction of "REACTION#u#type" / "PHOTO#o#t".
func reactionFromKey(k Key) (domain.ReactionKey, bool) {
	user, t, ok := reactionFromPK(k.PK)
	photo, isPhoto := photoKeyFromSK(k.SK)
	if !ok || !isPhoto {
		return domain.ReactionKey{}, false
	}
	return domain.ReactionKey{Username: user, Type: t, Photo: photo}, true
}

// friendshipFromKey returns the friendship of "USER#followed" / "#FRIEND#follower".
func friendshipFromKey(k Key) (domain.FriendshipKey, bool) {
	followed, ok := usernameFromUserPK(k.PK)
	follower, isFriend := followerFromSK(k.SK)
	if !ok || !isFriend {
		return domain.FriendshipKey{}, false
	}
	return domain.FriendshipKey{Follower: follower, Followed: followed}, true
}

// shardFromCheckpointSK returns id from "SHARD#id".
func shardFromCheckpointSK(sk string) (string, bool) { return strings.CutPrefix(sk, prefixShard) }

func cutPrefix(s, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	return rest, ok && rest != ""
}
