package api_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/apitest"
)

// TestTimestamps_OneInstantOneSpelling: every argument that names a photo by its timestamp
// takes any RFC 3339 spelling with a zone and means the photo stored under the canonical one;
// a timestamp without a zone is refused everywhere, so no instant can be stored twice.
func TestTimestamps_OneInstantOneSpelling(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	srv.MustCreateUser(t, "bob")
	const canonical = "2018-01-01T00:00:00Z"

	resp := srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/1.jpg", "timestamp": "2018-01-01T01:00:00.000+01:00"}})
	var up struct{ UploadPhoto struct{ Timestamp string } }
	resp.Decode(t, &up)
	if up.UploadPhoto.Timestamp != canonical {
		t.Fatalf("uploaded at %q, want the canonical %q", up.UploadPhoto.Timestamp, canonical)
	}

	t.Run("ErrSameInstantIsTaken", func(t *testing.T) {
		before := srv.ItemCount(t)
		for _, ts := range []string{canonical, "2017-12-31T19:00:00-05:00", "2018-01-01T00:00:00-00:00"} {
			resp := srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/2.jpg", "timestamp": ts}})
			if resp.Code() != "CONFLICT" {
				t.Errorf("%s: code %q, want CONFLICT: %+v", ts, resp.Code(), resp.Errors)
			}
		}
		if srv.ItemCount(t) != before {
			t.Error("a second photo at the same instant was written")
		}
	})

	t.Run("ErrNoZoneIsRefusedEverywhere", func(t *testing.T) {
		before := srv.ItemCount(t)
		const noZone = "2018-01-01T00:00:00"
		for name, resp := range map[string]*apitest.Response{
			"uploadPhoto": srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/3.jpg", "timestamp": noZone}}),
			"photo":       srv.Query(t, `query($t: String!) { photo(owner: "alice", timestamp: $t) { url } }`, map[string]any{"t": noZone}),
			"react":       srv.React(t, "bob", "alice", noZone, "HEART"),
			"remove":      srv.Query(t, `mutation($t: String!) { removeReaction(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { type } }`, map[string]any{"t": noZone}),
			"deletePhoto": srv.Query(t, `mutation($t: String!) { deletePhoto(owner: "alice", timestamp: $t) { url } }`, map[string]any{"t": noZone}),
		} {
			if resp.Code() != "BAD_USER_INPUT" || !strings.Contains(resp.Errors[0].Message, "no time zone") || !strings.Contains(resp.Errors[0].Message, "2019-03-03T18:20:10Z") {
				t.Errorf("%s: code %q %+v, want BAD_USER_INPUT naming the accepted form", name, resp.Code(), resp.Errors)
			}
		}
		if srv.ItemCount(t) != before {
			t.Error("a refused request wrote")
		}
	})

	t.Run("OtherSpellingsFindTheCanonicalPhoto", func(t *testing.T) {
		var got struct {
			Photo *struct{ Timestamp, URL string }
		}
		srv.Query(t, `query($t: String!) { photo(owner: "alice", timestamp: $t) { timestamp url } }`, map[string]any{"t": "2018-01-01T05:30:00+05:30"}).Decode(t, &got)
		if got.Photo == nil || got.Photo.Timestamp != canonical || got.Photo.URL != "https://cdn.example.com/1.jpg" {
			t.Fatalf("photo by an offset spelling: %+v", got.Photo)
		}
		// Reacting under one spelling and removing under another touch the same reaction.
		var reacted struct {
			ReactToPhoto struct{ Photo struct{ Timestamp string } }
		}
		srv.Query(t, `mutation($t: String!) { reactToPhoto(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { photo { timestamp } } }`,
			map[string]any{"t": "2017-12-31T23:00:00-01:00"}).Decode(t, &reacted)
		if reacted.ReactToPhoto.Photo.Timestamp != canonical {
			t.Errorf("reacted to the photo at %q", reacted.ReactToPhoto.Photo.Timestamp)
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
}
