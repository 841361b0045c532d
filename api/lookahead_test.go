package api_test

import (
	"fmt"
	"reflect"
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
			want := map[string]int{"Query": 1} // a follower asked for by name is not read
			resp := srv.QueryWithin(t, budget(want), tc.query, map[string]any{"n": 5})
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %+v", resp.Errors)
			}
			assertRequests(t, resp.Cost(t), want)
		})
	}
}

// TestRelatedUser_ByNameAnswersAsRead: a user that a friendship, a reaction or a photo names,
// asked for only by what its username answers, is not read, and is answered as when it is:
// each query, with the profile's name added to the user's selection, gives the same answer
// beside the name.
func TestRelatedUser_ByNameAnswersAsRead(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, u := range []string{"ada", "bob", "cy"} {
		srv.MustCreateUser(t, u)
	}
	srv.MustFollow(t, "bob", "ada")
	srv.MustFollow(t, "cy", "ada")
	srv.MustFollow(t, "ada", "bob")
	for i := 0; i < 3; i++ {
		srv.MustUploadPhoto(t, "ada", apitest.Timestamp(i))
	}
	srv.MustReact(t, "bob", "ada", apitest.Timestamp(1), "HEART")
	const byName = `id username __typename ... on Node { id } photos(first: 2) { edges { node { url } } } reactions(first: 2) { edges { node { type } } }`
	for _, tc := range []struct{ name, query string }{
		{"Followed", `{ user(username: "bob") { following { edges { node { followed { %s } } } } } }`},
		{"Follower", `{ user(username: "ada") { followers { edges { node { follower { %s } } } } } }`},
		{"PhotoOwner", `{ user(username: "bob") { reactions { edges { node { photo { owner { %s } } } } } } }`},
		{"Reactor", `query($t: String!) { photo(owner: "ada", timestamp: $t) { reactions { edges { node { user { %s } } } } } }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]any{"t": apitest.Timestamp(1)}
			answersAsRead(t, srv.Query(t, fmt.Sprintf(tc.query, byName), vars), srv.Query(t, fmt.Sprintf(tc.query, byName+" name"), vars))
		})
	}
}

// dropNames removes every "name" key from a decoded JSON value.
func dropNames(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "name")
		for _, e := range v {
			dropNames(e)
		}
	case []any:
		for _, e := range v {
			dropNames(e)
		}
	}
}

// TestUser_ByNameWithAList: a user asked for by name with a page of their photos, or of whom
// they follow, is read only when the page cannot prove the user exists: null for no such user,
// the user for one with an empty list, and the same answer as a read for one with a full page.
func TestUser_ByNameWithAList(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "ada")
	srv.MustCreateUser(t, "bob") // no photos, follows nobody
	for i := 0; i < 3; i++ {
		srv.MustUploadPhoto(t, "ada", apitest.Timestamp(i))
	}
	srv.MustFollow(t, "ada", "bob")
	for _, list := range []struct{ name, selection, empty string }{
		{"photos", `photos(first: 2) { edges { node { url } } }`, `"photos":{"edges":[]}`},
		{"following", `following(first: 2) { edges { node { followed { username } } } }`, `"following":{"edges":[]}`},
	} {
		query := `query($u: ID!) { user(username: $u) { id username %s ` + list.selection + ` } }`
		for _, tc := range []struct {
			username string
			want     string
		}{
			{"nobody", `{"user":null}`},
			{"bob", `{"user":{"id":"` + nodeID(t, srv, "bob") + `","username":"bob",` + list.empty + `}}`},
		} {
			resp := srv.Query(t, fmt.Sprintf(query, ""), map[string]any{"u": tc.username})
			if len(resp.Errors) > 0 || string(resp.Data) != tc.want {
				t.Errorf("%s: %s %+v, want %s", tc.username, resp.Data, resp.Errors, tc.want)
			}
		}
		t.Run(list.name, func(t *testing.T) {
			vars := map[string]any{"u": "ada"}
			answersAsRead(t, srv.Query(t, fmt.Sprintf(query, ""), vars), srv.Query(t, fmt.Sprintf(query, "name"), vars))
		})
	}
}

// answersAsRead checks that byName, a query whose users are asked for by name, answers as
// read, the same query with each user's name added, does beside the names, and with fewer
// DynamoDB requests: its users were not read.
func answersAsRead(t *testing.T, byName, read *apitest.Response) {
	t.Helper()
	var got, want any
	byName.Decode(t, &got)
	read.Decode(t, &want)
	dropNames(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("by name:\n%s\nread:\n%s", byName.Data, read.Data)
	}
	if byName.Cost(t).Requests >= read.Cost(t).Requests {
		t.Errorf("by name cost %d requests, read %d: the user was read", byName.Cost(t).Requests, read.Cost(t).Requests)
	}
}

// nodeID is the global id of username's user, as the server gives it.
func nodeID(t *testing.T, srv *apitest.Server, username string) string {
	t.Helper()
	var out struct{ User struct{ ID string } }
	srv.Query(t, `query($u: ID!) { user(username: $u) { id name } }`, map[string]any{"u": username}).Decode(t, &out)
	return out.User.ID
}
