package api_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestBadCursorsAnywhereAreRefusedBeforeAnyDynamoDBRequest: a cursor that no page of its list
// could have ended with, nested in a query or in a mutation's answer, a literal or a variable,
// refuses the whole operation with BAD_USER_INPUT before anything is read or written.
func TestBadCursorsAnywhereAreRefusedBeforeAnyDynamoDBRequest(t *testing.T) {
	var log apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithStoreObserver(&log))
	srv.MustCreateUsers(t, "alice", "bob")
	srv.MustUploadPhoto(t, "alice", apitest.Timestamp(1))
	srv.MustUploadPhoto(t, "alice", apitest.Timestamp(2))
	srv.MustFollow(t, "alice", "bob")
	photo := `photo(owner: "alice", timestamp: "` + apitest.Timestamp(1) + `")`
	followersOfBob := endCursor(t, srv, `{ user(username: "bob") { followers(first: 1) { pageInfo { endCursor } } } }`)

	refused := func(t *testing.T, query string, vars map[string]any, path string) {
		t.Helper()
		sent := len(log.Requests())
		resp := srv.Query(t, query, vars)
		if resp.Code() != "BAD_USER_INPUT" || len(resp.Errors) != 1 {
			t.Fatalf("errors %+v, want one BAD_USER_INPUT", resp.Errors)
		}
		if got := pathString(resp.Errors[0].Path); got != path {
			t.Errorf("path %q, want %q", got, path)
		}
		if !strings.HasPrefix(resp.Errors[0].Message, "after: ") {
			t.Errorf("message %q does not name after", resp.Errors[0].Message)
		}
		// Refused before it runs, the operation has no extensions.cost: the store's log says.
		if reqs := log.Requests()[sent:]; len(reqs) != 0 {
			t.Errorf("a refused operation sent DynamoDB requests: %v", reqs)
		}
	}

	t.Run("a mutation whose answer has one writes nothing", func(t *testing.T) {
		before := entities(t, srv)
		refused(t, `mutation { followUser(input: {follower: "bob", followed: "alice"}) { followed { photos(after: "not-a-cursor") { edges { node { id } } } } } }`,
			nil, "followUser.followed.photos")
		if after := entities(t, srv); !reflect.DeepEqual(after, before) {
			t.Fatal("the refused mutation changed the table")
		}
		// So the client's retry, without the bad cursor, is the first follow, not a CONFLICT.
		if resp := srv.Query(t, `mutation { followUser(input: {follower: "bob", followed: "alice"}) { followed { username } } }`, nil); len(resp.Errors) > 0 {
			t.Fatalf("the retry: %+v", resp.Errors)
		}
	})
	t.Run("the photos of users read by name", func(t *testing.T) {
		refused(t, `{ users(usernames: ["alice", "bob"]) { name photos(after: "garbage") { edges { cursor } } } }`, nil, "users.photos")
	})
	t.Run("the reactions of a photo", func(t *testing.T) {
		refused(t, `{ `+photo+` { url reactions(first: 1, after: "garbage") { edges { cursor } } } }`, nil, "photo.reactions")
	})
	t.Run("through a variable, in a fragment", func(t *testing.T) {
		refused(t, `query($c: String) { `+photo+` { owner { ...F } } } fragment F on User { following(after: $c) { totalCount } }`,
			map[string]any{"c": "garbage"}, "photo.owner.following")
	})
	t.Run("a cursor of another list", func(t *testing.T) {
		refused(t, `query($c: String) { user(username: "bob") { name photos(after: $c) { edges { cursor } } } }`,
			map[string]any{"c": followersOfBob}, "user.photos")
	})
	t.Run("a cursor of the reactions a user gave, for a photo's", func(t *testing.T) {
		srv.MustReact(t, "bob", "alice", apitest.Timestamp(1), "HEART")
		reactionsOfBob := endCursor(t, srv, `{ user(username: "bob") { reactions(first: 1) { pageInfo { endCursor } } } }`)
		refused(t, `query($c: String) { `+photo+` { url reactions(after: $c) { edges { cursor } } } }`,
			map[string]any{"c": reactionsOfBob}, "photo.reactions")
	})

	t.Run("a valid cursor reads page 2", func(t *testing.T) {
		page := `query($c: String) { users(usernames: ["alice"]) { photos(first: 1, after: $c) { edges { node { timestamp } } pageInfo { endCursor } } } }`
		var first, second struct {
			Users []struct {
				Photos struct {
					Edges []struct {
						Node struct{ Timestamp string }
					}
					PageInfo struct{ EndCursor string }
				}
			}
		}
		srv.Query(t, page, nil).Decode(t, &first)
		srv.Query(t, page, map[string]any{"c": first.Users[0].Photos.PageInfo.EndCursor}).Decode(t, &second)
		if got := second.Users[0].Photos.Edges; len(got) != 1 || got[0].Node.Timestamp != apitest.Timestamp(1) {
			t.Errorf("page 2: %+v, want the photo at %s", got, apitest.Timestamp(1))
		}
	})
}

// endCursor is the endCursor query selects, at any depth.
func endCursor(t *testing.T, srv *apitest.Server, query string) string {
	t.Helper()
	var data any
	srv.Query(t, query, nil).Decode(t, &data)
	var find func(v any) (string, bool)
	find = func(v any) (string, bool) {
		if m, ok := v.(map[string]any); ok {
			if c, ok := m["endCursor"].(string); ok {
				return c, true
			}
			for _, child := range m {
				if c, ok := find(child); ok {
					return c, true
				}
			}
		}
		return "", false
	}
	c, ok := find(data)
	if !ok || c == "" {
		t.Fatalf("%s: no endCursor", query)
	}
	return c
}
