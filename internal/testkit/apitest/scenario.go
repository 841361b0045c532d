package apitest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// MustCreateUser creates a user named username through the API.
func (s *Server) MustCreateUser(t testing.TB, username string) {
	t.Helper()
	resp := s.actingAs(t, username).Query(t, `mutation($u: ID!) { createUser(input: {username: $u, name: "Name of $u"}) { username } }`, map[string]any{"u": username})
	if len(resp.Errors) > 0 {
		t.Fatalf("createUser %s: %+v", username, resp.Errors)
	}
}

// MustCreateUsers creates a user for each of usernames through the API.
func (s *Server) MustCreateUsers(t testing.TB, usernames ...string) {
	t.Helper()
	for _, u := range usernames {
		s.MustCreateUser(t, u)
	}
}

// MustUploadPhoto uploads a photo of owner at timestamp through the API.
func (s *Server) MustUploadPhoto(t testing.TB, owner, timestamp string) {
	t.Helper()
	resp := s.UploadPhoto(t, owner, timestamp)
	if len(resp.Errors) > 0 {
		t.Fatalf("uploadPhoto %s %s: %+v", owner, timestamp, resp.Errors)
	}
}

// MustFollow makes follower follow followed through the API.
func (s *Server) MustFollow(t testing.TB, follower, followed string) {
	t.Helper()
	resp := s.Follow(t, follower, followed)
	if len(resp.Errors) > 0 {
		t.Fatalf("follow %s -> %s: %+v", follower, followed, resp.Errors)
	}
}

// MustReact makes username react with type reactionType (a GraphQL enum value) to a photo.
func (s *Server) MustReact(t testing.TB, username, owner, timestamp, reactionType string) {
	t.Helper()
	resp := s.actingAs(t, username).React(t, username, owner, timestamp, reactionType)
	if len(resp.Errors) > 0 {
		t.Fatalf("react %s %s to %s/%s: %+v", username, reactionType, owner, timestamp, resp.Errors)
	}
}

// React sends reactToPhoto and returns the response.
func (s *Server) React(t testing.TB, username, owner, timestamp, reactionType string) *Response {
	t.Helper()
	return s.Query(t, `mutation($u: ID!, $o: ID!, $t: String!, $type: ReactionType!) {
		reactToPhoto(input: {username: $u, owner: $o, timestamp: $t, type: $type}) { type timestamp } }`,
		map[string]any{"u": username, "o": owner, "t": timestamp, "type": reactionType})
}

// Timestamp is the i-th of a series of distinct, increasing timestamps.
func Timestamp(i int) string {
	return fmt.Sprintf("2024-01-%02dT%02d:%02d:%02d", 1+i/86400%28, i/3600%24, i/60%60, i%60)
}

// Mutations the scenarios below send; each answers with as little as it can.
const (
	uploadPhotoMutation    = `mutation($o: ID!, $t: String!, $url: String!) { uploadPhoto(input: {owner: $o, url: $url, timestamp: $t}) { timestamp } }`
	deletePhotoMutation    = `mutation($o: ID!, $t: String!) { deletePhoto(owner: $o, timestamp: $t) { timestamp } }`
	removeReactionMutation = `mutation($u: ID!, $o: ID!, $t: String!, $type: ReactionType!) { removeReaction(input: {username: $u, owner: $o, timestamp: $t, type: $type}) { type } }`
	followMutation         = `mutation($a: ID!, $b: ID!) { followUser(input: {follower: $a, followed: $b}) { timestamp } }`
	unfollowMutation       = `mutation($a: ID!, $b: ID!) { unfollowUser(input: {follower: $a, followed: $b}) { timestamp } }`
)

// UploadPhoto sends uploadPhoto and returns the response.
func (s *Server) UploadPhoto(t testing.TB, owner, timestamp string) *Response {
	t.Helper()
	return s.actingAs(t, owner).Query(t, uploadPhotoMutation,
		map[string]any{"o": owner, "t": timestamp, "url": fmt.Sprintf("https://cdn.example.com/%s/%s.jpg", owner, timestamp)})
}

// DeletePhoto sends deletePhoto and returns the response.
func (s *Server) DeletePhoto(t testing.TB, owner, timestamp string) *Response {
	t.Helper()
	return s.actingAs(t, owner).Query(t, deletePhotoMutation, map[string]any{"o": owner, "t": timestamp})
}

// RemoveReaction sends removeReaction and returns the response.
func (s *Server) RemoveReaction(t testing.TB, username, owner, timestamp, reactionType string) *Response {
	t.Helper()
	return s.actingAs(t, username).Query(t, removeReactionMutation,
		map[string]any{"u": username, "o": owner, "t": timestamp, "type": reactionType})
}

// Follow sends followUser and returns the response.
func (s *Server) Follow(t testing.TB, follower, followed string) *Response {
	t.Helper()
	return s.actingAs(t, follower).Query(t, followMutation, map[string]any{"a": follower, "b": followed})
}

// Unfollow sends unfollowUser and returns the response.
func (s *Server) Unfollow(t testing.TB, follower, followed string) *Response {
	t.Helper()
	return s.actingAs(t, follower).Query(t, unfollowMutation, map[string]any{"a": follower, "b": followed})
}

// MustBeConsistent runs the store's consistency check on the server's table and fails the test
// with every problem it finds. Photo deletions under way are allowed only when pending says so.
func (s *Server) MustBeConsistent(t testing.TB, pending ...domain.PhotoKey) dynamo.CheckReport {
	t.Helper()
	report, err := s.Store.Check(context.Background())
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	for _, p := range report.Problems {
		t.Errorf("inconsistent: %s", p)
	}
	if !slices.Equal(report.PendingDeletions, pending) {
		t.Errorf("deletions under way %v, want %v", report.PendingDeletions, pending)
	}
	if t.Failed() {
		t.FailNow()
	}
	return report
}
