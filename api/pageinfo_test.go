package api_test

import (
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestPageInfo_TheWholeRelayPageInfo: every connection's pageInfo has the four fields of the
// Relay connection specification (Relay's @connection refuses a schema without them):
// startCursor and endCursor are the first and last edges' cursors, null on an empty page, and
// hasPreviousPage is false, as the specification allows for lists paged forward. (A page of a
// feed ends past the deleted photos it left out: TestFeed_PagesGoOnPastPhotosDeletedMeanwhile.)
func TestPageInfo_TheWholeRelayPageInfo(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	for i := range 3 {
		srv.MustUploadPhoto(t, "alice", apitest.Timestamp(i))
	}
	type page struct {
		Edges    []struct{ Cursor string }
		PageInfo struct {
			StartCursor, EndCursor       *string
			HasNextPage, HasPreviousPage bool
		}
	}
	const query = `query($after: String) { user(username: "alice") {
		photos(first: 2, after: $after) { edges { cursor } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } }
		followers { edges { cursor } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } } }`
	var first struct {
		User struct{ Photos, Followers page }
	}
	srv.Query(t, query, nil).Decode(t, &first)
	p := first.User.Photos
	if len(p.Edges) != 2 || p.PageInfo.StartCursor == nil || *p.PageInfo.StartCursor != p.Edges[0].Cursor ||
		p.PageInfo.EndCursor == nil || *p.PageInfo.EndCursor != p.Edges[1].Cursor || !p.PageInfo.HasNextPage || p.PageInfo.HasPreviousPage {
		t.Errorf("first page of photos: %+v", p)
	}
	if f := first.User.Followers; len(f.Edges) != 0 || f.PageInfo.StartCursor != nil || f.PageInfo.EndCursor != nil || f.PageInfo.HasPreviousPage {
		t.Errorf("empty list of followers: %+v", f)
	}

	var second struct {
		User struct{ Photos page }
	}
	srv.Query(t, query, map[string]any{"after": *p.PageInfo.EndCursor}).Decode(t, &second)
	p = second.User.Photos
	if len(p.Edges) != 1 || *p.PageInfo.StartCursor != p.Edges[0].Cursor || *p.PageInfo.EndCursor != p.Edges[0].Cursor ||
		p.PageInfo.HasNextPage || p.PageInfo.HasPreviousPage {
		t.Errorf("second page of photos: %+v", p)
	}
}
