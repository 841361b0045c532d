package api_test

import (
	"fmt"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

const upload = `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { username timestamp url reactionCounts { total } } }`

func TestUploadPhoto(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		srv := apitest.NewServer(t)
		srv.MustCreateUser(t, "alice")
		resp := srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/1.jpg", "timestamp": "2024-05-01T10:00:00Z"}})
		var got struct {
			UploadPhoto struct {
				Username, Timestamp, URL string
			}
		}
		resp.Decode(t, &got)
		if got.UploadPhoto.Username != "alice" || got.UploadPhoto.Timestamp != "2024-05-01T10:00:00" {
			t.Fatalf("uploaded %+v", got.UploadPhoto)
		}
		if c := resp.Cost(t); c.Requests != 1 || c.Operations["TransactWriteItems"] != 1 {
			t.Fatalf("cost %+v, want one TransactWriteItems", c)
		}
	})

	t.Run("OK_ServerClockWhenNoTimestamp", func(t *testing.T) {
		srv := apitest.NewServer(t)
		srv.MustCreateUser(t, "alice")
		resp := srv.Query(t, upload, map[string]any{"in": map[string]any{"owner": "alice", "url": "https://cdn.example.com/2.jpg"}})
		var got struct{ UploadPhoto struct{ Timestamp string } }
		resp.Decode(t, &got)
		if len(got.UploadPhoto.Timestamp) != len("2024-05-01T10:00:00") {
			t.Fatalf("timestamp %q", got.UploadPhoto.Timestamp)
		}
	})

	for name, tc := range map[string]struct {
		in   map[string]any
		code string
	}{
		"ErrOwnerNotFound":             {map[string]any{"owner": "nobody", "url": "https://cdn.example.com/x.jpg", "timestamp": "2024-05-01T10:00:00Z"}, "NOT_FOUND"},
		"ErrTimestampTaken":            {map[string]any{"owner": "alice", "url": "https://cdn.example.com/y.jpg", "timestamp": "2024-05-01T10:00:00Z"}, "CONFLICT"},
		"ErrURLScheme":                 {map[string]any{"owner": "alice", "url": "ftp://cdn.example.com/x.jpg"}, "BAD_USER_INPUT"},
		"ErrTimestampFormat":           {map[string]any{"owner": "alice", "url": "https://cdn.example.com/x.jpg", "timestamp": "yesterday"}, "BAD_USER_INPUT"},
		"ErrTimestampTakenWithoutZone": {map[string]any{"owner": "alice", "url": "https://cdn.example.com/y.jpg", "timestamp": "2024-05-01T10:00:00"}, "CONFLICT"},
		"ErrTimestampFraction":         {map[string]any{"owner": "alice", "url": "https://cdn.example.com/x.jpg", "timestamp": "2024-05-01T10:00:00.5"}, "BAD_USER_INPUT"},
		"ErrTimestampYear":             {map[string]any{"owner": "alice", "url": "https://cdn.example.com/x.jpg", "timestamp": "2200-05-01T10:00:00Z"}, "BAD_USER_INPUT"},
		"ErrURLBidi":                   {map[string]any{"owner": "alice", "url": "https://cdn.example.com/\u202egpj.exe"}, "BAD_USER_INPUT"},
		"ErrOwnerWithHash":             {map[string]any{"owner": "ali#ce", "url": "https://cdn.example.com/x.jpg"}, "BAD_USER_INPUT"},
	} {
		t.Run(name, func(t *testing.T) {
			// alice has a photo at the instant ErrTimestampTaken uploads at.
			srv := apitest.NewServer(t)
			srv.MustCreateUser(t, "alice")
			srv.MustUploadPhoto(t, "alice", "2024-05-01T10:00:00Z")
			before := srv.ItemCount(t)
			resp := srv.Query(t, upload, map[string]any{"in": tc.in})
			if resp.Code() != tc.code {
				t.Fatalf("code %q, want %s: %+v", resp.Code(), tc.code, resp.Errors)
			}
			if srv.ItemCount(t) != before {
				t.Fatal("a refused upload wrote")
			}
		})
	}
}

func TestUserPhotos_MostRecentFirstAcrossPages(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	for i := 0; i < 7; i++ {
		srv.MustUploadPhoto(t, "alice", apitest.Timestamp(i))
	}
	const q = `query($after: String) { user(username: "alice") { name photos(first: 3, after: $after) {
		edges { cursor node { timestamp owner { username } } } pageInfo { hasNextPage endCursor } } } }`
	var seen []string
	var after any
	for page := 0; ; page++ {
		resp := srv.Query(t, q, map[string]any{"after": after})
		var got struct {
			User struct {
				Name   string
				Photos struct {
					Edges []struct {
						Node struct {
							Timestamp string
							Owner     struct{ Username string }
						}
					}
					PageInfo struct {
						HasNextPage bool
						EndCursor   string
					}
				}
			}
		}
		resp.Decode(t, &got)
		for _, e := range got.User.Photos.Edges {
			seen = append(seen, e.Node.Timestamp)
			if e.Node.Owner.Username != "alice" {
				t.Fatalf("owner %q", e.Node.Owner.Username)
			}
		}
		// The profile and photos come from one Query on the last page (it reaches the
		// profile); earlier pages need the profile read as well. Owners are primed either way.
		if c := resp.Cost(t); c.Requests > 2 {
			t.Fatalf("page %d cost %+v, want at most 2 requests", page, c)
		}
		if !got.User.Photos.PageInfo.HasNextPage {
			if c := resp.Cost(t); c.Requests != 1 {
				t.Fatalf("last page cost %+v, want the profile from the photos Query", c)
			}
			break
		}
		after = got.User.Photos.PageInfo.EndCursor
	}
	want := []string{apitest.Timestamp(6), apitest.Timestamp(5), apitest.Timestamp(4), apitest.Timestamp(3), apitest.Timestamp(2), apitest.Timestamp(1), apitest.Timestamp(0)}
	if len(seen) != len(want) {
		t.Fatalf("saw %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("saw %v, want %v", seen, want)
		}
	}
}

func TestCursors(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	srv.MustCreateUser(t, "bob")
	srv.MustUploadPhoto(t, "alice", apitest.Timestamp(1))
	srv.MustUploadPhoto(t, "alice", apitest.Timestamp(2))
	srv.MustFollow(t, "bob", "alice")

	resp := srv.Query(t, `{ user(username: "alice") { photos(first: 1) { pageInfo { endCursor } } followers(first: 1) { pageInfo { endCursor } } } }`, nil)
	var got struct {
		User struct {
			Photos, Followers struct{ PageInfo struct{ EndCursor string } }
		}
	}
	resp.Decode(t, &got)
	photoCursor, followerCursor := got.User.Photos.PageInfo.EndCursor, got.User.Followers.PageInfo.EndCursor

	for name, tc := range map[string]struct{ user, field, after string }{
		"ErrMalformed":           {"alice", "photos", "not a cursor!"},
		"ErrOtherList":           {"alice", "photos", followerCursor},
		"ErrOtherPartition":      {"bob", "photos", photoCursor},
		"ErrFollowersOfOther":    {"bob", "followers", followerCursor},
		"ErrBase64ButNotOurJSON": {"alice", "photos", "eyJ4IjoxfQ"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := srv.Query(t, `query($u: ID!, $a: String) { user(username: $u) { `+tc.field+`(first: 1, after: $a) { edges { cursor } } } }`,
				map[string]any{"u": tc.user, "a": tc.after})
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %+v", resp.Code(), resp.Errors)
			}
		})
	}

	for name, first := range map[string]int{"ErrFirstZero": 0, "ErrFirstNegative": -1, "ErrFirstOverMax": 101} {
		t.Run(name, func(t *testing.T) {
			resp := srv.Query(t, `query($f: Int) { user(username: "alice") { photos(first: $f) { edges { cursor } } } }`, map[string]any{"f": first})
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT", resp.Code())
			}
		})
	}
}

func TestDeletePhoto(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	srv.MustCreateUser(t, "bob")
	ts := apitest.Timestamp(1)
	srv.MustUploadPhoto(t, "alice", ts)
	srv.MustReact(t, "bob", "alice", ts, "HEART")
	srv.MustReact(t, "bob", "alice", ts, "SMILEY")
	before := srv.ItemCount(t)

	resp := srv.Query(t, `mutation($t: String!) { deletePhoto(owner: "alice", timestamp: $t) { timestamp reactionCounts { total } } }`, map[string]any{"t": ts})
	var got struct {
		DeletePhoto struct {
			Timestamp      string
			ReactionCounts struct{ Total int }
		}
	}
	resp.Decode(t, &got)
	if got.DeletePhoto.Timestamp != ts || got.DeletePhoto.ReactionCounts.Total != 2 {
		t.Fatalf("deleted %+v", got.DeletePhoto)
	}
	if after := srv.ItemCount(t); after != before-3 {
		t.Fatalf("items %d -> %d, want the photo and its 2 reactions gone", before, after)
	}
	if c := resp.Cost(t); c.Operations["Query"] != 1 || c.Operations["TransactWriteItems"] != 1 || c.Requests != 2 {
		t.Fatalf("cost %+v, want one Query and one transaction", c)
	}

	t.Run("ErrNotFound", func(t *testing.T) {
		resp := srv.Query(t, `mutation($t: String!) { deletePhoto(owner: "alice", timestamp: $t) { timestamp } }`, map[string]any{"t": ts})
		if resp.Code() != "NOT_FOUND" {
			t.Fatalf("code %q, want NOT_FOUND", resp.Code())
		}
	})
}

// TestDeletePhoto_MoreReactionsThanOneTransaction: reactions beyond the 99 that fit in the
// photo's transaction are deleted too, in steps that each keep the counters exact.
func TestDeletePhoto_MoreReactionsThanOneTransaction(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	ts := apitest.Timestamp(1)
	srv.MustUploadPhoto(t, "alice", ts)
	const fans = 27 // 27 users × 4 types = 108 reactions
	for i := 0; i < fans; i++ {
		fan := fmt.Sprintf("fan%02d", i)
		srv.MustCreateUser(t, fan)
		for _, typ := range []string{"HEART", "SMILEY", "THUMBS_UP", "SUNGLASSES"} {
			srv.MustReact(t, fan, "alice", ts, typ)
		}
	}
	before := srv.ItemCount(t)
	resp := srv.Query(t, `mutation($t: String!) { deletePhoto(owner: "alice", timestamp: $t) { reactionCounts { total } } }`, map[string]any{"t": ts})
	var got struct {
		DeletePhoto struct{ ReactionCounts struct{ Total int } }
	}
	resp.Decode(t, &got)
	if got.DeletePhoto.ReactionCounts.Total != 4*fans {
		t.Fatalf("deleted photo had %d reactions, want %d", got.DeletePhoto.ReactionCounts.Total, 4*fans)
	}
	if after := srv.ItemCount(t); after != before-1-4*fans {
		t.Fatalf("items %d -> %d, want the photo and all %d reactions gone", before, after, 4*fans)
	}
	// The mark, 98 reactions, then the last 10 with the photo and its deletion record.
	if c := resp.Cost(t); c.Operations["TransactWriteItems"] != 3 || c.Operations["BatchWriteItem"] != 0 {
		t.Fatalf("cost %+v, want three transactions", c)
	}
}
