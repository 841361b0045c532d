package api_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// nodeFields selects what identifies each type that implements Node.
const nodeFields = `__typename id
	... on User { username }
	... on Photo { url owner { username } }
	... on Reaction { type user { username } photo { url } }
	... on Friendship { follower { username } followed { username } }`

// nodeAnswer is one object of a node or nodes answer, as nodeFields selects it.
type nodeAnswer struct {
	Typename string `json:"__typename"`
	ID       string
	Username string
	URL      string
	Type     string
	Owner    struct{ Username string }
	User     struct{ Username string }
	Photo    struct{ URL string }
	Follower struct{ Username string }
	Followed struct{ Username string }
}

// describe says which object n is, in the terms of the typed fields.
func (n *nodeAnswer) describe() string {
	if n == nil {
		return "null"
	}
	switch n.Typename {
	case "User":
		return "User " + n.Username
	case "Photo":
		return "Photo of " + n.Owner.Username + " at " + n.URL
	case "Reaction":
		return "Reaction " + n.Type + " of " + n.User.Username + " to " + n.Photo.URL
	case "Friendship":
		return "Friendship " + n.Follower.Username + " follows " + n.Followed.Username
	}
	return "unknown " + n.Typename
}

// scenarioIDs are the ids of what newNodeScenario made, as the typed fields return them.
type scenarioIDs struct {
	alice, bob, photo, reaction, friendship string
}

// newNodeScenario: alice uploads a photo, bob reacts to it with a heart and follows alice.
// It returns the ids the typed fields give each of them.
func newNodeScenario(t *testing.T, srv *apitest.Server) (scenarioIDs, string) {
	t.Helper()
	srv.MustCreateUsers(t, "alice", "bob")
	srv.MustUploadPhoto(t, "alice", apitest.Timestamp(1))
	srv.MustReact(t, "bob", "alice", apitest.Timestamp(1), "HEART")
	srv.MustFollow(t, "bob", "alice")
	var got struct {
		Alice struct {
			ID     string
			Photos struct {
				Edges []struct {
					Node struct {
						ID, URL   string
						Reactions struct {
							Edges []struct{ Node struct{ ID string } }
						}
					}
				}
			}
			Followers struct {
				Edges []struct{ Node struct{ ID string } }
			}
		}
		Bob struct{ ID string }
	}
	srv.Query(t, `{
		alice: user(username: "alice") { id
			photos { edges { node { id url reactions { edges { node { id } } } } } }
			followers { edges { node { id } } } }
		bob: user(username: "bob") { id } }`, nil).Decode(t, &got)
	photo := got.Alice.Photos.Edges[0].Node
	return scenarioIDs{
		alice: got.Alice.ID, bob: got.Bob.ID, photo: photo.ID,
		reaction:   photo.Reactions.Edges[0].Node.ID,
		friendship: got.Alice.Followers.Edges[0].Node.ID,
	}, photo.URL
}

// TestNode_EveryTypeByItsID: each id a typed field returns reads the same object back through
// node and nodes, whatever its type, and no two objects share an id.
func TestNode_EveryTypeByItsID(t *testing.T) {
	srv := apitest.NewServer(t)
	id, url := newNodeScenario(t, srv)
	want := map[string]string{
		id.alice:      "User alice",
		id.bob:        "User bob",
		id.photo:      "Photo of alice at " + url,
		id.reaction:   "Reaction HEART of bob to " + url,
		id.friendship: "Friendship bob follows alice",
	}
	if len(want) != 5 {
		t.Fatalf("ids are not distinct: %+v", id)
	}
	list := []string{id.photo, id.alice, id.reaction, id.friendship, id.bob}

	var many struct{ Nodes []*nodeAnswer }
	srv.Query(t, `query($ids: [ID!]!) { nodes(ids: $ids) { `+nodeFields+` } }`, map[string]any{"ids": list}).Decode(t, &many)
	if len(many.Nodes) != len(list) {
		t.Fatalf("nodes: %d objects for %d ids", len(many.Nodes), len(list))
	}
	for i, n := range many.Nodes {
		if got := n.describe(); got != want[list[i]] || n.ID != list[i] {
			t.Errorf("nodes[%d] = %s with id %q; want %s with id %q", i, got, n.ID, want[list[i]], list[i])
		}
	}
	for _, i := range list {
		var one struct{ Node *nodeAnswer }
		srv.Query(t, `query($id: ID!) { node(id: $id) { `+nodeFields+` } }`, map[string]any{"id": i}).Decode(t, &one)
		if got := one.Node.describe(); got != want[i] || one.Node.ID != i {
			t.Errorf("node(%q) = %s; want %s", i, got, want[i])
		}
	}

	// The mutations' answers carry the same ids.
	var again struct {
		ReactToPhoto struct{ ID string }
	}
	srv.Query(t, `mutation($t: String!) { reactToPhoto(input: {username: "alice", owner: "alice", timestamp: $t, type: SMILEY}) { id } }`,
		map[string]any{"t": apitest.Timestamp(1)}).Decode(t, &again)
	if again.ReactToPhoto.ID == "" || want[again.ReactToPhoto.ID] != "" {
		t.Errorf("a new reaction's id %q is empty or another object's", again.ReactToPhoto.ID)
	}
	var followed struct {
		UnfollowUser struct{ ID string }
	}
	srv.Query(t, `mutation { unfollowUser(input: {follower: "bob", followed: "alice"}) { id } }`, nil).Decode(t, &followed)
	if followed.UnfollowUser.ID != id.friendship {
		t.Errorf("unfollowUser answered id %q, want the friendship's %q", followed.UnfollowUser.ID, id.friendship)
	}
}

// TestNode_GoneIsNull: an id of an object that no longer exists, or of a well-formed key that
// never did, reads null, with no error (Relay's node contract).
func TestNode_GoneIsNull(t *testing.T) {
	srv := apitest.NewServer(t)
	id, _ := newNodeScenario(t, srv)
	if resp := srv.DeletePhoto(t, "alice", apitest.Timestamp(1)); len(resp.Errors) > 0 {
		t.Fatalf("deletePhoto: %+v", resp.Errors)
	}
	if resp := srv.Unfollow(t, "bob", "alice"); len(resp.Errors) > 0 {
		t.Fatalf("unfollowUser: %+v", resp.Errors)
	}
	// A key that never existed: the photo's id with another owner, spelt as the server
	// spells ids.
	never := reencodeID(t, id.photo, func(parts []string) { parts[1] = "carol" })

	list := []string{id.alice, id.photo, id.reaction, id.friendship, never}
	var got struct{ Nodes []*nodeAnswer }
	resp := srv.Query(t, `query($ids: [ID!]!) { nodes(ids: $ids) { `+nodeFields+` } }`, map[string]any{"ids": list})
	resp.Decode(t, &got)
	want := []string{"User alice", "null", "null", "null", "null"}
	for i, n := range got.Nodes {
		if n.describe() != want[i] {
			t.Errorf("nodes[%d] = %s, want %s", i, n.describe(), want[i])
		}
	}
	var one struct{ Node *nodeAnswer }
	srv.Query(t, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id.photo}).Decode(t, &one)
	if one.Node != nil {
		t.Errorf("node of a deleted photo = %+v, want null", one.Node)
	}
}

// reencodeID decodes an id the server issued, lets change alter its parts, and encodes it the
// way the server does: a forged id that only the server's checks can tell from a real one.
func reencodeID(t *testing.T, id string, change func(parts []string)) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil {
		t.Fatalf("id %q: %v", id, err)
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		t.Fatalf("id %q holds %s: %v", id, b, err)
	}
	change(parts)
	b, _ = json.Marshal(parts)
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestNode_RefusedIDs: an id the server did not issue is BAD_USER_INPUT, naming the argument,
// before the operation sends anything, however deep the rest of the operation goes.
func TestNode_RefusedIDs(t *testing.T) {
	var log apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithStoreObserver(&log))
	id, _ := newNodeScenario(t, srv)
	tooMany := make([]string, 101)
	for i := range tooMany {
		tooMany[i] = id.alice
	}
	for _, tc := range []struct {
		name  string
		query string
		vars  map[string]any
		says  string
	}{
		{"Malformed", `{ node(id: "not an id!") { id } }`, nil, `id: not an id of this server (not base64url)`},
		{"Empty", `{ node(id: "") { id } }`, nil, `id: not an id of this server`},
		{"Cursor", `query($c: ID!) { node(id: $c) { id } }`, map[string]any{"c": cursorOf(t, srv)}, `not a list of key parts`},
		{"Truncated", `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id.photo[:len(id.photo)-4]}, `id: not an id of this server`},
		{"TypeWithoutIDs", `query($id: ID!) { node(id: $id) { id } }`,
			map[string]any{"id": reencodeID(t, id.alice, func(p []string) { p[0] = "PageInfo" })}, `"PageInfo" is not a type with ids`},
		{"PartsOfAnotherType", `query($id: ID!) { node(id: $id) { id } }`,
			map[string]any{"id": reencodeID(t, id.photo, func(p []string) { p[0] = "Friendship" })}, `username`},
		{"ForgedUsername", `query($id: ID!) { node(id: $id) { id } }`,
			map[string]any{"id": reencodeID(t, id.alice, func(p []string) { p[1] = "alice#METADATA#alice" })}, `not a valid username`},
		{"ForgedReactionType", `query($id: ID!) { node(id: $id) { id } }`,
			map[string]any{"id": reencodeID(t, id.reaction, func(p []string) { p[2] = "+1" })}, `"+1" is not a reaction type`},
		{"TimestampNotAsIssued", `query($id: ID!) { node(id: $id) { id } }`,
			map[string]any{"id": reencodeID(t, id.photo, func(p []string) { p[2] += "x" })}, `timestamp`},
		{"OneBadAmongMany", `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
			map[string]any{"ids": []string{id.alice, id.photo, "garbage"}}, `ids[2]: not an id of this server`},
		{"TooMany", `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": tooMany}, `ids: at most 100 ids, got 101`},
		{"BesideOtherFields", `query($id: ID!) { user(username: "alice") { name photos { edges { node { url } } } } node(id: $id) { id } }`,
			map[string]any{"id": "AAAA"}, `id: not an id of this server`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(log.Requests())
			resp := srv.Query(t, tc.query, tc.vars)
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %+v %s", resp.Code(), resp.Errors, resp.Data)
			}
			if msg := resp.Errors[0].Message; !strings.Contains(msg, tc.says) {
				t.Errorf("message %q, want it to say %q", msg, tc.says)
			}
			if path := pathString(resp.Errors[0].Path); path != "node" && path != "nodes" {
				t.Errorf("error at %q, want the node or nodes field", path)
			}
			if reqs := log.Requests()[before:]; len(reqs) != 0 {
				t.Errorf("a refused id reached DynamoDB: %v", reqs)
			}
		})
	}
}

// cursorOf returns a real cursor, which is no id.
func cursorOf(t *testing.T, srv *apitest.Server) string {
	var got struct {
		User struct {
			Photos struct{ PageInfo struct{ EndCursor string } }
		}
	}
	srv.Query(t, `{ user(username: "alice") { photos(first: 1) { pageInfo { endCursor } } } }`, nil).Decode(t, &got)
	return got.User.Photos.PageInfo.EndCursor
}

// TestNode_SameRulesAsTypedFields: a profile read through node shows each caller what
// user(username:) shows them: private fields to their owner only, the feed to its reader only.
func TestNode_SameRulesAsTypedFields(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth())
	for _, u := range []string{"alice", "bob"} {
		resp := srv.As(t, u).Query(t, `mutation($u: ID!, $e: String!) { createUser(input: {username: $u, email: $e, birthdate: "1990-04-17", address: "1 Main St"}) { username } }`,
			map[string]any{"u": u, "e": u + "@example.com"})
		if len(resp.Errors) > 0 {
			t.Fatal(resp.Errors)
		}
	}
	var alice struct{ User struct{ ID string } }
	srv.Query(t, `{ user(username: "alice") { id } }`, nil).Decode(t, &alice)

	const fields = `username email birthdate address feed(first: 1) { edges { cursor } }`
	for name, caller := range map[string]*apitest.Server{"owner": srv.As(t, "alice"), "other": srv.As(t, "bob"), "anonymous": srv} {
		t.Run(name, func(t *testing.T) {
			typed := caller.Query(t, `{ user(username: "alice") { `+fields+` } }`, nil)
			byID := caller.Query(t, `query($id: ID!) { node(id: $id) { ... on User { `+fields+` } } }`, map[string]any{"id": alice.User.ID})
			var a, b struct{ User, Node json.RawMessage }
			_ = json.Unmarshal(typed.Data, &a)
			_ = json.Unmarshal(byID.Data, &b)
			if string(a.User) != string(b.Node) {
				t.Errorf("user(username:) = %s, node(id:) = %s", a.User, b.Node)
			}
			if typed.Code() != byID.Code() {
				t.Errorf("user(username:) errs %q, node(id:) %q", typed.Code(), byID.Code())
			}
			if name == "owner" && !strings.Contains(string(b.Node), "alice@example.com") {
				t.Errorf("the owner does not see their e-mail through node: %s", b.Node)
			}
			if name != "owner" && (strings.Contains(string(b.Node), "@example.com") || byID.Code() == "") {
				t.Errorf("%s sees alice's private fields or feed through node: %s %+v", name, b.Node, byID.Errors)
			}
		})
	}
}

// TestNodes_RequestBudget: the objects nodes(ids:) asks for cost one BatchGetItem together,
// whatever their types, and the level below one more, never one request per id.
func TestNodes_RequestBudget(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUsers(t, "alice", "bob", "carol")
	for i := range 3 {
		srv.MustUploadPhoto(t, "alice", apitest.Timestamp(i))
	}
	srv.MustUploadPhoto(t, "carol", apitest.Timestamp(0))
	var got struct {
		Alice struct {
			ID     string
			Photos struct {
				Edges []struct{ Node struct{ ID string } }
			}
		}
		Bob, Carol struct {
			ID     string
			Photos struct {
				Edges []struct{ Node struct{ ID string } }
			}
		}
	}
	srv.Query(t, `{ alice: user(username: "alice") { id photos { edges { node { id } } } }
		bob: user(username: "bob") { id } carol: user(username: "carol") { id photos { edges { node { id } } } } }`, nil).Decode(t, &got)
	var photos []string
	for _, e := range got.Alice.Photos.Edges {
		photos = append(photos, e.Node.ID)
	}
	if len(photos) != 3 {
		t.Fatalf("alice's photos: %v", photos)
	}
	threePhotosTwoUsers := append([]string{got.Alice.ID, got.Bob.ID}, photos...)
	carolsPhoto := got.Carol.Photos.Edges[0].Node.ID

	for _, tc := range []struct {
		name  string
		query string
		vars  map[string]any
		want  map[string]int
	}{
		{"ThreePhotosAndTwoUsers_OneBatch", `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Photo { url } ... on User { name } } }`,
			map[string]any{"ids": threePhotosTwoUsers}, map[string]int{"BatchGetItem": 1}},
		{"OwnersAmongTheIDs_NoSecondBatch", `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Photo { owner { name } } } }`,
			map[string]any{"ids": threePhotosTwoUsers}, map[string]int{"BatchGetItem": 1}},
		{"OwnersNotAmongTheIDs_OneBatchPerLevel", `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Photo { owner { name } } } }`,
			map[string]any{"ids": append(photos, carolsPhoto)}, map[string]int{"BatchGetItem": 2}},
		{"AliasedNodesAndTypedFields_OneBatch", `query($a: ID!, $b: ID!) { a: node(id: $a) { id } b: node(id: $b) { id } user(username: "carol") { name } }`,
			map[string]any{"a": photos[0], "b": got.Bob.ID}, map[string]int{"BatchGetItem": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := srv.QueryWithin(t, budget(tc.want), tc.query, tc.vars)
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %+v", resp.Errors)
			}
			assertRequests(t, resp.Cost(t), tc.want)
		})
	}
}

// TestNode_Introspection: the schema declares Node as Relay expects it.
func TestNode_Introspection(t *testing.T) {
	srv := apitest.NewServer(t)
	var got struct {
		Type struct {
			Kind          string
			Fields        []struct{ Name string }
			PossibleTypes []struct{ Name string }
		} `json:"__type"`
	}
	srv.Query(t, `{ __type(name: "Node") { kind fields { name } possibleTypes { name } } }`, nil).Decode(t, &got)
	if fmt.Sprintf("%s %v", got.Type.Kind, got.Type.Fields) != "INTERFACE [{id}]" {
		t.Errorf("Node is %s with fields %v, want an interface of id alone", got.Type.Kind, got.Type.Fields)
	}
	var names []string
	for _, p := range got.Type.PossibleTypes {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "Friendship,Photo,Reaction,User" {
		t.Errorf("Node's types: %v", names)
	}
}
