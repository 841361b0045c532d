package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestPrefetch_NoLevelWaitsForTheBatchWindow: in an operation of one root field, each level
// reads at once the entities it knows it needs (loaders.Prefetch), in the batch the window
// would have gathered, so no field waits for the window. With a window of a minute, every
// operation of the load mix and those below answer at once, at the cost in requests each
// budget says; one that waited would take the minute. (Fields of a list's elements that the
// list does not read for, such as a reacted photo's owner, still wait: ReactionPhotosBatched.)
func TestPrefetch_NoLevelWaitsForTheBatchWindow(t *testing.T) {
	const window = time.Minute
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{Backfill: 20}),
		apitest.WithConfig(func(c *api.Config) { c.BatchWait = window }))
	srv.MustCreateUsers(t, "ann", "bob", "cy", "dee")
	var start struct {
		User struct{ Changes struct{ Cursor string } }
	}
	queryBefore(t, srv, "ann", 15*time.Second, `{ user(username: "ann") { changes { cursor } } }`, nil).Decode(t, &start)
	for _, follower := range []string{"ann", "cy", "dee"} {
		srv.MustFollow(t, follower, "bob")
	}
	srv.MustFollow(t, "ann", "cy")
	for i := 1; i <= 3; i++ {
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(i))
		srv.MustUploadPhoto(t, "cy", apitest.Timestamp(10+i))
	}
	for _, u := range []string{"cy", "dee"} {
		srv.MustReact(t, u, "bob", apitest.Timestamp(1), "HEART")
	}
	apitest.Eventually(t, "ann's feed", func() (bool, string) {
		var p struct{ Feed struct{ Edges []struct{} } }
		srv.As(t, "ann").Query(t, `{ feed(first: 20) { edges { cursor } } }`, nil).Decode(t, &p)
		return len(p.Feed.Edges) == 6, fmt.Sprint("feed of ", len(p.Feed.Edges))
	})
	bobPhoto := map[string]any{"o": "bob", "t": apitest.Timestamp(1)}

	t.Run("changes", func(t *testing.T) {
		apitest.Eventually(t, "ann's changes", func() (bool, string) {
			resp := queryBefore(t, srv, "ann", 15*time.Second, `query($a: String) { user(username: "ann") { changes(first: 50, after: $a) { edges { node { node { id } } } } } }`, map[string]any{"a": start.User.Changes.Cursor})
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %+v", resp.Errors)
			}
			var p struct {
				User struct{ Changes struct{ Edges []struct{} } }
			}
			resp.Decode(t, &p)
			// ann's follows, bob's and cy's photos, the reactions on bob's.
			return len(p.User.Changes.Edges) >= 10, fmt.Sprint(len(p.User.Changes.Edges), " changes")
		})
	})

	for _, tc := range []struct {
		name  string
		query string
		vars  map[string]any
		want  map[string]int
	}{
		// A level of one key is read with a GetItem, of several with a BatchGetItem.
		{"profile", `{ user(username: "bob") { name followerCount } }`, nil,
			map[string]int{"GetItem": 1}},
		{"viewer", `{ viewer { name } }`, nil,
			map[string]int{"GetItem": 1}},
		{"node", `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": userID("cy")},
			map[string]int{"GetItem": 1}},
		{"users", `{ users(usernames: ["bob", "cy", "nobody"]) { name } }`, nil,
			map[string]int{"BatchGetItem": 1}},
		{"photo and its owner", `query($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { url owner { name } } }`, bobPhoto,
			map[string]int{"BatchGetItem": 1}}, // the owner's key is in the photo's
		{"photo, its owner and its reactions' users", `query($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { owner { name } reactions(first: 5) { edges { node { user { name } } } } } }`, bobPhoto,
			map[string]int{"Query": 1, "BatchGetItem": 1}},
		{"photos with their owner", `{ user(username: "bob") { photos(first: 20) { edges { node { url owner { name } } } } } }`, nil,
			map[string]int{"Query": 1}}, // the page reaches the profile
		{"photos with their owner, a page short of the profile", `{ user(username: "bob") { photos(first: 1) { edges { node { url owner { name } } } } } }`, nil,
			map[string]int{"Query": 1, "GetItem": 1}},
		{"a photo's reactions with their users", `query($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { reactions(first: 20) { edges { node { type user { name } } } } } }`, bobPhoto,
			map[string]int{"Query": 1, "BatchGetItem": 1}},
		{"followers", `{ user(username: "bob") { followerCount followers(first: 20) { edges { node { follower { name } } } } } }`, nil,
			map[string]int{"Query": 1, "BatchGetItem": 1}},
		{"following with their photos", `{ user(username: "ann") { following(first: 10) { edges { node { followed { name photos(first: 5) { edges { node { url } } } } } } } } }`, nil,
			map[string]int{"BatchGetItem": 1, "Query": 3}}, // whom ann follows (which proves she exists), then their profiles
		{"following with their photos, by name", `{ user(username: "ann") { following(first: 10) { edges { node { followed { username photos(first: 5) { edges { node { url } } } } } } } } }`, nil,
			map[string]int{"Query": 3}}, // as the load mix's following
		{"a user's reactions with their photos", `{ user(username: "cy") { reactions(first: 20) { edges { node { photo { url } } } } } }`, nil,
			map[string]int{"GetItem": 2, "Query": 4}}, // as ReactionPhotosBatched
		{"feed with owners", `{ feed(first: 20) { edges { node { url owner { name } } } } }`, nil,
			map[string]int{"Query": 1, "BatchGetItem": 2}}, // the photos, then their owners
		{"react", `mutation { reactToPhoto(input: {username: "ann", owner: "bob", timestamp: "` + apitest.Timestamp(2) + `", type: SMILEY}) { type photo { reactionCounts { total } } } }`, nil,
			map[string]int{"TransactWriteItems": 1, "GetItem": 1}},
		{"follow", `mutation { followUser(input: {follower: "ann", followed: "dee"}) { follower { followingCount } followed { followerCount } } }`, nil,
			map[string]int{"TransactWriteItems": 1, "BatchGetItem": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := queryBefore(t, srv, "ann", 15*time.Second, tc.query, tc.vars)
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %+v", resp.Errors)
			}
			assertRequests(t, resp.Cost(t), tc.want)
		})
	}
}

// queryBefore is Query as user, failing the test when no answer comes within limit.
func queryBefore(t *testing.T, srv *apitest.Server, user string, limit time.Duration, query string, vars map[string]any) *apitest.Response {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+srv.Token(t, user))
	req.Header.Set(api.CostHeader, "1")
	resp, err := (&http.Client{Timeout: limit}).Do(req)
	if err != nil {
		t.Fatalf("no answer within %s (a field waited for the batch window?): %v", limit, err)
	}
	defer resp.Body.Close()
	var r apitest.Response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("decode response (status %d): %v", resp.StatusCode, err)
	}
	return &r
}
