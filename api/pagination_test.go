package api_test

import (
	"fmt"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// pageThrough fetches every page of the connection at path in query (variables $after and
// $first) and returns each edge's key, as produced by key.
func pageThrough(t *testing.T, srv *apitest.Server, query string, first int, edges func(*apitest.Response) ([]string, bool, string)) []string {
	t.Helper()
	var all []string
	var after any
	for i := 0; i < 100; i++ {
		resp := srv.Query(t, query, map[string]any{"first": first, "after": after})
		keys, hasNext, end := edges(resp)
		if len(keys) > first {
			t.Fatalf("page of %d edges, asked for %d", len(keys), first)
		}
		all = append(all, keys...)
		if !hasNext {
			return all
		}
		after = end
	}
	t.Fatal("more than 100 pages")
	return nil
}

type connection struct {
	Edges []struct {
		Node struct {
			Type     string
			Followed struct{ Username string }
			Photo    struct{ Timestamp string }
		}
	}
	PageInfo struct {
		HasNextPage bool
		EndCursor   string
	}
}

func TestPagination_FollowingAndUserReactions(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "me")
	for i := 0; i < 7; i++ {
		u := fmt.Sprintf("u%d", i)
		srv.MustCreateUser(t, u)
		srv.MustFollow(t, "me", u)
		srv.MustUploadPhoto(t, u, apitest.Timestamp(i))
	}
	// Reactions in three of the four type partitions, of different sizes.
	var want []string
	for _, typ := range []string{"THUMBS_UP", "HEART", "SUNGLASSES"} {
		for i := 0; i < 3; i++ {
			if typ == "HEART" && i == 2 {
				continue
			}
			srv.MustReact(t, "me", fmt.Sprintf("u%d", i), apitest.Timestamp(i), typ)
			want = append(want, typ+"/"+apitest.Timestamp(i))
		}
	}

	for _, first := range []int{1, 2, 3, 100} {
		t.Run(fmt.Sprintf("Following_first%d", first), func(t *testing.T) {
			got := pageThrough(t, srv, `query($first: Int, $after: String) { user(username: "me") { following(first: $first, after: $after) {
				edges { node { followed { username } } } pageInfo { hasNextPage endCursor } } } }`, first,
				func(r *apitest.Response) ([]string, bool, string) {
					var d struct {
						User struct{ Following connection }
					}
					r.Decode(t, &d)
					var keys []string
					for _, e := range d.User.Following.Edges {
						keys = append(keys, e.Node.Followed.Username)
					}
					return keys, d.User.Following.PageInfo.HasNextPage, d.User.Following.PageInfo.EndCursor
				})
			if fmt.Sprint(got) != "[u0 u1 u2 u3 u4 u5 u6]" {
				t.Fatalf("following %v", got)
			}
		})
		t.Run(fmt.Sprintf("UserReactions_first%d", first), func(t *testing.T) {
			got := pageThrough(t, srv, `query($first: Int, $after: String) { user(username: "me") { reactions(first: $first, after: $after) {
				edges { node { type photo { timestamp } } } pageInfo { hasNextPage endCursor } } } }`, first,
				func(r *apitest.Response) ([]string, bool, string) {
					var d struct {
						User struct{ Reactions connection }
					}
					r.Decode(t, &d)
					var keys []string
					for _, e := range d.User.Reactions.Edges {
						keys = append(keys, e.Node.Type+"/"+e.Node.Photo.Timestamp)
					}
					return keys, d.User.Reactions.PageInfo.HasNextPage, d.User.Reactions.PageInfo.EndCursor
				})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("reactions %v, want %v", got, want)
			}
		})
	}
}
