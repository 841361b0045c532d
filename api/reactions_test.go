package api_test

import (
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// alicesPhoto starts a server where bob and alice exist and alice has uploaded a photo at ts.
func alicesPhoto(t *testing.T, ts string) *apitest.Server {
	t.Helper()
	srv := apitest.NewServer(t)
	srv.MustCreateUsers(t, "alice", "bob")
	srv.MustUploadPhoto(t, "alice", ts)
	return srv
}

// alicesPhotoWithReactions is alicesPhoto with three reactions: bob's THUMBS_UP and HEART and
// alice's own THUMBS_UP.
func alicesPhotoWithReactions(t *testing.T, ts string) *apitest.Server {
	t.Helper()
	srv := alicesPhoto(t, ts)
	srv.MustReact(t, "bob", "alice", ts, "THUMBS_UP")
	srv.MustReact(t, "alice", "alice", ts, "THUMBS_UP")
	srv.MustReact(t, "bob", "alice", ts, "HEART")
	return srv
}

func TestReactToPhoto(t *testing.T) {
	ts := apitest.Timestamp(1)

	t.Run("OK_CountsOnThePhoto", func(t *testing.T) {
		srv := alicesPhoto(t, ts)
		resp := srv.React(t, "bob", "alice", ts, "THUMBS_UP")
		if c := resp.Cost(t); len(resp.Errors) > 0 || c.Requests != 1 || c.Operations["TransactWriteItems"] != 1 {
			t.Fatalf("errors %+v, cost %+v: want one TransactWriteItems", resp.Errors, c)
		}
		srv.MustReact(t, "alice", "alice", ts, "THUMBS_UP")
		srv.MustReact(t, "bob", "alice", ts, "HEART")
		counts := reactionCounts(t, srv, ts)
		if counts.ThumbsUp != 2 || counts.Heart != 1 || counts.Total != 3 {
			t.Fatalf("counts %+v", counts)
		}
	})

	for name, tc := range map[string]struct{ user, owner, ts, typ, code string }{
		"ErrAlreadyReacted":   {"bob", "alice", ts, "HEART", "CONFLICT"},
		"ErrPhotoNotFound":    {"bob", "alice", apitest.Timestamp(99), "HEART", "NOT_FOUND"},
		"ErrUserNotFound":     {"nobody", "alice", ts, "HEART", "NOT_FOUND"},
		"ErrBadTimestamp":     {"bob", "alice", "2024-13-01T00:00:00Z", "HEART", "BAD_USER_INPUT"},
		"ErrUsernameWithHash": {"b#b", "alice", ts, "HEART", "BAD_USER_INPUT"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := alicesPhotoWithReactions(t, ts)
			before := srv.ItemCount(t)
			if resp := srv.React(t, tc.user, tc.owner, tc.ts, tc.typ); resp.Code() != tc.code {
				t.Fatalf("code %q, want %s: %+v", resp.Code(), tc.code, resp.Errors)
			}
			if srv.ItemCount(t) != before {
				t.Fatal("a refused reaction wrote")
			}
			if counts := reactionCounts(t, srv, ts); counts.Total != 3 {
				t.Fatalf("counts changed: %+v", counts)
			}
		})
	}

	t.Run("RemoveReaction", func(t *testing.T) {
		srv := alicesPhotoWithReactions(t, ts)
		const remove = `mutation($t: String!) { removeReaction(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { type timestamp user { username } } }`
		resp := srv.Query(t, remove, map[string]any{"t": ts})
		var got struct {
			RemoveReaction struct {
				Type      string
				Timestamp string
				User      struct{ Username string }
			}
		}
		resp.Decode(t, &got)
		if got.RemoveReaction.Type != "HEART" || got.RemoveReaction.User.Username != "bob" || got.RemoveReaction.Timestamp == "" {
			t.Fatalf("removed %+v", got.RemoveReaction)
		}
		if counts := reactionCounts(t, srv, ts); counts.Heart != 0 || counts.Total != 2 {
			t.Fatalf("counts %+v after removal", counts)
		}
		if resp := srv.Query(t, remove, map[string]any{"t": ts}); resp.Code() != "NOT_FOUND" {
			t.Fatalf("second removal: code %q, want NOT_FOUND", resp.Code())
		}
	})
}

type counts struct{ Heart, Smiley, ThumbsUp, Sunglasses, Total int }

func reactionCounts(t *testing.T, srv *apitest.Server, ts string) counts {
	t.Helper()
	var got struct {
		Photo struct{ ReactionCounts counts }
	}
	srv.Query(t, `query($t: String!) { photo(owner: "alice", timestamp: $t) { reactionCounts { heart smiley thumbsUp sunglasses total } } }`,
		map[string]any{"t": ts}).Decode(t, &got)
	return got.Photo.ReactionCounts
}

func TestPhotoWithReactions(t *testing.T) {
	srv := apitest.NewServer(t)
	users := []string{"alice", "bob", "carol", "dave", "erin"}
	for _, u := range users {
		srv.MustCreateUser(t, u)
	}
	ts := apitest.Timestamp(1)
	srv.MustUploadPhoto(t, "alice", ts)
	for _, u := range users[1:] {
		srv.MustReact(t, u, "alice", ts, "HEART")
		srv.MustReact(t, u, "alice", ts, "SUNGLASSES")
	}

	const q = `query($t: String!, $after: String) { photo(owner: "alice", timestamp: $t) { url reactionCounts { total }
		reactions(first: 3, after: $after) { totalCount edges { node { type user { name } } } pageInfo { hasNextPage endCursor } } } }`
	type page struct {
		Photo *struct {
			URL       string
			Reactions struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						Type string
						User struct{ Name string }
					}
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   string
				}
			}
		}
	}
	var first page
	resp := srv.QueryWithin(t, 2, q, map[string]any{"t": ts})
	resp.Decode(t, &first)
	if first.Photo == nil || first.Photo.Reactions.TotalCount != 8 || len(first.Photo.Reactions.Edges) != 3 || !first.Photo.Reactions.PageInfo.HasNextPage {
		t.Fatalf("first page %+v", first.Photo)
	}
	// Pattern 7: the photo and its reactions in one Query on InvertedIndex; then one batch of profiles.
	if c := resp.Cost(t); c.Requests != 2 || c.Operations["Query"] != 1 || c.Operations["BatchGetItem"] != 1 {
		t.Fatalf("cost %+v, want 1 Query + 1 BatchGetItem", c)
	}
	total := len(first.Photo.Reactions.Edges)
	after := first.Photo.Reactions.PageInfo.EndCursor
	for after != "" {
		var next page
		srv.Query(t, q, map[string]any{"t": ts, "after": after}).Decode(t, &next)
		total += len(next.Photo.Reactions.Edges)
		after = ""
		if next.Photo.Reactions.PageInfo.HasNextPage {
			after = next.Photo.Reactions.PageInfo.EndCursor
		}
	}
	if total != 8 {
		t.Fatalf("paged through %d reactions, want 8", total)
	}

	t.Run("NullWhenAbsent", func(t *testing.T) {
		var got page
		srv.Query(t, q, map[string]any{"t": apitest.Timestamp(2)}).Decode(t, &got)
		if got.Photo != nil {
			t.Fatalf("got %+v, want null", got.Photo)
		}
	})

	t.Run("UserReactionsWithTheirPhotos", func(t *testing.T) {
		resp := srv.Query(t, `{ user(username: "bob") { reactions(first: 10) { totalCount edges { node { type photo { url owner { username } } } } } } }`, nil)
		var got struct {
			User struct {
				Reactions struct {
					TotalCount *int
					Edges      []struct {
						Node struct {
							Type  string
							Photo struct {
								URL   string
								Owner struct{ Username string }
							}
						}
					}
				}
			}
		}
		resp.Decode(t, &got)
		r := got.User.Reactions
		if r.TotalCount != nil || len(r.Edges) != 2 || r.Edges[0].Node.Type != "HEART" || r.Edges[1].Node.Type != "SUNGLASSES" || r.Edges[0].Node.Photo.Owner.Username != "alice" {
			t.Fatalf("reactions %+v", r)
		}
	})
}
