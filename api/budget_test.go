package api_test

import (
	"fmt"
	"testing"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestRequestBudgets checks the DynamoDB requests each access pattern and each nesting level
// costs (docs/design.md, "Access patterns"): one wave of batched requests per level, never one
// request per parent where a batch exists.
func TestRequestBudgets(t *testing.T) {
	srv := apitest.NewServer(t)
	for i := 0; i < 120; i++ {
		srv.MustCreateUser(t, fmt.Sprintf("u%03d", i))
	}
	for i := 0; i < 3; i++ {
		srv.MustUploadPhoto(t, "u000", apitest.Timestamp(i))
		srv.MustUploadPhoto(t, "u001", apitest.Timestamp(i))
	}
	srv.MustReact(t, "u002", "u000", apitest.Timestamp(0), "HEART")
	srv.MustFollow(t, "u003", "u000")
	srv.MustFollow(t, "u004", "u001")

	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf("u%03d", i+10)
	}

	for _, tc := range []struct {
		name  string
		query string
		vars  map[string]any
		want  map[string]int
	}{
		// A level of one key reads it with a GetItem, of several with a BatchGetItem: one
		// request either way.
		{"GetUserProfile", `{ user(username: "u005") { name status } }`, nil,
			map[string]int{"GetItem": 1}},
		{"AliasesShareOneBatch", `{ a: user(username: "u005") { name } b: user(username: "u006") { name } c: user(username: "u005") { email } }`, nil,
			map[string]int{"BatchGetItem": 1}},
		{"HundredUsersOneBatch", `query($n: [ID!]!) { users(usernames: $n) { username } }`, map[string]any{"n": many},
			map[string]int{"BatchGetItem": 1}},
		{"PhotoWithItsOwner_OneBatch", `query($t: String!) { photo(owner: "u000", timestamp: $t) { url owner { name } } }`, map[string]any{"t": apitest.Timestamp(1)},
			map[string]int{"BatchGetItem": 1}},
		{"PhotoWithReactionsAndReactors", `query($t: String!) { photo(owner: "u000", timestamp: $t) { url reactions { edges { node { user { name } } } } } }`, map[string]any{"t": apitest.Timestamp(0)},
			map[string]int{"Query": 1, "GetItem": 1}},
		{"PhotosOfSeveralUsers_OwnersPrimed", `{ users(usernames: ["u000", "u001"]) { photos(first: 2) { edges { node { owner { name } } } } } }`, nil,
			map[string]int{"BatchGetItem": 1, "Query": 2}},
		{"PhotosWithTheProfile_OneQuery", `{ user(username: "u001") { name photos(first: 5) { edges { node { url } } } } }`, nil,
			map[string]int{"Query": 1}},
		// Each user's connection reads its followers' profiles: one BatchGetItem for the level,
		// not one per user (a connection within a list leaves them to the window).
		{"FollowersOfSeveralUsers_OneBatchPerLevel", `{ users(usernames: ["u000", "u001"]) { followers(first: 5) { edges { node { follower { name } } } } } }`, nil,
			map[string]int{"BatchGetItem": 2, "Query": 2}},
		// A page of photos proves its owner exists: asked for by name, the profile is not read,
		// and with a profile field, it is (the page is not the last, which would bring it).
		{"PhotosByName_OneQuery", `{ user(username: "u000") { id username photos(first: 2) { edges { node { url } } } } }`, nil,
			map[string]int{"Query": 1}},
		{"PhotosNotLastWithProfile_QueryAndGetItem", `{ user(username: "u000") { name photos(first: 2) { edges { node { url } } } } }`, nil,
			map[string]int{"Query": 1, "GetItem": 1}},
		// A followed user asked for by name and photos is not read: its photos' Query is all.
		// Nor is the follower at the root, asked for nothing but whom they follow: a
		// friendship proves its users exist.
		{"FollowedByName_NoProfileRead", `{ user(username: "u003") { following(first: 5) { edges { node { followed { id username ... on User { photos(first: 2) { edges { node { url } } } } } } } } } }`, nil,
			map[string]int{"Query": 2}},
		{"FollowedWithProfile_ProfileRead", `{ user(username: "u003") { following(first: 5) { edges { node { followed { username name } } } } } }`, nil,
			map[string]int{"GetItem": 1, "Query": 1}},
		{"FollowingCounted_ProfileRead", `{ user(username: "u003") { following(first: 5) { totalCount edges { node { followed { username } } } } } }`, nil,
			map[string]int{"GetItem": 1, "Query": 1}},
		{"ReactionPhotosBatched", `{ user(username: "u002") { reactions { edges { node { photo { url owner { name } } } } } } }`, nil,
			map[string]int{"GetItem": 3, "Query": 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := srv.QueryWithin(t, budget(tc.want), tc.query, tc.vars)
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %+v", resp.Errors)
			}
			c := resp.Cost(t)
			assertRequests(t, c, tc.want)
			if c.ReadCapacityUnits <= 0 {
				t.Errorf("no read capacity reported: %+v", c)
			}
		})
	}
}

// budget is the number of requests want adds up to.
func budget(want map[string]int) int {
	n := 0
	for _, c := range want {
		n += c
	}
	return n
}

// assertRequests checks that an operation cost exactly want: so many requests of each kind,
// and no other.
func assertRequests(t *testing.T, c dynamo.CostSnapshot, want map[string]int) {
	t.Helper()
	for op, n := range want {
		if c.Operations[op] != n {
			t.Errorf("%s: %d requests, want %d (cost %+v)", op, c.Operations[op], n, c)
		}
	}
	if total := budget(want); c.Requests != total {
		t.Errorf("%d requests in all, want %d (cost %+v)", c.Requests, total, c)
	}
}
