package loaders_test

import (
	"context"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/testkit/storetest"
	"github.com/quickphotos/quickphotos/loaders"
)

func newStore(t *testing.T) *dynamo.Store {
	t.Helper()
	store, _ := storetest.New(t)
	return store
}

// TestCancelledLoadIsNotCached: a load that failed because its request was cancelled, of an
// entity or of a list's page, must not be served to the next caller from the cache.
func TestCancelledLoadIsNotCached(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	if _, err := store.CreateUser(ctx, "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		load func(*loaders.Loaders, context.Context) (found bool, err error)
	}{
		{"a profile", func(l *loaders.Loaders, ctx context.Context) (bool, error) {
			u, err := l.User(ctx, "ada")
			return u != nil && u.Username == "ada", err
		}},
		{"a page of followers", func(l *loaders.Loaders, ctx context.Context) (bool, error) {
			page, err := l.Followers(ctx, "ada", domain.PageRequest{First: 5})
			return page.User != nil, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := loaders.New(store, loaders.Options{})
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := tc.load(l, cancelled); err == nil {
				t.Fatal("a cancelled load succeeded")
			}
			if found, err := tc.load(l, ctx); err != nil || !found {
				t.Fatalf("after a cancelled load: found %v, %v", found, err)
			}
		})
	}
}

// TestUsers_CancelledBatchForgetsEveryKey: when a batch of several profiles fails, none of
// its keys keeps the error in the cache.
func TestUsers_CancelledBatchForgetsEveryKey(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	names := []string{"ada", "bob", "cy"}
	for _, u := range names {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	l := loaders.New(store, loaders.Options{})
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l.Users(cancelled, names); err == nil {
		t.Fatal("a cancelled batch succeeded")
	}
	for _, u := range names {
		if got, err := l.User(ctx, u); err != nil || got == nil {
			t.Errorf("after a failed batch, User(%q) = %v, %v; want the profile", u, got, err)
		}
	}
}

// TestUsers_OneBatchAndDeduplicated: concurrent loads of the same and different users share
// one BatchGetItem.
func TestUsers_OneBatchAndDeduplicated(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	for _, u := range []string{"a", "b", "c"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cost := dynamo.WithCost(ctx)
	l := loaders.New(store, loaders.Options{ProfileFields: []domain.ProfileField{}})
	users, err := l.Users(ctx, []string{"a", "b", "a", "missing", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if users[0].Username != "a" || users[2].Username != "a" || users[3] != nil || users[4].Username != "c" {
		t.Fatalf("users %+v", users)
	}
	if s := cost.Snapshot(); s.Requests != 1 || s.Operations["BatchGetItem"] != 1 {
		t.Fatalf("cost %+v, want one BatchGetItem", s)
	}
	// A second load of a cached user costs nothing.
	if _, err := l.User(ctx, "b"); err != nil || cost.Snapshot().Requests != 1 {
		t.Fatalf("cached load: %v, cost %+v", err, cost.Snapshot())
	}
}

// TestFollowers_PrimeTheProfile: the followers Query brings the profile, so loading it after
// costs nothing.
func TestFollowers_PrimeTheProfile(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	for _, u := range []string{"a", "b"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.Follow(ctx, domain.FriendshipKey{Follower: "b", Followed: "a"}); err != nil {
		t.Fatal(err)
	}
	ctx, cost := dynamo.WithCost(ctx)
	l := loaders.New(store, loaders.Options{})
	page, err := l.Followers(ctx, "a", domain.PageRequest{First: 10})
	if err != nil || len(page.Items) != 1 || page.User == nil || page.User.FollowerCount != 1 {
		t.Fatalf("page %+v, %v", page, err)
	}
	if u, err := l.User(ctx, "a"); err != nil || u.FollowerCount != 1 {
		t.Fatalf("user %+v, %v", u, err)
	}
	if s := cost.Snapshot(); s.Requests != 1 {
		t.Fatalf("cost %+v, want the one Query", s)
	}
}

// TestNodes_OneBatchWhateverTheirTypes: profiles, photos, reactions and friendships asked
// together share one BatchGetItem, come back in the order asked with nil where nothing
// exists, and prime the typed loads after them.
func TestNodes_OneBatchWhateverTheirTypes(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	for _, u := range []string{"ada", "bob"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	photo := domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10Z"}
	if _, err := store.UploadPhoto(ctx, domain.Photo{Owner: photo.Owner, Timestamp: photo.Timestamp, URL: "https://cdn.example.com/1.jpg"}); err != nil {
		t.Fatal(err)
	}
	reaction := domain.ReactionKey{Username: "bob", Type: domain.ReactionHeart, Photo: photo}
	if _, err := store.React(ctx, reaction); err != nil {
		t.Fatal(err)
	}
	friendship := domain.FriendshipKey{Follower: "bob", Followed: "ada"}
	if _, err := store.Follow(ctx, friendship); err != nil {
		t.Fatal(err)
	}

	ctx, cost := dynamo.WithCost(ctx)
	l := loaders.New(store, loaders.Options{})
	keys := []domain.NodeKey{
		domain.UserKey{Username: "bob"}, photo, reaction, friendship,
		domain.PhotoKey{Owner: "ada", Timestamp: "2020-01-01T00:00:00Z"}, // no such photo
		domain.FriendshipKey{Follower: "ada", Followed: "bob"},           // not following
		domain.UserKey{Username: "bob"},
	}
	nodes, err := l.Nodes(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes {
		switch want := keys[i]; {
		case i == 4 || i == 5:
			if n != nil {
				t.Errorf("nodes[%d] = %#v, want nil", i, n)
			}
		case n == nil || n.NodeKey() != want:
			t.Errorf("nodes[%d] = %#v, want the entity of %#v", i, n, want)
		}
	}
	if r, ok := nodes[2].(*domain.Reaction); !ok || r.Timestamp == "" {
		t.Errorf("reaction %#v, want it with its timestamp", nodes[2])
	}
	if p, err := l.Photo(ctx, photo); err != nil || p == nil || p.Reactions.Heart() != 1 {
		t.Errorf("Photo after Nodes: %+v, %v", p, err)
	}
	if s := cost.Snapshot(); s.Requests != 1 || s.Operations["BatchGetItem"] != 1 {
		t.Fatalf("cost %+v, want one BatchGetItem", s)
	}
}
