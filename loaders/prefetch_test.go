package loaders_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/loaders"
)

// TestPrefetch: in an operation of one root field, Prefetch reads the keys not cached yet in
// one request, at once, and the loads after it (an entity that does not exist too) cost
// nothing and wait for no window; with several root fields, it leaves the keys to the window.
func TestPrefetch(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	for _, u := range []string{"ada", "bob", "cy"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
	ada, bob, cy, nobody := domain.UserKey{Username: "ada"}, domain.UserKey{Username: "bob"}, domain.UserKey{Username: "cy"}, domain.UserKey{Username: "nobody"}

	t.Run("one root field", func(t *testing.T) {
		ctx, cost := dynamo.WithCost(ctx)
		// A window no test waits for: a load that waited would hang.
		l := loaders.New(store, loaders.Options{OneRootField: true, Wait: time.Hour})
		l.Prefetch(ctx, ada, bob, ada, nobody)
		l.Prefetch(ctx, bob, cy) // bob is cached: only cy is read, a key alone by a GetItem
		if s := cost.Snapshot(); s.Requests != 2 || s.Operations["BatchGetItem"] != 1 || s.Operations["GetItem"] != 1 {
			t.Fatalf("cost %+v, want a BatchGetItem and a GetItem", s)
		}
		users, err := l.Users(ctx, []string{"ada", "bob", "cy", "nobody"})
		if err != nil {
			t.Fatal(err)
		}
		if users[0].Username != "ada" || users[1].Username != "bob" || users[2].Username != "cy" || users[3] != nil {
			t.Fatalf("users %+v", users)
		}
		if s := cost.Snapshot(); s.Requests != 2 {
			t.Fatalf("cost %+v after loading what was prefetched, want no more requests", s)
		}
	})

	t.Run("a failed read caches nothing", func(t *testing.T) {
		l := loaders.New(store, loaders.Options{OneRootField: true})
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		l.Prefetch(cancelled, ada)
		if u, err := l.User(ctx, "ada"); err != nil || u == nil {
			t.Fatalf("after a failed prefetch, User = %v, %v; want the profile", u, err)
		}
	})

	t.Run("several root fields", func(t *testing.T) {
		ctx, cost := dynamo.WithCost(ctx)
		l := loaders.New(store, loaders.Options{})
		l.Prefetch(ctx, ada, bob)
		if s := cost.Snapshot(); s.Requests != 0 {
			t.Fatalf("cost %+v, want none: the window gathers the keys", s)
		}
	})
}

// TestPages_SentAtOnce: a page is read by its own Query as soon as it is asked for, whatever
// the window (DynamoDB has no batched Query), and two asks of the same page share it.
func TestPages_SentAtOnce(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	if _, err := store.CreateUser(ctx, "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	ctx, cost := dynamo.WithCost(ctx)
	l := loaders.New(store, loaders.Options{Wait: time.Hour})
	for range 2 {
		if _, err := l.Photos(ctx, "ada", domain.PageRequest{First: 5}); err != nil {
			t.Fatal(err)
		}
	}
	if s := cost.Snapshot(); s.Requests != 1 || s.Operations["Query"] != 1 {
		t.Fatalf("cost %+v, want one Query", s)
	}
}

// TestPages_AsksAtOnceShareOneQuery: fields asking for the same page at the same time share
// one Query, and each gets the page.
func TestPages_AsksAtOnceShareOneQuery(t *testing.T) {
	store := newStore(t)
	ctx := context.Background()
	if _, err := store.CreateUser(ctx, "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.UploadPhoto(ctx, domain.Photo{Owner: "ada", Timestamp: "2024-05-01T10:00:00", URL: "https://cdn.example.com/a.jpg"}); err != nil {
		t.Fatal(err)
	}
	ctx, cost := dynamo.WithCost(ctx)
	l := loaders.New(store, loaders.Options{})
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			page, err := l.Photos(ctx, "ada", domain.PageRequest{First: 5})
			if err != nil || len(page.Items) != 1 || page.Owner == nil {
				t.Errorf("page %+v, %v: want ada's photo and profile", page, err)
			}
		})
	}
	wg.Wait()
	if s := cost.Snapshot(); s.Requests != 1 {
		t.Fatalf("cost %+v, want one Query for 16 asks of one page", s)
	}
}
