package dynamo

import (
	"sort"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestKeys(t *testing.T) {
	photo := domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"}
	for _, tc := range []struct {
		got, want Key
	}{
		{UserKey("ada"), Key{"USER#ada", "#METADATA#ada"}},
		{PhotoKey(photo), Key{"USER#ada", "PHOTO#ada#2019-03-03T18:20:10"}},
		{ReactionKey(domain.ReactionKey{Username: "bob", Type: domain.ReactionThumbsUp, Photo: photo}), Key{"REACTION#bob#+1", "PHOTO#ada#2019-03-03T18:20:10"}},
		{friendshipKey(domain.FriendshipKey{Follower: "bob", Followed: "ada"}), Key{"USER#ada", "#FRIEND#bob"}},
		{photoDeletionKey(photo), Key{"DELETION#ada#2019-03-03T18:20:10", "#DELETION"}},
	} {
		if tc.got != tc.want {
			t.Errorf("got %+v, want %+v", tc.got, tc.want)
		}
	}
}

func TestKeys_ParseRoundTrip(t *testing.T) {
	photo := domain.PhotoKey{Owner: "ada.l-1_x", Timestamp: "2018-05-30T15:42:38"}
	if got, ok := photoKeyFromSK(photoSK(photo)); !ok || got != photo {
		t.Errorf("photo %+v round-trips to %+v, %v", photo, got, ok)
	}
	for _, typ := range domain.ReactionTypes {
		user, gotType, ok := reactionFromPK(reactionPK("bob", typ))
		if !ok || user != "bob" || gotType != typ {
			t.Errorf("reaction %s: %s %s %v", typ, user, gotType, ok)
		}
	}
	if got, ok := photoKeyFromDeletionPK(photoDeletionKey(photo).PK); !ok || got != photo {
		t.Errorf("deletion of %+v round-trips to %+v, %v", photo, got, ok)
	}
	if f, ok := followerFromSK(friendSK("bob")); !ok || f != "bob" {
		t.Errorf("friend: %q %v", f, ok)
	}
	for _, bad := range []string{"", "PHOTO#", "PHOTO#ada", "PHOTO#ada#", "PHOTO##t", "USER#ada"} {
		if _, ok := photoKeyFromSK(bad); ok {
			t.Errorf("photoKeyFromSK(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"REACTION#bob#like", "REACTION##heart", "REACTION#bob", "USER#bob"} {
		if _, _, ok := reactionFromPK(bad); ok {
			t.Errorf("reactionFromPK(%q) accepted", bad)
		}
	}
}

// TestKeys_SortOrder checks the byte order the access patterns' ranges rely on: in a user's
// partition, followers sort before the profile, and the profile before the photos; on
// InvertedIndex, a photo's reactions sort before the photo.
func TestKeys_SortOrder(t *testing.T) {
	user := "mia"
	sks := []string{photoSK(domain.PhotoKey{Owner: user, Timestamp: "2019-01-01T00:00:00"}), metadataSK(user), friendSK("zed"), friendSK("aaron"), photosHigh, friendsLow}
	sort.Strings(sks)
	want := []string{friendsLow, friendSK("aaron"), friendSK("zed"), metadataSK(user), photoSK(domain.PhotoKey{Owner: user, Timestamp: "2019-01-01T00:00:00"}), photosHigh}
	for i := range want {
		if sks[i] != want[i] {
			t.Fatalf("sorted %q, want %q", sks, want)
		}
	}
	if !(reactionsLow <= reactionPK("zed", domain.ReactionSunglasses) && reactionPK("zed", domain.ReactionSunglasses) < userPK("aaron") && userPK("zzz") < photoItemHigh) {
		t.Fatal("reactions do not sort before the photo item on InvertedIndex")
	}
	// Friends of any username sort below every profile key of the partition's user.
	if !(friendSK("~~~") < metadataSK("a")) {
		t.Fatal("a follower sorts after the profile")
	}
}

// TestKindOf classifies the key of every item the package writes, by what keys.go builds, and
// keys of no family, including ones that share a prefix with a family.
func TestKindOf(t *testing.T) {
	photo := domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"}
	for _, tc := range []struct {
		key  Key
		want itemKind
	}{
		{UserKey("ada"), kindUser},
		{PhotoKey(photo), kindPhoto},
		{friendshipKey(domain.FriendshipKey{Follower: "bob", Followed: "ada"}), kindFriendship},
		{ReactionKey(domain.ReactionKey{Username: "bob", Type: domain.ReactionHeart, Photo: photo}), kindReaction},
		{feedEntryKey(domain.FeedEntry{Reader: "bob", Photo: photo}), kindFeedEntry},
		{popularFollowKey("bob", "ada"), kindPopularFollow},
		{photoDeletionKey(photo), kindDeletion},
		{checkpointKey("feeds", "shard-1"), kindCheckpoint},
		{uploadKey("u1"), kindUpload},
		{mutationMarkKey("bob", "#FRIEND#ada"), kindMutationMark},
		{syncHeadKey(domain.SyncLog{User: "bob"}), kindSyncHead},
		{syncHeadKey(domain.SyncLog{User: "bob", Public: true}), kindSyncHead},
		{syncEntryKey(domain.SyncLog{User: "bob"}, 7), kindSyncEntry},
		{syncSeenKey(domain.SyncLog{User: "bob"}, "#HEAD#x"), kindSyncSeen},
		{syncSigningKey, kindSyncKey},
		{Key{"SYNC#bob", "#KEY"}, kindUnknown},
		{Key{"MUTATION#bob", "#UPLOAD"}, kindUnknown},
		// The kind is the family; well-formedness is the parsers' (TestKeyParsers).
		{Key{"USER#ada", "#METADATA#bob"}, kindUser},
		{Key{"USER#ada", "PHOTO#bob#t"}, kindPhoto},
		{Key{"FEED#bob", "garbage"}, kindFeedEntry},
		{Key{"", ""}, kindUnknown},
		{Key{"USER#ada", "SOMETHING"}, kindUnknown},
		{Key{"REACTION#bob#heart", "#METADATA#ada"}, kindUnknown},
		{Key{"DELETION#ada#t", "#UPLOAD"}, kindUnknown},
		{Key{"UPLOAD#u1", "#DELETION"}, kindUnknown},
		{Key{"STREAM#feeds", "#SHARD"}, kindUnknown},
		{Key{"PHOTO#ada#t", "PHOTO#ada#t"}, kindUnknown},
		{Key{"user#ada", "#METADATA#ada"}, kindUnknown},
	} {
		if got := kindOf(tc.key); got != tc.want {
			t.Errorf("kindOf(%+v) = %s, want %s", tc.key, got, tc.want)
		}
	}
}

// TestKeyParsers: each parser reads back what keys.go builds, and refuses the malformed keys of
// its family.
func TestKeyParsers(t *testing.T) {
	photo := domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"}
	reaction := domain.ReactionKey{Username: "bob", Type: domain.ReactionHeart, Photo: photo}
	friendship := domain.FriendshipKey{Follower: "bob", Followed: "ada"}
	for _, tc := range []struct {
		name  string
		parse func(Key) (any, bool)
		key   Key
		want  any // nil: refused
	}{
		{"user", asParsed(userFromKey), UserKey("ada"), "ada"},
		{"user of another partition", asParsed(userFromKey), Key{"USER#ada", "#METADATA#bob"}, nil},
		{"user without a name", asParsed(userFromKey), Key{"USER#", "#METADATA#"}, nil},
		{"photo", asParsed(photoFromKey), PhotoKey(photo), photo},
		{"photo in another owner's partition", asParsed(photoFromKey), Key{"USER#bob", "PHOTO#ada#2019-03-03T18:20:10"}, nil},
		{"photo without a timestamp", asParsed(photoFromKey), Key{"USER#ada", "PHOTO#ada#"}, nil},
		{"reaction", asParsed(reactionFromKey), ReactionKey(reaction), reaction},
		{"reaction of an unknown type", asParsed(reactionFromKey), Key{"REACTION#bob#like", "PHOTO#ada#2019-03-03T18:20:10"}, nil},
		{"reaction to no photo", asParsed(reactionFromKey), Key{"REACTION#bob#heart", "PHOTO#ada"}, nil},
		{"friendship", asParsed(friendshipFromKey), friendshipKey(friendship), friendship},
		{"friendship without a follower", asParsed(friendshipFromKey), Key{"USER#ada", "#FRIEND#"}, nil},
		{"friendship without a followed", asParsed(friendshipFromKey), Key{"USER#", "#FRIEND#bob"}, nil},
		{"feed entry", asParsed(feedEntryFromKey), feedEntryKey(domain.FeedEntry{Reader: "bob", Photo: photo}), domain.FeedEntry{Reader: "bob", Photo: photo}},
		{"popular follow is no feed entry", asParsed(feedEntryFromKey), popularFollowKey("bob", "ada"), nil},
		{"feed entry without an owner", asParsed(feedEntryFromKey), Key{"FEED#bob", "2019-03-03T18:20:10#"}, nil},
	} {
		got, ok := tc.parse(tc.key)
		switch {
		case tc.want == nil && ok:
			t.Errorf("%s: %+v parsed as %+v, want refused", tc.name, tc.key, got)
		case tc.want != nil && (!ok || got != tc.want):
			t.Errorf("%s: %+v parsed as %+v, %v, want %+v", tc.name, tc.key, got, ok, tc.want)
		}
	}
	if u, ok := popularFromSK(popularFollowKey("bob", "ada").SK); !ok || u != "ada" {
		t.Errorf("popular follow: %q %v", u, ok)
	}
	if s, ok := shardFromCheckpointSK(checkpointKey("feeds", "shard-1").SK); !ok || s != "shard-1" {
		t.Errorf("checkpoint: %q %v", s, ok)
	}
	if id, ok := uploadIDFromPK(uploadKey("u1").PK); !ok || id != "u1" {
		t.Errorf("upload: %q %v", id, ok)
	}
}

func asParsed[T any](parse func(Key) (T, bool)) func(Key) (any, bool) {
	return func(k Key) (any, bool) { return parse(k) }
}
