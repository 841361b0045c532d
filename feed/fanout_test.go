package feed_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/storetest"
)

func newStore(t *testing.T) *dynamo.Store {
	t.Helper()
	store, _ := storetest.New(t)
	return store
}

func feedOf(t *testing.T, store *dynamo.Store, reader string) []domain.PhotoKey {
	t.Helper()
	page, err := store.Feed(context.Background(), reader, domain.PageRequest{First: 100})
	if err != nil {
		t.Fatal(err)
	}
	var keys []domain.PhotoKey
	for _, e := range page.Items {
		keys = append(keys, e.Photo)
	}
	return keys
}

// TestFanOut_HandlingTwiceChangesNothing: a consumer resuming after a crash hands a batch again;
// every effect of the fan-out is a whole put or delete, so the feeds end the same.
func TestFanOut_HandlingTwiceChangesNothing(t *testing.T) {
	ctx := context.Background()
	store := newStore(t)
	for _, u := range []string{"ann", "bob", "cy", "owner"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"ann", "bob"} {
		if _, err := store.Follow(ctx, domain.FriendshipKey{Follower: f, Followed: "owner"}); err != nil {
			t.Fatal(err)
		}
	}
	kept := domain.Photo{Owner: "owner", Timestamp: "2024-01-01T00:00:01Z"}
	gone := domain.Photo{Owner: "owner", Timestamp: "2024-01-01T00:00:02Z"}
	late := domain.Friendship{Follower: "cy", Followed: "owner"}
	if _, err := store.UploadPhoto(ctx, kept); err != nil {
		t.Fatal(err)
	}
	changes := []domain.Change{
		{Op: domain.Added, New: kept, ID: "1"},
		{Op: domain.Added, New: gone, ID: "2"},
		{Op: domain.Removed, Old: gone, ID: "3"},
		{Op: domain.Added, New: late, ID: "4"}, // cy follows: the owner's photos come in
		{Op: domain.Updated, Old: kept, New: kept, ID: "5"},
		{Op: domain.Added, New: domain.Reaction{Username: "ann", Type: domain.ReactionHeart, Photo: kept.Key()}, ID: "6"},
	}
	start, err := store.SyncChanges(ctx, "cy", "", 100, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Follow(ctx, domain.FriendshipKey{Follower: late.Follower, Followed: late.Followed}); err != nil {
		t.Fatal(err)
	}
	f := feed.NewFanOut(store, feed.Config{Retention: time.Hour})
	want := []domain.PhotoKey{kept.Key()}
	for round := 1; round <= 2; round++ {
		if err := f.Handle(ctx, changes); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for _, reader := range []string{"ann", "bob", "cy"} {
			if got := feedOf(t, store, reader); !slices.Equal(got, want) {
				t.Errorf("round %d: %s's feed %v, want %v", round, reader, got, want)
			}
		}
		if got := feedOf(t, store, "owner"); len(got) != 0 {
			t.Errorf("round %d: the owner's feed %v, want it empty", round, got)
		}
		// cy's log, each entry once: the deletion of the photo gone (cy followed the owner
		// before the fan-out ran, so it goes to cy too), the follow, the owner's profile, the
		// photo the follow brought; photos by their canonical ids.
		page, err := store.SyncChanges(ctx, "cy", start.End, 100, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range page.Entries {
			got = append(got, e.Op.String()+" "+domain.NodeID(e.Object))
		}
		canonical := func(p domain.Photo) string {
			k, _ := domain.CanonicalPhotoKey(p.Key())
			return domain.NodeID(k)
		}
		wantLog := []string{
			"deleted " + canonical(gone),
			"upserted " + domain.NodeID(late.Key()),
			"upserted " + domain.NodeID(domain.UserKey{Username: "owner"}),
			"upserted " + canonical(kept),
		}
		if !slices.Equal(got, wantLog) {
			t.Errorf("round %d: cy's change log %v, want %v", round, got, wantLog)
		}
	}

	if err := f.Handle(ctx, []domain.Change{{Op: domain.Removed, Old: late, ID: "7"}}); err != nil {
		t.Fatal(err)
	}
	if got := feedOf(t, store, "cy"); len(got) != 0 {
		t.Errorf("after cy unfollowed, cy's feed %v, want it empty", got)
	}
}

// TestHandleLambda: an event as AWS Lambda delivers it from a DynamoDB Streams event source
// mapping (testdata/lambda-event.json: a photo inserted, and an item that is no entity) fans
// the photo out to its owner's followers, and reports no failure.
func TestHandleLambda(t *testing.T) {
	ctx := context.Background()
	store := newStore(t)
	for _, u := range []string{"fan", "owner"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.Follow(ctx, domain.FriendshipKey{Follower: "fan", Followed: "owner"}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("testdata/lambda-event.json")
	if err != nil {
		t.Fatal(err)
	}
	var event events.DynamoDBEvent
	if err := json.Unmarshal(raw, &event); err != nil {
		t.Fatal(err)
	}
	resp, err := feed.NewFanOut(store, feed.Config{}).HandleLambda(ctx, event)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("HandleLambda: %+v, %v", resp, err)
	}
	want := []domain.PhotoKey{{Owner: "owner", Timestamp: "2024-06-01T12:00:00Z"}}
	if got := feedOf(t, store, "fan"); !slices.Equal(got, want) {
		t.Errorf("fan's feed %v, want %v", got, want)
	}

	// A table that is gone: the first record fails, and is reported so that Lambda retries
	// from it.
	resp, err = feed.NewFanOut(dynamo.New(storetest.Engine(t).Client(), "gone"), feed.Config{}).HandleLambda(ctx, event)
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "111" {
		t.Errorf("with a failing store: %+v, %v; want record 111 reported", resp, err)
	}
}
