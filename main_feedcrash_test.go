package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestServe_CrashesLoseNoFeedWrite: `serve` (the feed's consumer inside) SIGKILLed again and
// again while clients upload photos, and restarted: in the end every acknowledged upload is in
// every follower's feed, once, and nothing is there that is not a photo.
func TestServe_CrashesLoseNoFeedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts serve a few times")
	}
	const followers = 12
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	var acknowledged []string
	for cycle := 0; cycle < 6; cycle++ {
		base, kill := startKillableServe(t, dir)
		if cycle == 0 {
			mustMutate(t, base, `mutation { createUser(input: {username: "author"}) { username } }`, nil)
			for i := 0; i < followers; i++ {
				f := fmt.Sprintf("reader%02d", i)
				mustMutate(t, base, `mutation($u: ID!) { createUser(input: {username: $u}) { username } }`, map[string]any{"u": f})
				mustMutate(t, base, `mutation($u: ID!) { followUser(input: {follower: $u, followed: "author"}) { timestamp } }`, map[string]any{"u": f})
			}
		}
		ctx, stop := context.WithTimeout(context.Background(), time.Duration(50+rng.IntN(200))*time.Millisecond)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for c := 0; c < 4; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 3 && ctx.Err() == nil; i++ { // at most 72 photos in all: one page
					time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
					ts := fmt.Sprintf("2024-0%d-%02dT00:%02d:%02d", cycle+1, c+1, i/60%60, i%60)
					var got struct {
						Data struct{ UploadPhoto *struct{ Timestamp string } }
					}
					if graphql(base, uploadMutation, map[string]any{"o": "author", "t": ts}, &got) == nil && got.Data.UploadPhoto != nil {
						mu.Lock()
						acknowledged = append(acknowledged, ts)
						mu.Unlock()
					}
				}
			}()
		}
		<-ctx.Done()
		kill() // while uploads, and their fan-out, are in flight
		stop()
		wg.Wait()
	}
	if len(acknowledged) == 0 {
		t.Fatal("no upload was acknowledged")
	}

	base, _ := startKillableServe(t, dir)
	var photos []string // every photo that exists: the acknowledged, and any committed whose answer the kill cut off
	var got struct {
		Data struct {
			User struct {
				Photos struct {
					Edges []struct{ Node struct{ Timestamp string } }
				}
			}
		}
	}
	if err := graphql(base, `{ user(username: "author") { photos(first: 100) { edges { node { timestamp } } } } }`, nil, &got); err != nil {
		t.Fatal(err)
	}
	for _, e := range got.Data.User.Photos.Edges {
		photos = append(photos, e.Node.Timestamp)
	}
	if len(photos) >= 100 {
		t.Fatalf("%d photos: the check reads one page of 100", len(photos))
	}
	for _, ts := range acknowledged {
		if !slices.Contains(photos, ts) {
			t.Fatalf("acknowledged photo %s is lost", ts)
		}
	}
	slices.Sort(photos)
	slices.Reverse(photos)
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; i < followers; i++ {
		reader := fmt.Sprintf("reader%02d", i)
		for {
			var feed struct {
				Data struct {
					User struct {
						Feed struct {
							Edges []struct{ Node struct{ Timestamp string } }
						}
					}
				}
			}
			if err := graphql(base, `query($u: ID!) { user(username: $u) { feed(first: 100) { edges { node { timestamp } } } } }`, map[string]any{"u": reader}, &feed); err != nil {
				t.Fatal(err)
			}
			var inFeed []string
			for _, e := range feed.Data.User.Feed.Edges {
				inFeed = append(inFeed, e.Node.Timestamp)
			}
			if slices.Equal(inFeed, photos) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s's feed after 30s: %d photos, want the %d that exist, newest first", reader, len(inFeed), len(photos))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("%d photos acknowledged, %d exist, in every follower's feed", len(acknowledged), len(photos))
}
