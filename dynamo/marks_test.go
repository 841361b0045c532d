package dynamo

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
)

// TestMutationMarkKey: whatever a client's id spells, its mark's key is a mark's, in the
// caller's partition, and never another item's.
func TestMutationMarkKey(t *testing.T) {
	for _, id := range []string{"m-1", "#FRIEND#ada", "#DELETION", "#UPLOAD", "#METADATA#ada", "PHOTO#ada#2019-03-03T18:20:10", strings.Repeat("é", 64)} {
		k := mutationMarkKey("bob", id)
		if kindOf(k) != kindMutationMark || k.PK != "MUTATION#bob" || !strings.HasPrefix(k.SK, "#MUTATION#") || strings.Contains(k.SK, id) {
			t.Errorf("id %q: key %+v", id, k)
		}
		if k == mutationMarkKey("ann", id) || k == mutationMarkKey("bob", id+"x") {
			t.Errorf("id %q: two marks share a key", id)
		}
		// Callers counting their ids from 0 must not share an InvertedIndex partition (the
		// sort key), nor may caller and id run together ("bo" + "bx" is not "b" + "obx").
		if k.SK == mutationMarkKey("ann", id).SK || mutationMarkKey("bo", "b"+id).SK == mutationMarkKey("bob", id).SK {
			t.Errorf("id %q: two callers' marks share an index partition", id)
		}
	}
}

// TestMutationOutcome_RoundTrip: a mark item reads back as the outcome written.
func TestMutationOutcome_RoundTrip(t *testing.T) {
	m := &domain.MutationMark{Caller: "bob", ID: "m-1", Mutation: "deletePhoto", InputHash: "h", Retention: time.Hour}
	photo := domain.Photo{Owner: "ada", Timestamp: "2024-01-01T00:00:00", URL: "https://x/y.jpg", Reactions: domain.ReactionCounts{domain.ReactionThumbsUp: 0, domain.ReactionHeart: 2, domain.ReactionSmiley: 0, domain.ReactionSunglasses: 0}}
	now := time.Unix(1700000000, 0)
	item := markItem(m, markOutcome{removed: photoItem(photo)}, now)
	if got := getInt(item, attrExpiresAt); int64(got) != now.Add(time.Hour).Unix() {
		t.Errorf("expires at %d", got)
	}
	o, err := outcomeFromItem(item)
	if err != nil || o.Mutation != "deletePhoto" || o.InputHash != "h" || !reflect.DeepEqual(o.Removed, photo) {
		t.Fatalf("outcome %+v, %v", o, err)
	}
	friendship := domain.FriendshipKey{Follower: "bob", Followed: "ada"}
	if o, err := outcomeFromItem(markItem(m, markOutcome{node: friendship}, now)); err != nil || o.Node != friendship || o.Returned != nil {
		t.Fatalf("outcome %+v, %v", o, err)
	}
	f := domain.Friendship{Follower: "bob", Followed: "ada", Timestamp: "2024-01-01T00:00:00"}
	if o, err := outcomeFromItem(markItem(m, markOutcome{node: friendship, returned: friendshipItem(f), deletion: "d"}, now)); err != nil || !reflect.DeepEqual(o.Returned, f) || o.Deletion != "d" {
		t.Fatalf("outcome %+v, %v", o, err)
	}
}

// TestMutationMarks: a marked write commits its mark with it; a second write with the same
// mark fails on it and writes nothing; a refusal's mark reads back as the error; a mark past
// its retention reads as none and may be written over.
func TestMutationMarks(t *testing.T) {
	ctx := context.Background()
	_, store := embedded(t)
	// Near the real time: the engine's TTL removes items whose expiry has passed.
	clock := time.Now()
	store.now = func() time.Time { return clock }
	for _, u := range []string{"ann", "bob"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	mark := func() *domain.MutationMark {
		return &domain.MutationMark{Caller: "bob", ID: "f-1", Mutation: "followUser", InputHash: "h", Retention: time.Hour}
	}
	k := domain.FriendshipKey{Follower: "bob", Followed: "ann"}
	m := mark()
	if _, err := store.Follow(domain.WithMutationMark(ctx, m), k); err != nil || !m.Written {
		t.Fatalf("marked follow: %v, written %v", err, m.Written)
	}
	o, err := store.GetMutationMark(ctx, "bob", "f-1")
	if err != nil || o == nil || o.Node != k {
		t.Fatalf("mark %+v, %v", o, err)
	}
	if _, err := store.Unfollow(ctx, k); err != nil {
		t.Fatal(err)
	}
	// The follow again, with the same mark: its transaction fails on the mark, not on the
	// friendship, and nothing is written.
	if _, err := store.Follow(domain.WithMutationMark(ctx, mark()), k); !errors.Is(err, domain.ErrMutationMarked) {
		t.Fatalf("second marked follow: %v, want ErrMutationMarked", err)
	}
	if u, _ := store.currentUser(ctx, "ann"); u.FollowerCount != 0 {
		t.Fatalf("the refused follow counted: %d followers", u.FollowerCount)
	}

	refused := mark()
	refused.ID = "f-2"
	if err := store.PutMutationMark(ctx, refused, domain.MutationOutcome{Err: domain.Errorf(domain.NotFound, "gone")}); err != nil {
		t.Fatal(err)
	}
	if o, err := store.GetMutationMark(ctx, "bob", "f-2"); err != nil || o.Err == nil || o.Err.Code != domain.NotFound || o.Err.Message != "gone" {
		t.Fatalf("refusal's mark %+v, %v", o, err)
	}
	if err := store.PutMutationMark(ctx, mark(), domain.MutationOutcome{Node: k}); !errors.Is(err, domain.ErrMutationMarked) {
		t.Fatalf("a mark over a live one: %v", err)
	}

	clock = clock.Add(time.Hour)
	if o, err := store.GetMutationMark(ctx, "bob", "f-1"); err != nil || o != nil {
		t.Fatalf("a mark past its retention read as %+v, %v", o, err)
	}
	m = mark()
	if _, err := store.Follow(domain.WithMutationMark(ctx, m), k); err != nil || !m.Written {
		t.Fatalf("a follow over an expired mark: %v", err)
	}
}
