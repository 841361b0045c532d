package api_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/live"
)

// A device of offline sync: it keeps the cursor of its last applied page and what it learnt.
type syncDevice struct {
	srv    *apitest.Server
	user   string
	cursor string
	// state is the latest operation (and version) of each object the device heard of.
	state map[string]string
}

const changesQuery = `query($u: ID!, $first: Int, $after: String) {
  user(username: $u) { changes(first: $first, after: $after) {
    edges { cursor node { objectId objectType operation version node { id } } }
    pageInfo { hasNextPage endCursor } cursor } } }`

type changesPage struct {
	User struct {
		Changes struct {
			Edges []struct {
				Cursor string
				Node   struct {
					ObjectID   string
					ObjectType string
					Operation  string
					Version    int
					Node       *struct{ ID string }
				}
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   *string
			}
			Cursor string
		}
	}
}

// startSync takes the cursor of now for user.
func startSync(t *testing.T, srv *apitest.Server, user string) *syncDevice {
	t.Helper()
	d := &syncDevice{srv: srv.As(t, user), user: user, state: map[string]string{}}
	var p changesPage
	d.srv.Query(t, changesQuery, map[string]any{"u": user}).Decode(t, &p)
	if len(p.User.Changes.Edges) != 0 || p.User.Changes.Cursor == "" {
		t.Fatalf("starting a sync: %+v, want no changes and a cursor", p.User.Changes)
	}
	d.cursor = p.User.Changes.Cursor
	return d
}

// pull reads every page after the device's cursor, first at a time, applies them and returns
// the changes, each "Type op id".
func (d *syncDevice) pull(t *testing.T, first int) []string {
	t.Helper()
	var got []string
	for pages := 0; ; pages++ {
		if pages > 200 {
			t.Fatal("the pages of changes never end")
		}
		var p changesPage
		d.srv.Query(t, changesQuery, map[string]any{"u": d.user, "first": first, "after": d.cursor}).Decode(t, &p)
		c := p.User.Changes
		seen := map[string]bool{}
		for _, e := range c.Edges {
			n := e.Node
			if seen[n.ObjectID] {
				t.Errorf("object %s twice in one page", n.ObjectID)
			}
			seen[n.ObjectID] = true
			if (n.Operation == "UPSERTED") != (n.Node != nil) || n.Node != nil && n.Node.ID != n.ObjectID {
				t.Errorf("change %+v: an upsert carries its object, a deletion none", n)
			}
			got = append(got, n.ObjectType+" "+n.Operation+" "+n.ObjectID)
			d.state[n.ObjectID] = n.Operation
		}
		if len(c.Edges) > first {
			t.Errorf("a page of %d changes for first: %d", len(c.Edges), first)
		}
		d.cursor = c.Cursor
		if !c.PageInfo.HasNextPage {
			return got
		}
	}
}

// pullUntil pulls until the device has heard of every change in want ("Type op id"), and
// returns what it heard.
func (d *syncDevice) pullUntil(t *testing.T, first int, want ...string) []string {
	t.Helper()
	var all []string
	apitest.Eventually(t, d.user+"'s changes", func() (bool, string) {
		all = append(all, d.pull(t, first)...)
		for _, w := range want {
			typ, rest, _ := strings.Cut(w, " ")
			op, id, _ := strings.Cut(rest, " ")
			if d.state[id] != op || !slices.Contains(all, typ+" "+op+" "+id) {
				return false, fmt.Sprint(all)
			}
		}
		return true, ""
	})
	return all
}

func userID(u string) string { return domain.NodeID(domain.UserKey{Username: u}) }
func photoID(owner string, i int) string {
	return domain.NodeID(domain.PhotoKey{Owner: owner, Timestamp: apitest.Timestamp(i)})
}
func followID(follower, followed string) string {
	return domain.NodeID(domain.FriendshipKey{Follower: follower, Followed: followed})
}
func heartID(user, owner string, i int) string {
	return domain.NodeID(domain.ReactionKey{Username: user, Type: domain.ReactionHeart, Photo: domain.PhotoKey{Owner: owner, Timestamp: apitest.Timestamp(i)}})
}

func TestChanges_ACaughtUpDeviceHearsOfEveryChangeToItsScope(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{Backfill: 2}))
	srv.MustCreateUsers(t, "ann", "bob", "cy")
	ann, bob := startSync(t, srv, "ann"), startSync(t, srv, "bob")
	for i := 1; i <= 3; i++ {
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(i))
	}
	srv.MustUploadPhoto(t, "ann", apitest.Timestamp(10))
	// The stream has handled the uploads, each sent to its owner's followers of then (none):
	// an upload handled after the follow below would go to ann as a new photo of bob's.
	bob.pullUntil(t, 10, "Photo UPSERTED "+photoID("bob", 1), "Photo UPSERTED "+photoID("bob", 2), "Photo UPSERTED "+photoID("bob", 3))
	ann.pullUntil(t, 10, "Photo UPSERTED "+photoID("ann", 10))

	t.Run("a follow brings the followed profile and latest photos", func(t *testing.T) {
		srv.MustFollow(t, "ann", "bob")
		ann.pullUntil(t, 2,
			"Friendship UPSERTED "+followID("ann", "bob"),
			"User UPSERTED "+userID("bob"),
			"Photo UPSERTED "+photoID("bob", 3),
			"Photo UPSERTED "+photoID("bob", 2),
		)
		if _, ok := ann.state[photoID("bob", 1)]; ok {
			t.Errorf("bob's third latest photo came, beyond the backfill of 2")
		}
	})

	t.Run("photos, edits, reactions and followers of the scope come; others' do not", func(t *testing.T) {
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(4))
		srv.MustUploadPhoto(t, "cy", apitest.Timestamp(5)) // ann does not follow cy
		srv.MustReact(t, "cy", "ann", apitest.Timestamp(10), "HEART")
		srv.MustReact(t, "ann", "bob", apitest.Timestamp(4), "HEART")
		srv.MustFollow(t, "cy", "ann")
		if resp := srv.As(t, "bob").Query(t, `mutation { updateUser(username: "bob", input: {status: "away"}) { version } }`, nil); len(resp.Errors) > 0 {
			t.Fatal(resp.Errors)
		}
		got := ann.pullUntil(t, 3,
			"Photo UPSERTED "+photoID("bob", 4),
			"Reaction UPSERTED "+heartID("cy", "ann", 10),
			"Reaction UPSERTED "+heartID("ann", "bob", 4),
			"Friendship UPSERTED "+followID("cy", "ann"),
			"User UPSERTED "+userID("bob"),
			"Photo UPSERTED "+photoID("ann", 10), // its counters
			"User UPSERTED "+userID("ann"),       // hers
		)
		for _, c := range got {
			if strings.Contains(c, photoID("cy", 5)) {
				t.Errorf("ann heard of %s, a photo of cy, whom she does not follow", c)
			}
		}
	})

	t.Run("deletions and unfollows come as deletions", func(t *testing.T) {
		if resp := srv.As(t, "bob").Query(t, `mutation($t: String!) { deletePhoto(owner: "bob", timestamp: $t) { timestamp } }`, map[string]any{"t": apitest.Timestamp(2)}); len(resp.Errors) > 0 {
			t.Fatal(resp.Errors)
		}
		ann.pullUntil(t, 5, "Photo DELETED "+photoID("bob", 2))
		if resp := srv.As(t, "ann").Query(t, `mutation { unfollowUser(input: {follower: "ann", followed: "bob"}) { followed { username } } }`, nil); len(resp.Errors) > 0 {
			t.Fatal(resp.Errors)
		}
		// The follow's deletion takes bob's photos out of ann's feed: the log lists no more.
		got := ann.pullUntil(t, 5,
			"Friendship DELETED "+followID("ann", "bob"),
			"User DELETED "+userID("bob"),
		)
		for _, c := range got {
			if strings.HasPrefix(c, "Photo") {
				t.Errorf("an unfollow listed %s", c)
			}
		}
	})
}

func TestChanges_NothingSkippedNothingDoubled(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob")
	// The follow's own changes (and its backfill) are logged before the sync starts, so that
	// what follows is the uploads alone, each one change.
	before := startSync(t, srv, "ann")
	srv.MustFollow(t, "ann", "bob")
	before.pullUntil(t, 10, "Friendship UPSERTED "+followID("ann", "bob"), "User UPSERTED "+userID("ann"))
	ann := startSync(t, srv, "ann")
	var want []string
	for i := 1; i <= 30; i++ {
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(i))
		want = append(want, "Photo UPSERTED "+photoID("bob", i))
	}
	got := ann.pullUntil(t, 7, want...)
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("pages of 7 gave\n%v\nwant each photo once:\n%v", got, want)
	}
	if again := ann.pull(t, 7); len(again) != 0 {
		t.Errorf("after the last page, %v", again)
	}
}

func TestChanges_Refusals(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob")
	ann, bob := startSync(t, srv, "ann"), startSync(t, srv, "bob")
	srv.MustFollow(t, "bob", "ann")
	ann.pullUntil(t, 10, "Friendship UPSERTED "+followID("bob", "ann"))
	valid := ann.cursor
	body, mac, _ := strings.Cut(valid, ".")
	flip := func(s string) string {
		b := []byte(s)
		b[len(b)/2] ^= 1
		if b[len(b)/2] == '.' {
			b[len(b)/2] = 'A'
		}
		return string(b)
	}
	for _, tc := range []struct {
		name, as, of string
		vars         map[string]any
		code         string
	}{
		{"a made-up cursor", "ann", "ann", map[string]any{"after": "bm90IGEgY3Vyc29y"}, "BAD_USER_INPUT"},
		{"a truncated cursor", "ann", "ann", map[string]any{"after": valid[:len(valid)-3]}, "BAD_USER_INPUT"},
		{"a cursor without its signature", "ann", "ann", map[string]any{"after": body}, "BAD_USER_INPUT"},
		{"an altered position", "ann", "ann", map[string]any{"after": flip(body) + "." + mac}, "BAD_USER_INPUT"},
		{"an altered signature", "ann", "ann", map[string]any{"after": body + "." + flip(mac)}, "BAD_USER_INPUT"},
		{"another caller's cursor", "ann", "ann", map[string]any{"after": bob.cursor}, "BAD_USER_INPUT"},
		{"a cursor of another list", "ann", "ann", map[string]any{"after": readFeed(t, srv.As(t, "bob"), "bob", 1, "").End + "x"}, "BAD_USER_INPUT"},
		{"first: 0", "ann", "ann", map[string]any{"first": 0}, "BAD_USER_INPUT"},
		{"first: 101", "ann", "ann", map[string]any{"first": 101}, "BAD_USER_INPUT"},
		{"another user's changes", "bob", "ann", nil, "FORBIDDEN"},
		{"no token", "", "ann", nil, "UNAUTHENTICATED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]any{"u": tc.of}
			for k, v := range tc.vars {
				vars[k] = v
			}
			client := srv
			if tc.as != "" {
				client = srv.As(t, tc.as)
			}
			resp := client.Query(t, changesQuery, vars)
			if code := resp.Code(); code != tc.code {
				t.Errorf("code %q, want %q (%+v)", code, tc.code, resp.Errors)
			}
			if tc.code == "BAD_USER_INPUT" && strings.Contains(fmt.Sprint(resp.Errors), "bob") {
				t.Errorf("the refusal tells of bob: %+v", resp.Errors)
			}
		})
	}
	if got := ann.pull(t, 10); len(got) != 0 {
		t.Errorf("after the refusals, the valid cursor gives %v", got)
	}
}

func TestChanges_ACursorOlderThanTheRetentionIsRefused(t *testing.T) {
	const retention = 500 * time.Millisecond
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{}),
		apitest.WithConfig(func(c *api.Config) { c.SyncRetention = retention }))
	srv.MustCreateUsers(t, "ann")
	ann := startSync(t, srv, "ann")
	// Her own profile comes too when the stream handled its creation after the sync started.
	if got := ann.pull(t, 10); len(got) != 0 && !slices.Equal(got, []string{"User UPSERTED " + userID("ann")}) {
		t.Fatalf("a new sync: %v", got)
	}
	time.Sleep(2 * retention)
	resp := ann.srv.Query(t, changesQuery, map[string]any{"u": "ann", "after": ann.cursor})
	if code := resp.Code(); code != "CURSOR_EXPIRED" {
		t.Errorf("a cursor older than the retention: code %q, want CURSOR_EXPIRED (%+v)", code, resp.Errors)
	}
	startSync(t, srv, "ann") // the recovery: a new sync
}

// TestChanges_Budget: a page of changes is one Query of the caller's log and one of their
// popular follows, sent together, then the changed objects in one BatchGetItem; starting a
// sync, the popular follows' Query and one read of the logs' heads (besides the viewer's
// profile, which these queries also read). A read of one key is a GetItem.
func TestChanges_Budget(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob", "cy")
	ann := startSync(t, srv, "ann") // also reads the cursor key, once per server
	srv.MustFollow(t, "ann", "bob")
	srv.MustFollow(t, "cy", "ann")
	srv.MustUploadPhoto(t, "bob", apitest.Timestamp(1))
	ann.pullUntil(t, 100, "Photo UPSERTED "+photoID("bob", 1), "Friendship UPSERTED "+followID("cy", "ann"))
	start := `query { viewer { changes { cursor } } }`
	assertRequests(t, srv.As(t, "ann").QueryWithin(t, 3, start, nil).Cost(t), map[string]int{"Query": 1, "GetItem": 2}) // the viewer, the head of ann's log

	srv.MustUploadPhoto(t, "bob", apitest.Timestamp(2))
	srv.MustReact(t, "cy", "bob", apitest.Timestamp(2), "HEART") // not ann's scope
	srv.MustReact(t, "ann", "bob", apitest.Timestamp(1), "HEART")
	cursor := ann.cursor
	ann.pullUntil(t, 100, "Photo UPSERTED "+photoID("bob", 2), "Reaction UPSERTED "+heartID("ann", "bob", 1))
	// The same page again, from the same cursor, now that it is whole: profiles, photos and
	// reactions of every kind in one BatchGetItem.
	page := `query($after: String) { viewer { changes(after: $after) {
	  edges { node { objectId node { id ... on Photo { url } ... on User { name } ... on Reaction { type } ... on Friendship { timestamp } } } } cursor } } }`
	c := srv.As(t, "ann").QueryWithin(t, 4, page, map[string]any{"after": cursor}).Cost(t)
	assertRequests(t, c, map[string]int{"Query": 2, "GetItem": 1, "BatchGetItem": 1}) // the viewer, then the objects
}

// TestChanges_PopularUsersAreMergedWhenRead: the uploads and edits of a user with FanOutLimit
// followers or more go once into their public log, which each follower's page of changes
// reads beside their own (one more Query per popular user followed).
func TestChanges_PopularUsersAreMergedWhenRead(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{FanOutLimit: 3, Backfill: 5}))
	srv.MustCreateUsers(t, "ann", "bob", "cy", "dee", "star")
	ann := startSync(t, srv, "ann")
	srv.MustFollow(t, "ann", "star")
	srv.MustUploadPhoto(t, "star", apitest.Timestamp(1)) // one follower: fanned out
	ann.pullUntil(t, 10, "Photo UPSERTED "+photoID("star", 1))

	srv.MustFollow(t, "bob", "star")
	srv.MustFollow(t, "cy", "star") // three followers: popular from now on
	feedBecomes(t, srv.As(t, "ann"), "ann", photo("star", 1))
	apitest.Eventually(t, "star is popular", func() (bool, string) {
		c := srv.As(t, "ann").Query(t, `{ user(username: "ann") { feed(first: 3) { edges { node { url } } } } }`, nil).Cost(t)
		return c.Operations["Query"] == 2, fmt.Sprint(c)
	})
	srv.MustUploadPhoto(t, "star", apitest.Timestamp(2))
	if resp := srv.As(t, "star").Query(t, `mutation { updateUser(username: "star", input: {status: "famous"}) { version } }`, nil); len(resp.Errors) > 0 {
		t.Fatal(resp.Errors)
	}
	ann.pullUntil(t, 1, "Photo UPSERTED "+photoID("star", 2), "User UPSERTED "+userID("star"))
	if got := ann.pull(t, 10); len(got) != 0 {
		t.Errorf("after the end, %v", got)
	}

	// A follower of a user popular already: the profile and latest photos in their own log,
	// then the public log from the follow on.
	dee := startSync(t, srv, "dee")
	srv.MustFollow(t, "dee", "star")
	dee.pullUntil(t, 10, "Friendship UPSERTED "+followID("dee", "star"), "User UPSERTED "+userID("star"),
		"Photo UPSERTED "+photoID("star", 1), "Photo UPSERTED "+photoID("star", 2))
	srv.MustUploadPhoto(t, "star", apitest.Timestamp(3))
	dee.pullUntil(t, 10, "Photo UPSERTED "+photoID("star", 3))
	ann.pullUntil(t, 10, "Photo UPSERTED "+photoID("star", 3))

	page := `query($after: String) { viewer { changes(after: $after) { edges { node { objectId } } cursor } } }`
	c := srv.As(t, "dee").QueryWithin(t, 4, page, map[string]any{"after": dee.cursor}).Cost(t)
	assertRequests(t, c, map[string]int{"Query": 3, "GetItem": 1}) // own log, popular follows, star's public log; the viewer

	// ann unfollows: star's photos and profile leave her scope, and her pages read her own
	// log alone.
	if code := srv.Unfollow(t, "ann", "star").Code(); code != "" {
		t.Fatal(code)
	}
	ann.pullUntil(t, 10, "Friendship DELETED "+followID("ann", "star"), "User DELETED "+userID("star"))
	c = srv.As(t, "ann").QueryWithin(t, 3, page, map[string]any{"after": ann.cursor}).Cost(t)
	assertRequests(t, c, map[string]int{"Query": 2, "GetItem": 1})
}

// TestChanges_AnOnlineClientIsPoked: changesAvailable tells a connected client that its log has
// grown, and nothing of what; the client then reads the changes.
func TestChanges_AnOnlineClientIsPoked(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithLive(live.Config{}), apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob", "cy")
	if code := srv.DialWS(t, "").SubscribeRefused(t, "p", `subscription { changesAvailable { received } }`, nil); code != "UNAUTHENTICATED" {
		t.Fatalf("changesAvailable without a token: %s, want UNAUTHENTICATED", code)
	}
	ann := startSync(t, srv, "ann")
	ws := srv.DialWS(t, srv.Token(t, "ann"))
	ws.Subscribe(t, "p", `subscription { changesAvailable { received } }`, nil)
	srv.MustFollow(t, "cy", "bob") // not ann's scope: no event for her
	srv.MustFollow(t, "bob", "ann")
	var poke struct{ ChangesAvailable struct{ Received int } }
	resp, _ := ws.Next(t, "p")
	resp.Decode(t, &poke)
	if poke.ChangesAvailable.Received < 1 {
		t.Errorf("a poke %+v, want the count of changes ann's log received", poke)
	}
	ann.pullUntil(t, 10, "Friendship UPSERTED "+followID("bob", "ann"))
}
