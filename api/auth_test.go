package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// mutationsOf are every mutation of the schema, each acting as actor (and touching a photo
// of owner's), so a test can try all of them as someone else.
func mutationsOf(actor, owner string) map[string]struct {
	query string
	vars  map[string]any
} {
	type m = struct {
		query string
		vars  map[string]any
	}
	photo := map[string]any{"u": actor, "o": owner, "t": apitest.Timestamp(1), "type": "HEART"}
	return map[string]m{
		"createUser":     {`mutation($u: ID!) { createUser(input: {username: $u, name: "Impostor"}) { username } }`, map[string]any{"u": actor}},
		"updateUser":     {`mutation($u: ID!) { updateUser(username: $u, input: {name: "Impostor"}) { username } }`, map[string]any{"u": actor}},
		"uploadPhoto":    {`mutation($u: ID!) { uploadPhoto(input: {owner: $u, url: "https://evil.example/x.jpg"}) { timestamp } }`, map[string]any{"u": actor}},
		"deletePhoto":    {`mutation($u: ID!, $t: String!) { deletePhoto(owner: $u, timestamp: $t) { timestamp } }`, map[string]any{"u": actor, "t": apitest.Timestamp(2)}},
		"reactToPhoto":   {`mutation($u: ID!, $o: ID!, $t: String!, $type: ReactionType!) { reactToPhoto(input: {username: $u, owner: $o, timestamp: $t, type: $type}) { type } }`, photo},
		"removeReaction": {`mutation($u: ID!, $o: ID!, $t: String!) { removeReaction(input: {username: $u, owner: $o, timestamp: $t, type: THUMBS_UP}) { type } }`, photo},
		"followUser":     {`mutation($a: ID!, $b: ID!) { followUser(input: {follower: $a, followed: $b}) { timestamp } }`, map[string]any{"a": actor, "b": owner}},
		"unfollowUser":   {`mutation($a: ID!, $b: ID!) { unfollowUser(input: {follower: $a, followed: $b}) { timestamp } }`, map[string]any{"a": actor, "b": "carol"}},
	}
}

// newCommunity starts an authenticating server where alice, bob and carol exist, alice has
// two photos, alice gave a thumbs-up to her first one, and alice follows carol: every
// mutation has something it could change.
func newCommunity(t *testing.T) *apitest.Server {
	srv := apitest.NewServer(t, apitest.WithAuth())
	for _, u := range []string{"alice", "bob", "carol"} {
		srv.MustCreateUser(t, u)
	}
	srv.MustUploadPhoto(t, "alice", apitest.Timestamp(1))
	srv.MustUploadPhoto(t, "alice", apitest.Timestamp(2))
	srv.MustReact(t, "alice", "alice", apitest.Timestamp(1), "THUMBS_UP")
	srv.MustFollow(t, "alice", "carol")
	return srv
}

func TestEveryMutationAsAnotherUserIsForbiddenAndWritesNothing(t *testing.T) {
	srv := newCommunity(t)
	bob := srv.As(t, "bob")
	for name, m := range mutationsOf("alice", "alice") {
		t.Run(name, func(t *testing.T) {
			before := srv.Contents(t)
			resp := bob.Query(t, m.query, m.vars)
			if resp.Code() != "FORBIDDEN" {
				t.Fatalf("bob acting as alice: code %q, want FORBIDDEN: %+v", resp.Code(), resp.Errors)
			}
			if c := resp.Cost(t); c.Requests != 0 {
				t.Errorf("a forbidden mutation sent %d DynamoDB requests, want none", c.Requests)
			}
			if after := srv.Contents(t); !reflect.DeepEqual(before, after) {
				t.Error("a forbidden mutation changed the table")
			}
		})
	}
}

func TestEveryMutationWithoutATokenIsUnauthenticatedAndWritesNothing(t *testing.T) {
	srv := newCommunity(t)
	for name, m := range mutationsOf("alice", "alice") {
		t.Run(name, func(t *testing.T) {
			before := srv.Contents(t)
			resp := srv.Query(t, m.query, m.vars)
			if resp.Code() != "UNAUTHENTICATED" {
				t.Fatalf("anonymous: code %q, want UNAUTHENTICATED: %+v", resp.Code(), resp.Errors)
			}
			if after := srv.Contents(t); !reflect.DeepEqual(before, after) {
				t.Error("an anonymous mutation changed the table")
			}
		})
	}
}

func TestEveryMutationAsOneselfIsAllowed(t *testing.T) {
	srv := newCommunity(t)
	bob := srv.As(t, "bob")
	// bob on his own behalf, on alice's photo: the order matters (react before remove, follow
	// before unfollow), so run them in sequence.
	steps := []struct {
		name  string
		query string
		vars  map[string]any
	}{
		{"updateUser", `mutation { updateUser(username: "bob", input: {name: "Bob"}) { name } }`, nil},
		{"uploadPhoto", `mutation { uploadPhoto(input: {owner: "bob", url: "https://cdn.example.com/b.jpg", timestamp: "2024-05-01T00:00:00Z"}) { timestamp } }`, nil},
		{"deletePhoto", `mutation { deletePhoto(owner: "bob", timestamp: "2024-05-01T00:00:00Z") { timestamp } }`, nil},
		{"reactToPhoto", `mutation($t: String!) { reactToPhoto(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { type } }`, map[string]any{"t": apitest.Timestamp(1)}},
		{"removeReaction", `mutation($t: String!) { removeReaction(input: {username: "bob", owner: "alice", timestamp: $t, type: HEART}) { type } }`, map[string]any{"t": apitest.Timestamp(1)}},
		{"followUser", `mutation { followUser(input: {follower: "bob", followed: "alice"}) { timestamp } }`, nil},
		{"unfollowUser", `mutation { unfollowUser(input: {follower: "bob", followed: "alice"}) { timestamp } }`, nil},
		{"createUser", `mutation { createUser(input: {username: "dave"}) { username } }`, nil},
	}
	for _, s := range steps {
		client := bob
		if s.name == "createUser" {
			client = srv.As(t, "dave") // a new user signs up with a token of their own
		}
		if resp := client.Query(t, s.query, s.vars); len(resp.Errors) > 0 {
			t.Errorf("%s as oneself: %+v", s.name, resp.Errors)
		}
	}
}

func TestBadTokensAreRefusedBeforeAnythingRuns(t *testing.T) {
	srv := newCommunity(t)
	secret := srv.Secret()
	now := time.Now()
	valid := func() jwt.Token {
		tok, err := jwt.NewBuilder().Issuer(auth.HS256Issuer).Audience([]string{auth.HS256Audience}).
			Subject("alice").IssuedAt(now).NotBefore(now).Expiration(now.Add(time.Hour)).Build()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	sign := func(tok jwt.Token, alg jwa.SignatureAlgorithm, key any) string {
		signed, err := jwt.Sign(tok, jwt.WithKey(alg, key))
		if err != nil {
			t.Fatal(err)
		}
		return string(signed)
	}
	with := func(change func(jwt.Token)) string {
		tok := valid()
		change(tok)
		return sign(tok, jwa.HS256(), secret)
	}
	unsigned := func() string {
		claims, err := json.Marshal(valid())
		if err != nil {
			t.Fatal(err)
		}
		enc := base64.RawURLEncoding.EncodeToString
		return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc(claims) + "."
	}
	headers := map[string]string{
		"algorithm none":          "Bearer " + unsigned(),
		"wrong algorithm HS512":   "Bearer " + sign(valid(), jwa.HS512(), secret),
		"signed with another key": "Bearer " + sign(valid(), jwa.HS256(), []byte("another secret that is long enough!!")),
		"expired":                 "Bearer " + with(func(tok jwt.Token) { _ = tok.Set(jwt.ExpirationKey, now.Add(-time.Hour)) }),
		"not valid yet":           "Bearer " + with(func(tok jwt.Token) { _ = tok.Set(jwt.NotBeforeKey, now.Add(time.Hour)) }),
		"wrong audience":          "Bearer " + with(func(tok jwt.Token) { _ = tok.Set(jwt.AudienceKey, []string{"someone-else"}) }),
		"wrong issuer":            "Bearer " + with(func(tok jwt.Token) { _ = tok.Set(jwt.IssuerKey, "https://evil.example") }),
		"no username":             "Bearer " + with(func(tok jwt.Token) { _ = tok.Remove(jwt.SubjectKey) }),
		"malformed":               "Bearer not.a.token",
		"empty bearer":            "Bearer ",
		"basic credentials":       "Basic YWxpY2U6cGFzc3dvcmQ=",
	}
	for name, header := range headers {
		t.Run(name, func(t *testing.T) {
			client := srv.WithHeader("Authorization", header)
			before := srv.Contents(t)
			for mutation, m := range mutationsOf("alice", "alice") {
				resp := client.Query(t, m.query, m.vars)
				if resp.Status != 401 || resp.Code() != "UNAUTHENTICATED" {
					t.Errorf("%s: status %d, code %q; want 401 UNAUTHENTICATED: %+v", mutation, resp.Status, resp.Code(), resp.Errors)
				}
			}
			if after := srv.Contents(t); !reflect.DeepEqual(before, after) {
				t.Error("requests with a bad token changed the table")
			}
			// Reads are refused too: a client with a broken token must learn it at once.
			if resp := client.Query(t, `{ user(username: "alice") { username } }`, nil); resp.Status != 401 {
				t.Errorf("a read with a bad token: status %d, want 401", resp.Status)
			}
		})
	}
}

func TestPrivateProfileFieldsAreVisibleOnlyToTheirOwner(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth())
	alice := srv.As(t, "alice")
	resp := alice.Query(t, `mutation { createUser(input: {username: "alice", name: "Alice", email: "alice@example.com", birthdate: "1990-04-17", address: "1 Main St"}) { email birthdate address } }`, nil)
	if got := string(resp.Data); got != `{"createUser":{"email":"alice@example.com","birthdate":"1990-04-17","address":"1 Main St"}}` {
		t.Fatalf("alice creating her profile sees %s", got)
	}
	srv.MustCreateUser(t, "bob")
	srv.MustFollow(t, "bob", "alice")

	const profile = `{ user(username: "alice") { name email birthdate address } }`
	const nested = `{ user(username: "bob") { following { edges { node { followed { name email } } } } } }`
	const many = `{ users(usernames: ["alice"]) { name email } }`
	private := `{"user":{"name":"Alice","email":"alice@example.com","birthdate":"1990-04-17","address":"1 Main St"}}`
	public := `{"user":{"name":"Alice","email":null,"birthdate":null,"address":null}}`
	cases := []struct {
		name, query, want string
		as                *apitest.Server
	}{
		{"the owner", profile, private, alice},
		{"another user", profile, public, srv.As(t, "bob")},
		{"an anonymous caller", profile, public, srv},
		{"another user, through a friendship", nested, `{"user":{"following":{"edges":[{"node":{"followed":{"name":"Alice","email":null}}}]}}}`, srv.As(t, "bob")},
		{"another user, through users", many, `{"users":[{"name":"Alice","email":null}]}`, srv.As(t, "bob")},
		{"the owner, through users", many, `{"users":[{"name":"Alice","email":"alice@example.com"}]}`, alice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := c.as.Query(t, c.query, nil)
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %+v", resp.Errors)
			}
			if got := compact(t, resp.Data); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestViewer(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth())
	srv.MustCreateUser(t, "alice")
	const viewer = `{ viewer { username email } }`
	cases := []struct {
		name     string
		as       *apitest.Server
		wantData string
		wantCode string
	}{
		{"a signed-in user", srv.As(t, "alice"), `{"viewer":{"username":"alice","email":null}}`, ""},
		{"a signed-in user without a profile yet", srv.As(t, "newcomer"), `{"viewer":null}`, ""},
		{"an anonymous caller", srv, `{"viewer":null}`, "UNAUTHENTICATED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := c.as.Query(t, viewer, nil)
			if resp.Code() != c.wantCode {
				t.Fatalf("code %q, want %q: %+v", resp.Code(), c.wantCode, resp.Errors)
			}
			if got := compact(t, resp.Data); got != c.wantData {
				t.Errorf("data %s, want %s", got, c.wantData)
			}
		})
	}
	t.Run("a server without authentication", func(t *testing.T) {
		open := apitest.NewServer(t)
		if resp := open.Query(t, viewer, nil); resp.Code() != "UNAUTHENTICATED" {
			t.Errorf("code %q, want UNAUTHENTICATED: %+v", resp.Code(), resp.Errors)
		}
	})
}

// compact is data without insignificant whitespace, fields in the order the server sent them.
func compact(t *testing.T, data json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		t.Fatalf("data %s: %v", data, err)
	}
	return b.String()
}
