package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestBadArgumentsAnywhereAreRefusedBeforeAnyDynamoDBRequest: an argument that fails its
// check, at any depth, in a fragment or through a variable, refuses the whole operation with
// BAD_USER_INPUT at its path, and nothing is read.
func TestBadArgumentsAnywhereAreRefusedBeforeAnyDynamoDBRequest(t *testing.T) {
	cases := []struct {
		name, query string
		vars        map[string]any
		path        string // the refused field's path, dot-separated
		says        string // what the message must mention
	}{
		{"nested first", `{ user(username: "miawright") { name photos(first: 500) { edges { node { url } } } } }`, nil, "user.photos", "first"},
		{"nested first through a variable", `query($n: Int) { user(username: "miawright") { followers(first: $n) { totalCount } } }`, map[string]any{"n": 0}, "user.followers", "first"},
		{"deeper first", `{ photo(owner: "ada", timestamp: "2019-03-03T18:20:10Z") { owner { following(first: 101) { totalCount } } } }`, nil, "photo.owner.following", "first"},
		{"first in a fragment", `{ users(usernames: ["ada"]) { ...F } } fragment F on User { reactions(first: -1) { edges { cursor } } }`, nil, "users.reactions", "first"},
		{"first in an inline fragment, aliased", `{ u: user(username: "ada") { ... on User { p: photos(first: 1000) { edges { cursor } } } } }`, nil, "u.p", "first"},
		{"a sibling's username", `{ a: user(username: "ada") { name } b: user(username: "b#b") { name } }`, nil, "b", "username"},
		{"one bad username given for the list", `{ a: user(username: "ada") { name } users(usernames: "b#b") { name } }`, nil, "users", "usernames"},
		{"too many usernames", fmt.Sprintf(`{ users(usernames: [%s]) { name } }`, strings.Repeat(`"u", `, 101)), nil, "users", "usernames"},
		{"a photo's timestamp with a fraction of a second", `{ user(username: "ada") { name } photo(owner: "ada", timestamp: "2019-03-03T18:20:10.5") { url } }`, nil, "photo", "timestamp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var log apitest.RequestLog
			srv := apitest.NewServer(t, apitest.WithStoreObserver(&log))
			resp := srv.Query(t, c.query, c.vars)
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %+v", resp.Code(), resp.Errors)
			}
			if len(resp.Errors) != 1 {
				t.Fatalf("errors %+v, want one", resp.Errors)
			}
			e := resp.Errors[0]
			if got := pathString(e.Path); got != c.path {
				t.Errorf("path %q, want %q", got, c.path)
			}
			if !strings.Contains(e.Message, c.says) {
				t.Errorf("message %q does not mention %s", e.Message, c.says)
			}
			if reqs := log.Requests(); len(reqs) != 0 {
				t.Errorf("a refused operation sent DynamoDB requests: %v", reqs)
			}
		})
	}

	t.Run("good arguments still run", func(t *testing.T) {
		srv := apitest.NewServer(t)
		srv.MustCreateUser(t, "ada")
		resp := srv.Query(t, `query($n: Int) { user(username: "ada") { photos(first: $n) { edges { cursor } } followers { totalCount } } }`, map[string]any{"n": 100})
		if len(resp.Errors) > 0 {
			t.Fatalf("errors %+v", resp.Errors)
		}
	})
}

func pathString(path []any) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = fmt.Sprint(p)
	}
	return strings.Join(parts, ".")
}
