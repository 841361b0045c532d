package apitest

import (
	"fmt"
	"testing"
)

// MustCreateUser creates a user named username through the API.
func (s *Server) MustCreateUser(t testing.TB, username string) {
	t.Helper()
	resp := s.actingAs(t, username).Query(t, `mutation($u: ID!) { createUser(input: {username: $u, name: "Name of $u"}) { username } }`, map[string]any{"u": username})
	if len(resp.Errors) > 0 {
		t.Fatalf("createUser %s: %+v", username, resp.Errors)
	}
}

// MustUploadPhoto uploads a photo of owner at timestamp through the API.
func (s *Server) MustUploadPhoto(t testing.TB, owner, timestamp string) {
	t.Helper()
	resp := s.actingAs(t, owner).Query(t, `mutation($o: ID!, $t: String!, $url: String!) { uploadPhoto(input: {owner: $o, url: $url, timestamp: $t}) { timestamp } }`,
		map[string]any{"o": owner, "t": timestamp, "url": fmt.Sprintf("https://cdn.example.com/%s/%s.jpg", owner, timestamp)})
	if len(resp.Errors) > 0 {
		t.Fatalf("uploadPhoto %s %s: %+v", owner, timestamp, resp.Errors)
	}
}

// MustFollow makes follower follow followed through the API.
func (s *Server) MustFollow(t testing.TB, follower, followed string) {
	t.Helper()
	resp := s.actingAs(t, follower).Query(t, `mutation($a: ID!, $b: ID!) { followUser(input: {follower: $a, followed: $b}) { timestamp } }`,
		map[string]any{"a": follower, "b": followed})
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
	return fmt.Sprintf("2024-01-%02dT%02d:%02d:%02dZ", 1+i/86400%28, i/3600%24, i/60%60, i%60)
}
