package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// feedPage is one page of a feed as the API answers it.
type feedPage struct {
	Photos []string // "owner@timestamp", in feed order
	End    string
	More   bool
}

const feedQuery = `query($u: ID!, $first: Int, $after: String) {
  user(username: $u) { feed(first: $first, after: $after) {
    edges { cursor node { owner { username } timestamp reactionCounts { total } } }
    pageInfo { hasNextPage endCursor } } } }`

// readFeed reads a page of reader's feed.
func readFeed(t *testing.T, srv *apitest.Server, reader string, first int, after string) feedPage {
	t.Helper()
	vars := map[string]any{"u": reader, "first": first}
	if after != "" {
		vars["after"] = after
	}
	var got struct {
		User struct {
			Feed struct {
				Edges []struct {
					Node struct {
						Owner          struct{ Username string }
						Timestamp      string
						ReactionCounts struct{ Total int }
					}
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
	}
	srv.Query(t, feedQuery, vars).Decode(t, &got)
	var p feedPage
	for _, e := range got.User.Feed.Edges {
		p.Photos = append(p.Photos, e.Node.Owner.Username+"@"+e.Node.Timestamp)
	}
	if c := got.User.Feed.PageInfo.EndCursor; c != nil {
		p.End = *c
	}
	p.More = got.User.Feed.PageInfo.HasNextPage
	return p
}

// readWholeFeed reads reader's feed a page of size at a time, and returns its photos and the
// last page's end cursor.
func readWholeFeed(t *testing.T, srv *apitest.Server, reader string, size int) (photos []string, end string) {
	t.Helper()
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("the feed's pages never end")
		}
		p := readFeed(t, srv, reader, size, end)
		photos = append(photos, p.Photos...)
		if !p.More {
			return photos, end
		}
		end = p.End
	}
}

// feedBecomes waits until reader's first page of 100 is want (owner@timestamp, newest first).
func feedBecomes(t *testing.T, srv *apitest.Server, reader string, want ...string) {
	t.Helper()
	apitest.Eventually(t, reader+"'s feed is ["+strings.Join(want, " ")+"]", func() (bool, string) {
		got := readFeed(t, srv, reader, 100, "").Photos
		return slices.Equal(got, want), fmt.Sprint(got)
	})
}

func photo(owner string, i int) string { return owner + "@" + apitest.Timestamp(i) }

func TestFeed(t *testing.T) {
	t.Run("a follower sees the photos uploaded after the follow, newest first", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
		srv.MustCreateUsers(t, "ann", "bob", "cy")
		srv.MustFollow(t, "ann", "bob")
		srv.MustFollow(t, "ann", "cy")
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(1))
		srv.MustUploadPhoto(t, "cy", apitest.Timestamp(2))
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(3))
		feedBecomes(t, srv, "ann", photo("bob", 3), photo("cy", 2), photo("bob", 1))
		feedBecomes(t, srv, "bob") // no one bob follows uploaded anything
	})

	t.Run("the photos of many followed users come in one order, newest first", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
		srv.MustCreateUser(t, "ann")
		var want []string
		for i := 0; i < 12; i++ {
			u := fmt.Sprintf("u%02d", i)
			srv.MustCreateUser(t, u)
			srv.MustFollow(t, "ann", u)
		}
		for round := 0; round < 2; round++ { // timestamps interleave across users
			for i := 0; i < 12; i++ {
				n := round*12 + (i*5)%12 + 1
				srv.MustUploadPhoto(t, fmt.Sprintf("u%02d", i), apitest.Timestamp(n))
				want = append(want, photo(fmt.Sprintf("u%02d", i), n))
			}
		}
		slices.SortFunc(want, func(a, b string) int { return strings.Compare(b[4:], a[4:]) })
		feedBecomes(t, srv, "ann", want...)
		if got, _ := readWholeFeed(t, srv, "ann", 5); !slices.Equal(got, want) {
			t.Errorf("pages of 5 gave %v, want %v", got, want)
		}
	})

	t.Run("following brings the followed user's latest photos", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{Backfill: 2}))
		srv.MustCreateUsers(t, "ann", "bob", "cy")
		srv.MustFollow(t, "cy", "bob")
		for i := 1; i <= 3; i++ {
			srv.MustUploadPhoto(t, "bob", apitest.Timestamp(i))
		}
		// Once cy's feed has them, the uploads were fanned out: ann, who follows later, gets
		// the latest two from the follow alone.
		feedBecomes(t, srv, "cy", photo("bob", 3), photo("bob", 2), photo("bob", 1))
		srv.MustFollow(t, "ann", "bob")
		feedBecomes(t, srv, "ann", photo("bob", 3), photo("bob", 2))
	})

	t.Run("unfollowing takes the followed user's photos out", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
		srv.MustCreateUsers(t, "ann", "bob", "cy")
		srv.MustFollow(t, "ann", "bob")
		srv.MustFollow(t, "ann", "cy")
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(1))
		srv.MustUploadPhoto(t, "cy", apitest.Timestamp(2))
		feedBecomes(t, srv, "ann", photo("cy", 2), photo("bob", 1))
		if code := srv.Unfollow(t, "ann", "bob").Code(); code != "" {
			t.Fatalf("unfollow: %s", code)
		}
		feedBecomes(t, srv, "ann", photo("cy", 2))
	})

	t.Run("a deleted photo leaves every feed", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
		srv.MustCreateUsers(t, "ann", "bob", "cy")
		srv.MustFollow(t, "ann", "cy")
		srv.MustFollow(t, "bob", "cy")
		srv.MustUploadPhoto(t, "cy", apitest.Timestamp(1))
		srv.MustUploadPhoto(t, "cy", apitest.Timestamp(2))
		feedBecomes(t, srv, "ann", photo("cy", 2), photo("cy", 1))
		if code := srv.DeletePhoto(t, "cy", apitest.Timestamp(2)).Code(); code != "" {
			t.Fatalf("delete: %s", code)
		}
		feedBecomes(t, srv, "ann", photo("cy", 1))
		feedBecomes(t, srv, "bob", photo("cy", 1))
	})

	t.Run("a photo written past the API, by any DynamoDB client, is fanned out too", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
		srv.MustCreateUsers(t, "ann", "bob")
		srv.MustFollow(t, "ann", "bob")
		srv.WriteRaw(t, domain.Dataset{Photos: []domain.Photo{{Owner: "bob", Timestamp: apitest.Timestamp(7), URL: "https://cdn.example.com/b.jpg"}}})
		feedBecomes(t, srv, "ann", photo("bob", 7))
	})

	t.Run("pages follow one another with the usual cursor rules", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
		srv.MustCreateUsers(t, "ann", "bob")
		srv.MustFollow(t, "ann", "bob")
		var want []string
		for i := 5; i >= 1; i-- {
			srv.MustUploadPhoto(t, "bob", apitest.Timestamp(i))
			want = append(want, photo("bob", i))
		}
		feedBecomes(t, srv, "ann", want...)
		got, after := readWholeFeed(t, srv, "ann", 2)
		if !slices.Equal(got, want) {
			t.Fatalf("pages of 2 gave %v, want %v", got, want)
		}
		if code := srv.Query(t, feedQuery, map[string]any{"u": "bob", "first": 2, "after": after}).Code(); code != "BAD_USER_INPUT" {
			t.Errorf("ann's cursor on bob's feed: code %q, want BAD_USER_INPUT", code)
		}
	})
}

// TestFeed_PagesGoOnPastPhotosDeletedMeanwhile: a feed's entries lag deletes (the feed's
// consumer removes a deleted photo's entries a moment later), so a page may read entries whose
// photos are gone. It leaves them out but ends where the entries it read end: a page with
// hasNextPage has an endCursor past them, even when it is left with no photos, and the next
// page does not read them again.
func TestFeed_PagesGoOnPastPhotosDeletedMeanwhile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		photos  int   // bob uploads photos 1 to photos, all in ann's feed
		deleted []int // then deletes these, before the feed's consumer catches up
		first   int
		want    [][]string // the pages ann reads, first to last
	}{
		{"the newest photo deleted, pages of one", 2, []int{2}, 1,
			[][]string{{}, {photo("bob", 1)}}},
		{"the last photo of a page deleted", 4, []int{3}, 2,
			[][]string{{photo("bob", 4)}, {photo("bob", 2), photo("bob", 1)}}},
		{"every photo deleted", 3, []int{1, 2, 3}, 2,
			[][]string{{}, {}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := apitest.NewServer(t) // no feed consumer: nothing removes the entries
			srv.MustCreateUsers(t, "ann", "bob")
			srv.MustFollow(t, "ann", "bob")
			var entries []domain.FeedEntry
			for i := 1; i <= tc.photos; i++ {
				srv.MustUploadPhoto(t, "bob", apitest.Timestamp(i))
				entries = append(entries, domain.FeedEntry{Reader: "ann", Photo: domain.PhotoKey{Owner: "bob", Timestamp: apitest.Timestamp(i)}})
			}
			// What the feed's consumer writes for the uploads.
			if err := srv.Store.AddToFeeds(t.Context(), entries, time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			for _, i := range tc.deleted {
				if code := srv.DeletePhoto(t, "bob", apitest.Timestamp(i)).Code(); code != "" {
					t.Fatalf("delete: %s", code)
				}
			}

			var got [][]string
			after := ""
			for {
				p := readFeed(t, srv, "ann", tc.first, after)
				got = append(got, p.Photos)
				if !p.More {
					break
				}
				if p.End == after {
					t.Fatalf("page %d %v: hasNextPage with endCursor %q, the page's own after: the client cannot go on", len(got), p.Photos, p.End)
				}
				if len(got) > 10 {
					t.Fatalf("the feed's pages never end: %v", got)
				}
				after = p.End
			}
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("pages of %d: %v, want %v", tc.first, got, tc.want)
			}
		})
	}
}

func TestFeed_OnlyItsOwnerReadsIt(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob")
	q := `query($u: ID!) { user(username: $u) { feed { edges { node { timestamp } } } } }`
	if code := srv.As(t, "bob").Query(t, q, map[string]any{"u": "ann"}).Code(); code != "FORBIDDEN" {
		t.Errorf("bob reading ann's feed: code %q, want FORBIDDEN", code)
	}
	if code := srv.As(t, "ann").Query(t, q, map[string]any{"u": "ann"}).Code(); code != "" {
		t.Errorf("ann reading her feed: code %q", code)
	}
	if code := srv.Query(t, `{ feed { edges { cursor } } }`, nil).Code(); code != "UNAUTHENTICATED" {
		t.Errorf("feed without a token: code %q, want UNAUTHENTICATED", code)
	}
	srv.MustFollow(t, "ann", "bob")
	srv.MustUploadPhoto(t, "bob", apitest.Timestamp(1))
	apitest.Eventually(t, "ann's own feed has bob's photo", func() (bool, string) {
		var got struct {
			Feed struct {
				Edges []struct{ Node struct{ Timestamp string } }
			}
		}
		srv.As(t, "ann").Query(t, `{ feed { edges { node { timestamp } } } }`, nil).Decode(t, &got)
		return len(got.Feed.Edges) == 1 && got.Feed.Edges[0].Node.Timestamp == apitest.Timestamp(1), fmt.Sprint(got)
	})
}

// TestFeed_Budget: a page of the feed is one Query on the reader's feed partition, then its
// photos in one BatchGetItem, and their owners in one more when selected.
func TestFeed_Budget(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob", "cy")
	srv.MustFollow(t, "ann", "bob")
	srv.MustFollow(t, "ann", "cy")
	for i := 1; i <= 3; i++ {
		srv.MustUploadPhoto(t, "bob", apitest.Timestamp(2*i))
		srv.MustUploadPhoto(t, "cy", apitest.Timestamp(2*i+1))
	}
	feedBecomes(t, srv, "ann", photo("cy", 7), photo("bob", 6), photo("cy", 5), photo("bob", 4), photo("cy", 3), photo("bob", 2))
	for _, tc := range []struct {
		name, query string
		want        map[string]int
	}{
		{"photos", `{ user(username: "ann") { feed(first: 5) { edges { node { url reactionCounts { total } } } } } }`,
			map[string]int{"Query": 1, "GetItem": 1, "BatchGetItem": 1}}, // the user (one key), then the photos
		{"photos and owners", `{ user(username: "ann") { feed(first: 5) { edges { node { url owner { name } } } } } }`,
			map[string]int{"Query": 1, "GetItem": 1, "BatchGetItem": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assertRequests(t, srv.QueryWithin(t, budget(tc.want), tc.query, nil).Cost(t), tc.want)
		})
	}
}

// TestFeed_PopularUsersAreMergedWhenRead: the photos of a user with FanOutLimit followers or
// more are not written into feeds; a follower's feed merges them in, in order, across pages,
// at one Query per popular user followed. Crossing the limit either way keeps every feed whole.
func TestFeed_PopularUsersAreMergedWhenRead(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{FanOutLimit: 3})) // popular at 3, no longer below 2
	srv.MustCreateUsers(t, "ann", "bob", "cy", "star", "reg")
	srv.MustFollow(t, "ann", "star")
	srv.MustFollow(t, "ann", "reg")
	srv.MustUploadPhoto(t, "star", apitest.Timestamp(1)) // 1 follower: fanned out
	feedBecomes(t, srv, "ann", photo("star", 1))

	srv.MustFollow(t, "bob", "star")
	srv.MustFollow(t, "cy", "star") // 3 followers: popular from now on
	srv.MustUploadPhoto(t, "star", apitest.Timestamp(2))
	srv.MustUploadPhoto(t, "reg", apitest.Timestamp(3))
	srv.MustUploadPhoto(t, "star", apitest.Timestamp(4))
	srv.MustUploadPhoto(t, "reg", apitest.Timestamp(5))
	all := []string{photo("reg", 5), photo("star", 4), photo("reg", 3), photo("star", 2), photo("star", 1)}
	feedBecomes(t, srv, "ann", all...)
	feedBecomes(t, srv, "bob", photo("star", 4), photo("star", 2), photo("star", 1))

	if got, _ := readWholeFeed(t, srv, "ann", 2); !slices.Equal(got, all) {
		t.Errorf("pages of 2 gave %v, want %v", got, all)
	}

	c := srv.QueryWithin(t, 4, `{ user(username: "ann") { feed(first: 3) { edges { node { url } } } } }`, nil).Cost(t)
	if c.Operations["Query"] != 2 || c.Operations["GetItem"] != 1 || c.Operations["BatchGetItem"] != 1 || c.Requests != 4 {
		t.Errorf("a page with one popular user followed: %+v, want 2 Queries (the feed, the popular user's photos), a GetItem (ann) and a BatchGetItem (the fanned-out photos)", c)
	}

	// bob and cy leave: star is no longer popular; ann's feed gets star's photos written in,
	// and reads no partition but its own.
	for _, f := range []string{"bob", "cy"} {
		if code := srv.Unfollow(t, f, "star").Code(); code != "" {
			t.Fatalf("unfollow: %s", code)
		}
	}
	feedBecomes(t, srv, "bob")
	srv.MustUploadPhoto(t, "star", apitest.Timestamp(6))
	feedBecomes(t, srv, "ann", append([]string{photo("star", 6)}, all...)...)
	apitest.Eventually(t, "ann's feed reads only its own partition", func() (bool, string) {
		c := srv.Query(t, `{ user(username: "ann") { feed(first: 3) { edges { node { url } } } } }`, nil).Cost(t)
		return c.Operations["Query"] == 1, fmt.Sprint(c)
	})
}
