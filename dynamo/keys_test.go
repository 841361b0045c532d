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
