package api_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestTimestamps_OneInstantOneSpelling: every argument that names a photo by its timestamp
// takes the canonical form (the tutorial's: UTC to the second, no zone) and any RFC 3339
// spelling with a zone, and means the photo stored under the canonical one; the API answers
// the canonical form everywhere, so no instant can be stored twice.
func TestTimestamps_OneInstantOneSpelling(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	srv.MustCreateUser(t, "bob")
	const canonical = "2018-01-01T00:00:00"

	resp := srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/1.jpg", "timestamp": "2018-01-01T01:00:00.000+01:00"}})
	var up struct{ UploadPhoto struct{ Timestamp string } }
	resp.Decode(t, &up)
	if up.UploadPhoto.Timestamp != canonical {
		t.Fatalf("uploaded at %q, want the canonical %q", up.UploadPhoto.Timestamp, canonical)
	}

	t.Run("ErrSameInstantIsTaken", func(t *testing.T) {
		before := srv.ItemCount(t)
		for _, ts := range []string{canonical, canonical + "Z", "2017-12-31T19:00:00-05:00", "2018-01-01T00:00:00-00:00", "2018-01-01T00:00:00.000"} {
			resp := srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/2.jpg", "timestamp": ts}})
			if resp.Code() != "CONFLICT" {
				t.Errorf("%s: code %q, want CONFLICT: %+v", ts, resp.Code(), resp.Errors)
			}
		}
		if srv.ItemCount(t) != before {
			t.Error("a second photo at the same instant was written")
		}
	})

	t.Run("ErrFractionIsRefusedEverywhere", func(t *testing.T) {
		before := srv.ItemCount(t)
		const fraction = "2018-01-01T00:00:00.5"
		for name, resp := range map[string]*apitest.Response{
			"uploadPhoto": srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/3.jpg", "timestamp": fraction}}),
			"photo":       srv.Query(t, `query($t: String!) { photo(owner: "alice", timestamp: $t) { url } }`, map[string]any{"t": fraction}),
			"react":       srv.React(t, "bob", "alice", fraction, "HEART"),
			"remove":      srv.Query(t, `mutation($t: String!) { removeReaction(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { type } }`, map[string]any{"t": fraction}),
			"deletePhoto": srv.Query(t, `mutation($t: String!) { deletePhoto(owner: "alice", timestamp: $t) { url } }`, map[string]any{"t": fraction}),
		} {
			if resp.Code() != "BAD_USER_INPUT" || !strings.Contains(resp.Errors[0].Message, "whole seconds") || !strings.Contains(resp.Errors[0].Message, "2019-03-03T18:20:10") {
				t.Errorf("%s: code %q %+v, want BAD_USER_INPUT naming the accepted forms", name, resp.Code(), resp.Errors)
			}
		}
		if srv.ItemCount(t) != before {
			t.Error("a refused request wrote")
		}
	})

	t.Run("EverySpellingFindsTheCanonicalPhoto", func(t *testing.T) {
		for _, spelling := range []string{canonical, "2018-01-01T05:30:00+05:30", "2018-01-01T00:00:00Z"} {
			var got struct {
				Photo *struct{ Timestamp, URL string }
			}
			srv.Query(t, `query($t: String!) { photo(owner: "alice", timestamp: $t) { timestamp url } }`, map[string]any{"t": spelling}).Decode(t, &got)
			if got.Photo == nil || got.Photo.Timestamp != canonical || got.Photo.URL != "https://cdn.example.com/1.jpg" {
				t.Fatalf("photo at %s: %+v", spelling, got.Photo)
			}
		}
		// Reacting under one spelling and removing under another touch the same reaction.
		var reacted struct {
			ReactToPhoto struct {
				Timestamp string
				Photo     struct{ Timestamp string }
			}
		}
		srv.Query(t, `mutation($t: String!) { reactToPhoto(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { timestamp photo { timestamp } } }`,
			map[string]any{"t": "2017-12-31T23:00:00-01:00"}).Decode(t, &reacted)
		if reacted.ReactToPhoto.Photo.Timestamp != canonical || len(reacted.ReactToPhoto.Timestamp) != len(canonical) || strings.HasSuffix(reacted.ReactToPhoto.Timestamp, "Z") {
			t.Errorf("reacted: %+v, want the photo's and the reaction's timestamps in canonical form", reacted.ReactToPhoto)
		}
		if resp := srv.React(t, "bob", "alice", canonical, "HEART"); resp.Code() != "CONFLICT" {
			t.Errorf("the same reaction under the canonical spelling: code %q, want CONFLICT", resp.Code())
		}
		resp := srv.Query(t, `mutation($t: String!) { removeReaction(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { type } }`, map[string]any{"t": "2018-01-01T00:00:00.0Z"})
		if len(resp.Errors) > 0 {
			t.Fatalf("removeReaction by another spelling: %+v", resp.Errors)
		}
		before := srv.ItemCount(t)
		var deleted struct{ DeletePhoto struct{ Timestamp string } }
		srv.Query(t, `mutation($t: String!) { deletePhoto(owner: "alice", timestamp: $t) { timestamp } }`, map[string]any{"t": "2018-01-01T09:00:00+09:00"}).Decode(t, &deleted)
		if deleted.DeletePhoto.Timestamp != canonical || srv.ItemCount(t) != before-1 {
			t.Errorf("deletePhoto by an offset spelling: %+v, items %d -> %d", deleted.DeletePhoto, before, srv.ItemCount(t))
		}
	})

	t.Run("KeysAndAnswersAreTheCanonicalForm", func(t *testing.T) {
		srv.MustUploadPhoto(t, "alice", "2019-03-03T20:20:10+02:00")
		srv.MustReact(t, "bob", "alice", "2019-03-03T18:20:10Z", "SMILEY")
		srv.MustFollow(t, "bob", "alice")
		for _, item := range srv.Contents(t) {
			for name, v := range item {
				if s, ok := v.(*types.AttributeValueMemberS); ok && strings.Contains(s.Value, "2019-03-03T") && strings.Contains(s.Value, "Z") {
					t.Errorf("item %v: attribute %s %q holds a zone", item["PK"], name, s.Value)
				}
			}
		}
		var got struct {
			User struct {
				Photos struct {
					Edges []struct {
						Node struct {
							Timestamp string
							Reactions struct {
								Edges []struct {
									Node struct{ Timestamp string }
								}
							}
						}
					}
				}
				Followers struct {
					Edges []struct {
						Node struct{ Timestamp string }
					}
				}
			}
		}
		srv.Query(t, `{ user(username: "alice") { photos(first: 5) { edges { node { timestamp reactions(first: 5) { edges { node { timestamp } } } } } }
			followers(first: 5) { edges { node { timestamp } } } } }`, nil).Decode(t, &got)
		photos, followers := got.User.Photos.Edges, got.User.Followers.Edges
		if len(photos) != 1 || photos[0].Node.Timestamp != "2019-03-03T18:20:10" || len(photos[0].Node.Reactions.Edges) != 1 || len(followers) != 1 {
			t.Fatalf("alice's photos and followers: %+v", got.User)
		}
		for _, ts := range []string{photos[0].Node.Reactions.Edges[0].Node.Timestamp, followers[0].Node.Timestamp} {
			if len(ts) != len(canonical) || strings.ContainsAny(ts, "Z+") {
				t.Errorf("timestamp %q is not in canonical form", ts)
			}
		}
	})
}
