package api_test

import (
	"fmt"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

const follow = `mutation($a: ID!, $b: ID!) { followUser(input: {follower: $a, followed: $b}) { follower { username followingCount } followed { username followerCount } } }`

// bobFollowsAlice starts a server where alice and bob exist and bob follows alice.
func bobFollowsAlice(t *testing.T) *apitest.Server {
	t.Helper()
	srv := apitest.NewServer(t)
	srv.MustCreateUsers(t, "alice", "bob")
	srv.MustFollow(t, "bob", "alice")
	return srv
}

func TestFollowUser(t *testing.T) {
	t.Run("OK_CountsOnBothProfiles", func(t *testing.T) {
		srv := apitest.NewServer(t)
		srv.MustCreateUsers(t, "alice", "bob")
		resp := srv.Query(t, follow, map[string]any{"a": "bob", "b": "alice"})
		var got struct {
			FollowUser struct {
				Follower struct{ FollowingCount int }
				Followed struct{ FollowerCount int }
			}
		}
		resp.Decode(t, &got)
		if got.FollowUser.Follower.FollowingCount != 1 || got.FollowUser.Followed.FollowerCount != 1 {
			t.Fatalf("counts %+v", got.FollowUser)
		}
		if c := resp.Cost(t); c.Operations["TransactWriteItems"] != 1 {
			t.Fatalf("cost %+v, want one TransactWriteItems", c)
		}
	})

	for name, tc := range map[string]struct{ a, b, code string }{
		"ErrAlreadyFollowing": {"bob", "alice", "CONFLICT"},
		"ErrSelfFollow":       {"alice", "alice", "BAD_USER_INPUT"},
		"ErrFollowedNotFound": {"alice", "nobody", "NOT_FOUND"},
		"ErrFollowerNotFound": {"nobody", "alice", "NOT_FOUND"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := bobFollowsAlice(t)
			before := srv.ItemCount(t)
			if resp := srv.Query(t, follow, map[string]any{"a": tc.a, "b": tc.b}); resp.Code() != tc.code {
				t.Fatalf("code %q, want %s: %+v", resp.Code(), tc.code, resp.Errors)
			}
			if srv.ItemCount(t) != before {
				t.Fatal("a refused follow wrote")
			}
			assertCounts(t, srv, "alice", 1, 0)
			assertCounts(t, srv, "bob", 0, 1)
		})
	}

	t.Run("Unfollow", func(t *testing.T) {
		srv := bobFollowsAlice(t)
		const unfollow = `mutation { unfollowUser(input: {follower: "bob", followed: "alice"}) { timestamp } }`
		if resp := srv.Query(t, unfollow, nil); len(resp.Errors) > 0 {
			t.Fatalf("unfollow: %+v", resp.Errors)
		}
		assertCounts(t, srv, "alice", 0, 0)
		assertCounts(t, srv, "bob", 0, 0)
		if resp := srv.Query(t, unfollow, nil); resp.Code() != "NOT_FOUND" {
			t.Fatalf("second unfollow: code %q, want NOT_FOUND", resp.Code())
		}
	})
}

func assertCounts(t *testing.T, srv *apitest.Server, username string, followers, following int) {
	t.Helper()
	var got struct {
		User struct{ FollowerCount, FollowingCount int }
	}
	srv.Query(t, `query($u: ID!) { user(username: $u) { followerCount followingCount } }`, map[string]any{"u": username}).Decode(t, &got)
	if got.User.FollowerCount != followers || got.User.FollowingCount != following {
		t.Fatalf("%s: followers %d following %d, want %d and %d", username, got.User.FollowerCount, got.User.FollowingCount, followers, following)
	}
}

func TestFollowersAndFollowing(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "star")
	var fans []string
	for i := 0; i < 12; i++ {
		fan := fmt.Sprintf("fan%02d", i)
		fans = append(fans, fan)
		srv.MustCreateUser(t, fan)
		srv.MustFollow(t, fan, "star")
	}
	for _, other := range fans[:5] {
		srv.MustFollow(t, "star", other)
	}

	t.Run("FollowersWithProfiles_OneQueryAndOneBatch", func(t *testing.T) {
		const q = `query($after: String) { user(username: "star") { name followerCount followers(first: 5, after: $after) {
			totalCount edges { node { follower { username name } } } pageInfo { hasNextPage endCursor } } } }`
		var names []string
		var after any
		for page := 0; ; page++ {
			wantRequests := 2 // pattern 9: the profile with its followers in one Query, plus one BatchGetItem
			if page > 0 {
				wantRequests = 3 // later pages do not reach the profile: it is read too
			}
			resp := srv.QueryWithin(t, wantRequests, q, map[string]any{"after": after})
			var got struct {
				User struct {
					Name          string
					FollowerCount int
					Followers     struct {
						TotalCount int
						Edges      []struct {
							Node struct {
								Follower struct{ Username, Name string }
							}
						}
						PageInfo struct {
							HasNextPage bool
							EndCursor   string
						}
					}
				}
			}
			resp.Decode(t, &got)
			if got.User.Followers.TotalCount != 12 || got.User.FollowerCount != 12 {
				t.Fatalf("totalCount %d, followerCount %d, want 12", got.User.Followers.TotalCount, got.User.FollowerCount)
			}
			for _, e := range got.User.Followers.Edges {
				names = append(names, e.Node.Follower.Username)
				if e.Node.Follower.Name == "" {
					t.Fatalf("follower %s without profile", e.Node.Follower.Username)
				}
			}
			c := resp.Cost(t)
			if c.Requests > wantRequests || c.Operations["Query"] != 1 {
				t.Fatalf("page %d cost %+v, want at most %d requests with one Query", page, c, wantRequests)
			}
			if !got.User.Followers.PageInfo.HasNextPage {
				break
			}
			after = got.User.Followers.PageInfo.EndCursor
		}
		if len(names) != 12 || names[0] != "fan11" || names[11] != "fan00" {
			t.Fatalf("followers %v, want fan11 … fan00", names)
		}
	})

	t.Run("FollowingWithProfiles_OneIndexQueryAndOneBatch", func(t *testing.T) {
		resp := srv.QueryWithin(t, 3, `{ user(username: "star") { following(first: 10) { totalCount edges { node { followed { username name } } } } } }`, nil)
		var got struct {
			User struct {
				Following struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							Followed struct{ Username, Name string }
						}
					}
				}
			}
		}
		resp.Decode(t, &got)
		f := got.User.Following
		if f.TotalCount != 5 || len(f.Edges) != 5 || f.Edges[0].Node.Followed.Username != "fan00" || f.Edges[0].Node.Followed.Name == "" {
			t.Fatalf("following %+v", f)
		}
		// The profile (a GetItem: one key), the index Query, then one batch of 5 profiles.
		if c := resp.Cost(t); c.Operations["Query"] != 1 || c.Operations["GetItem"] != 1 || c.Operations["BatchGetItem"] != 1 || c.Requests != 3 {
			t.Fatalf("cost %+v", c)
		}
	})
}
