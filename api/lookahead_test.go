package api_test

import (
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestLookahead_PageArgumentsFromVariables: a profile read with its first page of photos or
// followers comes in one Query (access patterns 5 and 9), whether `first` is a literal or a
// variable: the lookahead reads the page with the reader the resolvers use.
func TestLookahead_PageArgumentsFromVariables(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "ada")
	srv.MustCreateUser(t, "bob")
	srv.MustFollow(t, "bob", "ada")
	for i := 0; i < 3; i++ {
		srv.MustUploadPhoto(t, "ada", apitest.Timestamp(i))
	}
	for _, tc := range []struct {
		name, query string
	}{
		{"photos", `query($n: Int) { user(username: "ada") { name photos(first: $n) { edges { node { url } } } } }`},
		{"followers", `query($n: Int) { user(username: "ada") { name followers(first: $n) { edges { node { follower { username } } } } } }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := map[string]int{"Query": 1}
			if tc.name == "followers" {
				want["GetItem"] = 1 // the follower's profile: one key
			}
			resp := srv.QueryWithin(t, budget(want), tc.query, map[string]any{"n": 5})
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %+v", resp.Errors)
			}
			assertRequests(t, resp.Cost(t), want)
		})
	}
}
