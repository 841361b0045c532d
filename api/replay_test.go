package api_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/media"
)

// writeOperations are the DynamoDB operations that write.
var writeOperations = []string{"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}

func writes(c map[string]int) int {
	n := 0
	for _, op := range writeOperations {
		n += c[op]
	}
	return n
}

// replayCase is a mutation sent with a client mutation id, on a server set up for it.
type replayCase struct {
	name  string
	setup func(t *testing.T, srv *apitest.Server)
	doc   string
	vars  map[string]any
	// reads is how many GetItem the first call sends: the mark's, one more for the answers a
	// transaction does not return, and one for an entity the answer selects (a reaction's
	// photo, a friendship's followed: a level of one key is a GetItem).
	reads int
}

var ts1 = apitest.Timestamp(1)

func withPhotoAndReaction(t *testing.T, srv *apitest.Server) {
	srv.MustCreateUsers(t, "ann", "bob")
	srv.MustUploadPhoto(t, "ann", ts1)
	srv.MustReact(t, "bob", "ann", ts1, "HEART")
	srv.MustFollow(t, "bob", "ann")
}

var replayCases = []replayCase{
	{"createUser", func(*testing.T, *apitest.Server) {},
		`mutation($in: CreateUserInput!) { createUser(input: $in) { id username name version } }`,
		map[string]any{"in": map[string]any{"username": "ann", "name": "Ann", "clientMutationId": "m-1"}}, 1},
	{"updateUser", func(t *testing.T, srv *apitest.Server) { srv.MustCreateUser(t, "ann") },
		`mutation($in: UpdateUserInput!) { updateUser(username: "ann", input: $in) { id status version } }`,
		map[string]any{"in": map[string]any{"status": "away", "clientMutationId": "m-1"}}, 2},
	{"uploadPhoto", func(t *testing.T, srv *apitest.Server) { srv.MustCreateUser(t, "ann") },
		// No timestamp: the server's clock stamps the photo, and a replay must not stamp another.
		`mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { id timestamp url } }`,
		map[string]any{"in": map[string]any{"owner": "ann", "url": "https://cdn.example.com/a.jpg", "clientMutationId": "m-1"}}, 1},
	{"deletePhoto", withPhotoAndReaction,
		`mutation($t: String!, $m: String) { deletePhoto(owner: "ann", timestamp: $t, clientMutationId: $m) { id url reactionCounts { heart total } } }`,
		map[string]any{"t": ts1, "m": "m-1"}, 1},
	{"reactToPhoto", func(t *testing.T, srv *apitest.Server) {
		srv.MustCreateUsers(t, "ann", "bob")
		srv.MustUploadPhoto(t, "ann", ts1)
	},
		`mutation($in: ReactionInput!) { reactToPhoto(input: $in) { id timestamp photo { reactionCounts { total } } } }`,
		map[string]any{"in": map[string]any{"username": "bob", "owner": "ann", "timestamp": ts1, "type": "HEART", "clientMutationId": "m-1"}}, 2},
	{"removeReaction", withPhotoAndReaction,
		`mutation($in: ReactionInput!) { removeReaction(input: $in) { id timestamp } }`,
		map[string]any{"in": map[string]any{"username": "bob", "owner": "ann", "timestamp": ts1, "type": "HEART", "clientMutationId": "m-1"}}, 2},
	{"followUser", func(t *testing.T, srv *apitest.Server) { srv.MustCreateUsers(t, "ann", "bob") },
		`mutation($in: FriendshipInput!) { followUser(input: $in) { id timestamp followed { followerCount } } }`,
		map[string]any{"in": map[string]any{"follower": "bob", "followed": "ann", "clientMutationId": "m-1"}}, 2},
	{"unfollowUser", withPhotoAndReaction,
		`mutation($in: FriendshipInput!) { unfollowUser(input: $in) { id timestamp } }`,
		map[string]any{"in": map[string]any{"follower": "bob", "followed": "ann", "clientMutationId": "m-1"}}, 2},
}

// TestClientMutationID_Replay: every mutation sent again with its client mutation id, as a
// client does after an answer it never got, answers as it first did and writes nothing more.
// The first call's writes and its mark are one TransactWriteItems, so an answer lost after the
// commit (a crash, a dropped connection) leaves the mark for the replay.
func TestClientMutationID_Replay(t *testing.T) {
	for _, tc := range replayCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := apitest.NewServer(t)
			tc.setup(t, srv)
			first := srv.Query(t, tc.doc, tc.vars)
			if len(first.Errors) > 0 {
				t.Fatalf("first call: %+v", first.Errors)
			}
			c := first.Cost(t)
			if c.Operations["TransactWriteItems"] != 1 || writes(c.Operations) != 1 || c.Operations["GetItem"] != tc.reads {
				t.Fatalf("first call cost %+v: want %d GetItem and the writes with the mark in one TransactWriteItems", c, tc.reads)
			}
			committed := entities(t, srv)
			if marks := countMarks(committed); marks != 1 {
				t.Fatalf("%d marks after the commit, want 1", marks)
			}

			replay := srv.Query(t, tc.doc, tc.vars)
			if len(replay.Errors) > 0 {
				t.Fatalf("replay: %+v", replay.Errors)
			}
			if !bytes.Equal(replay.Data, first.Data) {
				t.Fatalf("replay answered %s, first %s", replay.Data, first.Data)
			}
			if c := replay.Cost(t); writes(c.Operations) != 0 {
				t.Fatalf("replay cost %+v: it wrote", c)
			}
			if after := entities(t, srv); !reflect.DeepEqual(after, committed) {
				t.Fatal("the replay changed the table")
			}
			srv.MustBeConsistent(t)
		})
	}
}

// TestClientMutationID_WithoutIDUnchanged: a mutation without an id sends what it sent before
// ids: one PutItem for createUser, one UpdateItem for updateUser, and no mark.
func TestClientMutationID_WithoutIDUnchanged(t *testing.T) {
	srv := apitest.NewServer(t)
	resp := srv.Query(t, `mutation { createUser(input: {username: "ann"}) { username } }`, nil)
	if c := resp.Cost(t); c.Requests != 1 || c.Operations["PutItem"] != 1 {
		t.Fatalf("createUser cost %+v, want one PutItem", c)
	}
	resp = srv.Query(t, `mutation { updateUser(username: "ann", input: {status: "x"}) { status } }`, nil)
	if c := resp.Cost(t); c.Requests != 1 || c.Operations["UpdateItem"] != 1 {
		t.Fatalf("updateUser cost %+v, want one UpdateItem", c)
	}
	if n := countMarks(entities(t, srv)); n != 0 {
		t.Fatalf("%d marks without an id", n)
	}
}

// TestClientMutationID_ReplayOfARefusal: a mutation refused for a reason of state answers its
// replay with the same error, though the state changed since and running it again would
// succeed; and writes nothing.
func TestClientMutationID_ReplayOfARefusal(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "bob")
	follow := `mutation($in: FriendshipInput!) { followUser(input: $in) { id } }`
	vars := map[string]any{"in": map[string]any{"follower": "bob", "followed": "ann", "clientMutationId": "f-1"}}
	first := srv.Query(t, follow, vars)
	if first.Code() != "NOT_FOUND" {
		t.Fatalf("follow of a missing user: code %q, want NOT_FOUND", first.Code())
	}
	srv.MustCreateUser(t, "ann")
	before := entities(t, srv)
	replay := srv.Query(t, follow, vars)
	if replay.Code() != "NOT_FOUND" || replay.Errors[0].Message != first.Errors[0].Message {
		t.Fatalf("replay: %+v, want the first refusal %+v", replay.Errors, first.Errors)
	}
	if c := replay.Cost(t); writes(c.Operations) != 0 {
		t.Fatalf("replay cost %+v: it wrote", c)
	}
	if after := entities(t, srv); !reflect.DeepEqual(after, before) {
		t.Fatal("the replay changed the table")
	}

	t.Run("a stale version", func(t *testing.T) {
		update := `mutation($in: UpdateUserInput!) { updateUser(username: "ann", input: $in) { version } }`
		vars := map[string]any{"in": map[string]any{"status": "x", "expectedVersion": 4, "clientMutationId": "u-1"}}
		first := srv.Query(t, update, vars)
		if first.Code() != "CONFLICT" || first.Errors[0].Extensions["current"] == nil {
			t.Fatalf("stale update: %+v, want CONFLICT with the current profile", first.Errors)
		}
		// The profile as it is comes with the cancelled transaction: the mark's lookup is the
		// only read, and the refusal's mark the only write.
		if ops := first.Cost(t).Operations; ops["GetItem"] != 1 || ops["TransactWriteItems"] != 1 || ops["PutItem"] != 1 {
			t.Fatalf("stale update's requests %v, want the mark's GetItem, the TransactWriteItems and the refusal's PutItem", ops)
		}
		// The profile moves on; the replay still refuses, with the profile as it is now.
		if resp := srv.Query(t, `mutation { updateUser(username: "ann", input: {status: "later"}) { version } }`, nil); len(resp.Errors) > 0 {
			t.Fatal(resp.Errors)
		}
		before := entities(t, srv)
		replay := srv.Query(t, update, vars)
		if replay.Code() != "CONFLICT" || replay.Errors[0].Message != first.Errors[0].Message {
			t.Fatalf("replay: %+v, want %+v", replay.Errors, first.Errors)
		}
		if current, _ := replay.Errors[0].Extensions["current"].(map[string]any); current["status"] != "later" || current["version"] != float64(1) {
			t.Fatalf("replay's extensions.current %v, want the profile as it is now", current)
		}
		if after := entities(t, srv); !reflect.DeepEqual(after, before) {
			t.Fatal("the replay changed the table")
		}
	})
}

// TestClientMutationID_BadInput: ids that are empty, too long or not printable, and an id
// reused with another input, are BAD_USER_INPUT and write nothing.
func TestClientMutationID_BadInput(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "ann")
	create := `mutation($in: CreateUserInput!) { createUser(input: $in) { username } }`
	for name, id := range map[string]string{
		"ErrEmpty":          "",
		"ErrTooLong":        strings.Repeat("x", 65),
		"ErrControl":        "a\u0007b",
		"ErrLineFeed":       "a\nb",
		"ErrZeroWidthSpace": "a\u200bb",
	} {
		t.Run(name, func(t *testing.T) {
			before := entities(t, srv)
			resp := srv.Query(t, create, map[string]any{"in": map[string]any{"username": "bob", "clientMutationId": id}})
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("id %q: code %q, want BAD_USER_INPUT: %+v", id, resp.Code(), resp.Errors)
			}
			if c := resp.Cost(t); c.Requests != 0 {
				t.Fatalf("a bad id reached DynamoDB: %+v", c)
			}
			if after := entities(t, srv); !reflect.DeepEqual(after, before) {
				t.Fatal("a refused mutation wrote")
			}
		})
	}
	t.Run("OK_64Characters", func(t *testing.T) {
		resp := srv.Query(t, create, map[string]any{"in": map[string]any{"username": "max", "clientMutationId": strings.Repeat("é", 64)}})
		if len(resp.Errors) > 0 {
			t.Fatalf("a 64-character id: %+v", resp.Errors)
		}
	})

	t.Run("ErrReusedWithAnotherInput", func(t *testing.T) {
		first := srv.Query(t, create, map[string]any{"in": map[string]any{"username": "cy", "name": "Cy", "clientMutationId": "c-1"}})
		if len(first.Errors) > 0 {
			t.Fatalf("first: %+v", first.Errors)
		}
		before := entities(t, srv)
		resp := srv.Query(t, create, map[string]any{"in": map[string]any{"username": "cy", "name": "Cyril", "clientMutationId": "c-1"}})
		if resp.Code() != "BAD_USER_INPUT" {
			t.Fatalf("the id reused with another name: code %q, want BAD_USER_INPUT: %+v", resp.Code(), resp.Errors)
		}
		if after := entities(t, srv); !reflect.DeepEqual(after, before) {
			t.Fatal("a refused mutation wrote")
		}
		// The same values spelt in the document rather than in variables are the same input.
		resp = srv.Query(t, `mutation { createUser(input: {clientMutationId: "c-1", name: "Cy", username: "cy"}) { username } }`, nil)
		if len(resp.Errors) > 0 {
			t.Fatalf("the same input as literals: %+v", resp.Errors)
		}
	})
}

// TestClientMutationID_ScopedByCaller: another user's mutation with the same id is a mutation
// of its own, and learns nothing of the first.
func TestClientMutationID_ScopedByCaller(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth())
	srv.MustCreateUsers(t, "ann", "bob", "cy")
	follow := `mutation($in: FriendshipInput!) { followUser(input: $in) { id follower { username } } }`
	var ann, bob struct {
		FollowUser struct {
			ID       string
			Follower struct{ Username string }
		}
	}
	srv.As(t, "ann").Query(t, follow, map[string]any{"in": map[string]any{"follower": "ann", "followed": "cy", "clientMutationId": "same"}}).Decode(t, &ann)
	resp := srv.As(t, "bob").Query(t, follow, map[string]any{"in": map[string]any{"follower": "bob", "followed": "cy", "clientMutationId": "same"}})
	resp.Decode(t, &bob)
	if bob.FollowUser.Follower.Username != "bob" || bob.FollowUser.ID == ann.FollowUser.ID {
		t.Fatalf("bob's follow answered %+v (ann's: %+v)", bob, ann)
	}
	if c := resp.Cost(t); c.Operations["TransactWriteItems"] != 1 {
		t.Fatalf("bob's follow cost %+v: it did not write", c)
	}
	resp = srv.As(t, "ann").Query(t, follow, map[string]any{"in": map[string]any{"follower": "ann", "followed": "cy", "clientMutationId": "same"}})
	var again struct {
		FollowUser struct{ ID string }
	}
	resp.Decode(t, &again)
	if again.FollowUser.ID != ann.FollowUser.ID {
		t.Fatalf("ann's replay answered %+v, want her follow", again)
	}
	var cy struct{ User struct{ FollowerCount int } }
	srv.Query(t, `{ user(username: "cy") { followerCount } }`, nil).Decode(t, &cy)
	if cy.User.FollowerCount != 2 {
		t.Fatalf("cy has %d followers, want 2", cy.User.FollowerCount)
	}

	t.Run("without authentication, by the acting user", func(t *testing.T) {
		srv := apitest.NewServer(t)
		srv.MustCreateUsers(t, "ann", "bob", "cy")
		for _, follower := range []string{"ann", "bob"} {
			var got struct {
				FollowUser struct{ Follower struct{ Username string } }
			}
			srv.Query(t, follow, map[string]any{"in": map[string]any{"follower": follower, "followed": "cy", "clientMutationId": "same"}}).Decode(t, &got)
			if got.FollowUser.Follower.Username != follower {
				t.Fatalf("%s's follow answered %+v", follower, got)
			}
		}
		if n := countMarks(entities(t, srv)); n != 2 {
			t.Fatalf("%d marks, want one per acting user", n)
		}
	})
}

// TestClientMutationID_ConcurrentReplays: replays racing each other write once and all answer
// the same; the counters count one follow and one reaction.
func TestClientMutationID_ConcurrentReplays(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUsers(t, "ann", "bob")
	srv.MustUploadPhoto(t, "ann", ts1)
	for _, m := range []struct{ doc, id string }{
		{`mutation($m: String) { followUser(input: {follower: "bob", followed: "ann", clientMutationId: $m}) { id timestamp } }`, "follow-1"},
		{`mutation($m: String) { reactToPhoto(input: {username: "bob", owner: "ann", timestamp: "` + ts1 + `", type: SMILEY, clientMutationId: $m}) { id timestamp } }`, "react-1"},
	} {
		const n = 8
		answers := make([]*apitest.Response, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = srv.Query(t, m.doc, map[string]any{"m": m.id})
			}()
		}
		wg.Wait()
		for i, a := range answers {
			if len(a.Errors) > 0 || !bytes.Equal(a.Data, answers[0].Data) {
				t.Fatalf("%s: answer %d %s %+v, answer 0 %s", m.id, i, a.Data, a.Errors, answers[0].Data)
			}
		}
	}
	var got struct {
		User struct {
			FollowerCount int
			Photos        struct {
				Edges []struct {
					Node struct{ ReactionCounts struct{ Smiley, Total int } }
				}
			}
		}
	}
	srv.Query(t, `{ user(username: "ann") { followerCount photos { edges { node { reactionCounts { smiley total } } } } } }`, nil).Decode(t, &got)
	if got.User.FollowerCount != 1 || got.User.Photos.Edges[0].Node.ReactionCounts.Total != 1 {
		t.Fatalf("after racing replays: %+v, want one follow and one reaction", got.User)
	}
	srv.MustBeConsistent(t)
}

// TestClientMutationID_MarksPassTheStream: marks go through the table's change stream like
// every item; the feed's fan-out and the live hub skip them (they are no entity), so feeds and
// subscriptions carry on, and the consistency check knows them.
func TestClientMutationID_MarksPassTheStream(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob")
	for i, q := range []string{
		`mutation { followUser(input: {follower: "ann", followed: "bob", clientMutationId: "s-1"}) { id } }`,
		fmt.Sprintf(`mutation { uploadPhoto(input: {owner: "bob", url: "https://cdn.example.com/b.jpg", timestamp: %q, clientMutationId: "s-2"}) { id } }`, ts1),
	} {
		if resp := srv.Query(t, q, nil); len(resp.Errors) > 0 {
			t.Fatalf("mutation %d: %+v", i, resp.Errors)
		}
	}
	feedBecomes(t, srv, "ann", photo("bob", 1))
	srv.MustBeConsistent(t)
}

// countMarks counts the client mutation marks among items.
func countMarks(items []map[string]types.AttributeValue) int {
	n := 0
	for _, item := range items {
		if pk, ok := item["PK"].(*types.AttributeValueMemberS); ok && strings.HasPrefix(pk.Value, "MUTATION#") {
			n++
		}
	}
	return n
}

// TestClientMutationID_Uploads: createPhotoUpload sent again answers the same form (the same
// upload, no second record), and uploadPhoto of a file sent again answers the same photo,
// written once with its mark.
func TestClientMutationID_Uploads(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithMedia(media.Config{}))
	srv.MustCreateUser(t, "ann")
	file := encodePNG(t, image.NewRGBA(image.Rect(0, 0, 8, 8)))
	vars := map[string]any{"in": map[string]any{"owner": "ann", "contentType": "image/png", "byteSize": len(file), "clientMutationId": "up-1"}}
	first := srv.Query(t, apitest.CreatePhotoUpload, vars)
	var form struct{ CreatePhotoUpload apitest.UploadForm }
	first.Decode(t, &form)
	before := entities(t, srv)
	replay := srv.Query(t, apitest.CreatePhotoUpload, vars)
	if len(replay.Errors) > 0 || !bytes.Equal(replay.Data, first.Data) {
		t.Fatalf("replayed createPhotoUpload answered %s %+v, first %s", replay.Data, replay.Errors, first.Data)
	}
	if after := entities(t, srv); !reflect.DeepEqual(after, before) {
		t.Fatal("the replay changed the table")
	}

	apitest.MustPostFile(t, form.CreatePhotoUpload, "image/png", file)
	upload := `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { id timestamp image(size: ORIGINAL) { width } } }`
	in := map[string]any{"in": map[string]any{"owner": "ann", "upload": form.CreatePhotoUpload.UploadID, "timestamp": ts1, "clientMutationId": "up-2"}}
	first = srv.Query(t, upload, in)
	if len(first.Errors) > 0 {
		t.Fatalf("uploadPhoto: %+v", first.Errors)
	}
	if c := first.Cost(t); c.Operations["TransactWriteItems"] != 1 || writes(c.Operations) != 1 {
		t.Fatalf("uploadPhoto cost %+v: want the photo, the upload's use and the mark in one TransactWriteItems", c)
	}
	before = entities(t, srv)
	replay = srv.Query(t, upload, in)
	if len(replay.Errors) > 0 || !bytes.Equal(replay.Data, first.Data) {
		t.Fatalf("replayed uploadPhoto answered %s %+v, first %s", replay.Data, replay.Errors, first.Data)
	}
	if after := entities(t, srv); !reflect.DeepEqual(after, before) {
		t.Fatal("the replay changed the table")
	}
	// The upload used, another id is another mutation, refused as the upload is used.
	in["in"].(map[string]any)["clientMutationId"] = "up-3"
	if code := srv.Query(t, upload, in).Code(); code != "CONFLICT" {
		t.Fatalf("a new id on a used upload: code %q, want CONFLICT", code)
	}
}

// TestClientMutationID_BadUploadInput: with an id, createPhotoUpload's and uploadPhoto's
// arguments are checked before any DynamoDB request, as without one, so bad input leaves no
// mark (and an owner no username can be never keys one); an upload refused for its state (no
// file sent) leaves a mark, and its replay is refused the same way.
func TestClientMutationID_BadUploadInput(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithMedia(media.Config{}))
	srv.MustCreateUser(t, "ann")
	upload := `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { id } }`
	for _, tc := range []struct {
		name, doc string
		in        map[string]any
	}{
		{"ErrContentType", apitest.CreatePhotoUpload, map[string]any{"owner": "ann", "contentType": "text/plain", "byteSize": 10}},
		{"ErrByteSize", apitest.CreatePhotoUpload, map[string]any{"owner": "ann", "contentType": "image/png", "byteSize": 0}},
		{"ErrSuccessStatus", apitest.CreatePhotoUpload, map[string]any{"owner": "ann", "contentType": "image/png", "byteSize": 10, "successActionStatus": 302}},
		{"ErrEmptyOwner", apitest.CreatePhotoUpload, map[string]any{"owner": "", "contentType": "image/png", "byteSize": 10}},
		{"ErrLongOwner", apitest.CreatePhotoUpload, map[string]any{"owner": strings.Repeat("a", 2048), "contentType": "image/png", "byteSize": 10}},
		{"ErrUploadID", upload, map[string]any{"owner": "ann", "upload": "../x", "timestamp": ts1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in["clientMutationId"] = "bad-" + tc.name
			before := entities(t, srv)
			resp := srv.Query(t, tc.doc, map[string]any{"in": tc.in})
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %+v", resp.Code(), resp.Errors)
			}
			if c := resp.Cost(t); c.Requests != 0 {
				t.Fatalf("bad input reached DynamoDB: %+v", c)
			}
			if after := entities(t, srv); !reflect.DeepEqual(after, before) {
				t.Fatal("a refused mutation wrote")
			}
		})
	}
	t.Run("ErrNoFileSentIsKept", func(t *testing.T) {
		file := encodePNG(t, image.NewRGBA(image.Rect(0, 0, 1, 1)))
		var form struct{ CreatePhotoUpload apitest.UploadForm }
		srv.Query(t, apitest.CreatePhotoUpload, map[string]any{"in": map[string]any{"owner": "ann", "contentType": "image/png", "byteSize": len(file)}}).Decode(t, &form)
		in := map[string]any{"in": map[string]any{"owner": "ann", "upload": form.CreatePhotoUpload.UploadID, "timestamp": ts1, "clientMutationId": "nofile"}}
		first := srv.Query(t, upload, in)
		if first.Code() != "BAD_USER_INPUT" {
			t.Fatalf("no file sent: code %q, want BAD_USER_INPUT", first.Code())
		}
		marks := countMarks(entities(t, srv))
		apitest.MustPostFile(t, form.CreatePhotoUpload, "image/png", file)
		replay := srv.Query(t, upload, in)
		if replay.Code() != "BAD_USER_INPUT" || !reflect.DeepEqual(replay.Errors, first.Errors) {
			t.Fatalf("replay answered %s %+v, want the first refusal %+v", replay.Data, replay.Errors, first.Errors)
		}
		if marks != countMarks(entities(t, srv)) || marks == 0 {
			t.Fatalf("%d marks: want the refusal's", marks)
		}
	})
}

// TestClientMutationID_RefusalRacingSuccess: a send whose write is refused because a racing
// send of the same mutation and id succeeded meanwhile, and whose refusal's mark then fails
// for another reason than the mark being there (DynamoDB's TransactionConflict while the
// winner's transaction is in flight), answers from the winner's mark, as the winner did.
func TestClientMutationID_RefusalRacingSuccess(t *testing.T) {
	race := &refusalRace{}
	srv := apitest.NewServer(t, apitest.WithStoreObserver(race))
	withPhotoAndReaction(t, srv)
	del := `mutation { deletePhoto(owner: "ann", timestamp: "` + ts1 + `", clientMutationId: "r-1") { id url } }`
	var winner *apitest.Response
	race.arm(func() { winner = srv.Query(t, del, nil) })
	loser := srv.Query(t, del, nil)
	if winner == nil || len(winner.Errors) > 0 {
		t.Fatalf("the racing send: %+v", winner)
	}
	if len(loser.Errors) > 0 || !bytes.Equal(loser.Data, winner.Data) {
		t.Fatalf("the refused send answered %s %+v, the winner %s", loser.Data, loser.Errors, winner.Data)
	}
}

// refusalRace is a store observer that, once armed, runs a racing send before the next Query
// (the delete's read of the photo) and then fails the next PutItem (the refusal's mark) with
// an error other than its condition's.
type refusalRace struct {
	mu     sync.Mutex
	state  int // 0 idle; 1 racing at the next Query; 2 failing the next PutItem
	racing func()
}

func (r *refusalRace) arm(racing func()) {
	r.mu.Lock()
	r.state, r.racing = 1, racing
	r.mu.Unlock()
}

func (r *refusalRace) BeginRequest(ctx context.Context, operation, _ string) (context.Context, func(dynamo.RequestOutcome)) {
	r.mu.Lock()
	state := r.state
	switch {
	case state == 1 && operation == "Query":
		r.state = 2
	case state == 2 && operation == "PutItem":
		r.state = 0
	}
	r.mu.Unlock()
	switch {
	case state == 1 && operation == "Query":
		r.racing()
	case state == 2 && operation == "PutItem":
		failed, cancel := context.WithCancel(ctx)
		cancel()
		return failed, func(dynamo.RequestOutcome) {}
	}
	return ctx, func(dynamo.RequestOutcome) {}
}

// TestClientMutationID_ReplayAfterRemoval: a replay of a mutation whose object was removed
// since (a follow undone, a reaction taken back, a photo deleted) answers with the object as
// the mutation returned it, not NOT_FOUND: the mutation did succeed.
func TestClientMutationID_ReplayAfterRemoval(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUsers(t, "ann", "bob")
	for _, tc := range []struct{ name, do, undo string }{
		{"Follow",
			`mutation { followUser(input: {follower: "bob", followed: "ann", clientMutationId: "f-1"}) { id timestamp follower { username } } }`,
			`mutation { unfollowUser(input: {follower: "bob", followed: "ann"}) { id } }`},
		{"UploadPhoto",
			`mutation { uploadPhoto(input: {owner: "ann", url: "https://cdn.example.com/a.jpg", timestamp: "` + ts1 + `", clientMutationId: "u-1"}) { id url reactionCounts { total } } }`,
			`mutation { deletePhoto(owner: "ann", timestamp: "` + ts1 + `") { id } }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := srv.Query(t, tc.do, nil)
			if len(first.Errors) > 0 {
				t.Fatalf("first: %+v", first.Errors)
			}
			if undo := srv.Query(t, tc.undo, nil); len(undo.Errors) > 0 {
				t.Fatalf("undo: %+v", undo.Errors)
			}
			before := entities(t, srv)
			replay := srv.Query(t, tc.do, nil)
			if len(replay.Errors) > 0 || !bytes.Equal(replay.Data, first.Data) {
				t.Fatalf("replay answered %s %+v, first %s", replay.Data, replay.Errors, first.Data)
			}
			if after := entities(t, srv); !reflect.DeepEqual(after, before) {
				t.Fatal("the replay changed the table")
			}
		})
	}
}

// crashAfterCommit is a store observer that, once armed, makes the server fail right after a
// TransactWriteItems commits, before it answers: a crash between the commit and the answer,
// as the client sees it.
type crashAfterCommit struct {
	mu    sync.Mutex
	armed bool
}

func (c *crashAfterCommit) arm() { c.mu.Lock(); c.armed = true; c.mu.Unlock() }

func (c *crashAfterCommit) BeginRequest(ctx context.Context, operation, _ string) (context.Context, func(dynamo.RequestOutcome)) {
	return ctx, func(o dynamo.RequestOutcome) {
		c.mu.Lock()
		crash := c.armed && operation == "TransactWriteItems" && o.Err == nil
		if crash {
			c.armed = false
		}
		c.mu.Unlock()
		if crash {
			panic("the server dies after the commit")
		}
	}
}

// TestClientMutationID_CrashAfterCommit: a mutation whose server fails after its transaction
// committed, so the client gets no answer, is answered by its replay from the mark the
// transaction committed, and is not applied twice.
func TestClientMutationID_CrashAfterCommit(t *testing.T) {
	crash := &crashAfterCommit{}
	srv := apitest.NewServer(t, apitest.WithStoreObserver(crash))
	srv.MustCreateUsers(t, "ann", "bob")
	follow := `mutation { followUser(input: {follower: "bob", followed: "ann", clientMutationId: "c-1"}) { id follower { username } followed { followerCount } } }`
	crash.arm()
	lost := srv.Query(t, follow, nil)
	if lost.Code() != "INTERNAL_SERVER_ERROR" {
		t.Fatalf("the crashed call answered %s %+v", lost.Data, lost.Errors)
	}
	committed := entities(t, srv)
	if countMarks(committed) != 1 {
		t.Fatal("the commit left no mark")
	}
	replay := srv.Query(t, follow, nil)
	var got struct {
		FollowUser struct {
			ID       string
			Follower struct{ Username string }
			Followed struct{ FollowerCount int }
		}
	}
	replay.Decode(t, &got)
	if got.FollowUser.Follower.Username != "bob" || got.FollowUser.Followed.FollowerCount != 1 {
		t.Fatalf("replay answered %+v, want bob's follow of ann counted once", got)
	}
	if c := replay.Cost(t); writes(c.Operations) != 0 {
		t.Fatalf("replay cost %+v: it wrote", c)
	}
	if after := entities(t, srv); !reflect.DeepEqual(after, committed) {
		t.Fatal("the replay changed the table")
	}
	// Without an id, the same crash leaves the client a retry that fails: what ids are for.
	crash.arm()
	srv.Query(t, `mutation { followUser(input: {follower: "ann", followed: "bob"}) { id } }`, nil)
	if code := srv.Query(t, `mutation { followUser(input: {follower: "ann", followed: "bob"}) { id } }`, nil).Code(); code != "CONFLICT" {
		t.Fatalf("a retry without an id: code %q, want CONFLICT", code)
	}
}

// entities is the table's contents without the stream consumers' checkpoints, which the
// consumers beside a server (the media cleanup's, the feed's) write whenever they catch up.
func entities(t *testing.T, srv *apitest.Server) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	for _, item := range srv.Contents(t) {
		if pk, ok := item["PK"].(*types.AttributeValueMemberS); ok && strings.HasPrefix(pk.Value, "STREAM#") {
			continue
		}
		items = append(items, item)
	}
	return items
}

// TestClientMutationID_DeleteInSteps: a photo with 99 reactions fits one transaction without
// an id; with one, the mark takes an action, so it is deleted in steps, the mark going with the
// first; the replay answers with the photo as deleted.
func TestClientMutationID_DeleteInSteps(t *testing.T) {
	srv := apitest.NewServer(t)
	const fans = 99
	writePhotoWithFans(t, srv, fans)

	del := `mutation { deletePhoto(owner: "ann", timestamp: "` + ts1 + `", clientMutationId: "d-1") { id reactionCounts { heart total } } }`
	first := srv.Query(t, del, nil)
	if len(first.Errors) > 0 {
		t.Fatalf("deletePhoto: %+v", first.Errors)
	}
	if c := first.Cost(t); c.Operations["TransactWriteItems"] < 2 {
		t.Fatalf("cost %+v: want the delete in steps", c)
	}
	gone := entities(t, srv)
	if len(gone) != fans+2 { // the users and the mark
		t.Fatalf("%d items after the delete, want the %d users and the mark", len(gone), fans+1)
	}
	replay := srv.Query(t, del, nil)
	if len(replay.Errors) > 0 || !bytes.Equal(replay.Data, first.Data) {
		t.Fatalf("replay answered %s %+v, first %s", replay.Data, replay.Errors, first.Data)
	}
	if after := entities(t, srv); !reflect.DeepEqual(after, gone) {
		t.Fatal("the replay changed the table")
	}
	srv.MustBeConsistent(t)
}

// TestClientMutationID_DeleteInStepsCrash: a delete in steps whose server dies right after its
// first step (the photo marked, the mark committed) is finished by its replay, which answers
// "deleted" only once the photo and its reactions are gone; a second replay writes nothing.
func TestClientMutationID_DeleteInStepsCrash(t *testing.T) {
	crash := &crashAfterCommit{}
	srv := apitest.NewServer(t, apitest.WithStoreObserver(crash))
	const fans = 99
	writePhotoWithFans(t, srv, fans)
	del := `mutation { deletePhoto(owner: "ann", timestamp: "` + ts1 + `", clientMutationId: "d-1") { id reactionCounts { heart total } } }`
	crash.arm()
	if lost := srv.Query(t, del, nil); lost.Code() != "INTERNAL_SERVER_ERROR" {
		t.Fatalf("the crashed call answered %s %+v", lost.Data, lost.Errors)
	}
	if n := len(entities(t, srv)); n <= fans+2 {
		t.Fatalf("%d items after the crash: the first step deleted more than it does", n)
	}
	replay := srv.Query(t, del, nil)
	var got struct {
		DeletePhoto struct{ ReactionCounts struct{ Heart, Total int } }
	}
	replay.Decode(t, &got)
	if got.DeletePhoto.ReactionCounts.Heart != fans {
		t.Fatalf("replay answered %s, want the photo as it was deleted", replay.Data)
	}
	gone := entities(t, srv)
	if len(gone) != fans+2 { // the users and the mark
		t.Fatalf("%d items after the replay, want the %d users and the mark: the deletion was not finished", len(gone), fans+1)
	}
	srv.MustBeConsistent(t)
	again := srv.Query(t, del, nil)
	if len(again.Errors) > 0 || !bytes.Equal(again.Data, replay.Data) {
		t.Fatalf("second replay answered %s %+v, first %s", again.Data, again.Errors, replay.Data)
	}
	if c := again.Cost(t); writes(c.Operations) != 0 {
		t.Fatalf("second replay cost %+v: it wrote", c)
	}
}

// writePhotoWithFans writes ann's photo at ts1 with a heart from each of fans users.
func writePhotoWithFans(t *testing.T, srv *apitest.Server, fans int) {
	t.Helper()
	users := []domain.User{{Username: "ann"}}
	photo := domain.Photo{Owner: "ann", Timestamp: ts1, URL: "https://cdn.example.com/a.jpg",
		Reactions: domain.ReactionCounts{domain.ReactionHeart: fans, domain.ReactionSmiley: 0, domain.ReactionThumbsUp: 0, domain.ReactionSunglasses: 0}}
	var reactions []domain.Reaction
	for i := range fans {
		fan := fmt.Sprintf("fan%02d", i)
		users = append(users, domain.User{Username: fan})
		reactions = append(reactions, domain.Reaction{Username: fan, Type: domain.ReactionHeart, Photo: photo.Key(), Timestamp: ts1})
	}
	srv.WriteRaw(t, domain.Dataset{Users: users, Photos: []domain.Photo{photo}, Reactions: reactions})
	srv.MustBeConsistent(t)
}

// TestClientMutationID_Retention: a mark expires (the table's TTL attribute) at the end of the
// configured retention, 7 days by default.
func TestClientMutationID_Retention(t *testing.T) {
	for _, tc := range []struct {
		retention, want time.Duration
	}{{0, 7 * 24 * time.Hour}, {time.Hour, time.Hour}} {
		srv := apitest.NewServer(t, apitest.WithConfig(func(c *api.Config) { c.MutationRetention = tc.retention }))
		start := time.Now()
		if resp := srv.Query(t, `mutation { createUser(input: {username: "ann", clientMutationId: "r-1"}) { username } }`, nil); len(resp.Errors) > 0 {
			t.Fatal(resp.Errors)
		}
		found := false
		for _, item := range entities(t, srv) {
			if pk := item["PK"].(*types.AttributeValueMemberS).Value; pk != "MUTATION#ann" {
				continue
			}
			found = true
			n, _ := strconv.ParseInt(item["expiresAt"].(*types.AttributeValueMemberN).Value, 10, 64)
			if got := time.Unix(n, 0).Sub(start); got < tc.want-2*time.Second || got > tc.want+2*time.Second {
				t.Errorf("retention %s: the mark expires %s after the mutation, want %s", tc.retention, got, tc.want)
			}
		}
		if !found {
			t.Errorf("retention %s: no mark", tc.retention)
		}
	}
}
