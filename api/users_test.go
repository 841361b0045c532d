package api_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

func TestCreateUser(t *testing.T) {
	srv := apitest.NewServer(t)
	const create = `mutation($in: CreateUserInput!) { createUser(input: $in) { username name email interests followerCount followingCount } }`

	t.Run("OK", func(t *testing.T) {
		resp := srv.Query(t, create, map[string]any{"in": map[string]any{
			"username": "alice", "name": "Alice", "email": "alice@example.com", "interests": []string{"cats", "film"},
		}})
		var got struct {
			CreateUser struct {
				Username, Name, Email         string
				Interests                     []string
				FollowerCount, FollowingCount int
			}
		}
		resp.Decode(t, &got)
		u := got.CreateUser
		if u.Username != "alice" || u.Name != "Alice" || u.Email != "alice@example.com" || strings.Join(u.Interests, ",") != "cats,film" {
			t.Fatalf("created %+v", u)
		}
		if c := resp.Cost(t); c.Requests != 1 || c.Operations["PutItem"] != 1 {
			t.Fatalf("cost %+v, want one PutItem", c)
		}
	})

	t.Run("ErrUsernameTaken", func(t *testing.T) {
		srv := apitest.NewServer(t)
		srv.MustCreateUser(t, "alice")
		before := srv.ItemCount(t)
		resp := srv.Query(t, create, map[string]any{"in": map[string]any{"username": "alice", "name": "Other"}})
		if resp.Code() != "CONFLICT" {
			t.Fatalf("code %q, want CONFLICT: %+v", resp.Code(), resp.Errors)
		}
		if after := srv.ItemCount(t); after != before {
			t.Fatalf("items %d -> %d: a refused write wrote", before, after)
		}
	})

	for name, in := range map[string]map[string]any{
		"ErrUsernameWithHash":  {"username": "bob#1"},
		"ErrUsernameTooLong":   {"username": strings.Repeat("b", 65)},
		"ErrUsernameEmpty":     {"username": ""},
		"ErrEmailMalformed":    {"username": "bob", "email": "not-an-email"},
		"ErrBirthdateNotADate": {"username": "bob", "birthdate": "1990-13-45"},
		"ErrPinnedImageScheme": {"username": "bob", "pinnedImage": "javascript:alert(1)"},
	} {
		t.Run(name, func(t *testing.T) {
			before := srv.ItemCount(t)
			resp := srv.Query(t, create, map[string]any{"in": in})
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %+v", resp.Code(), resp.Errors)
			}
			if c := resp.Cost(t); c.Requests != 0 {
				t.Fatalf("invalid input reached DynamoDB: %+v", c)
			}
			if after := srv.ItemCount(t); after != before {
				t.Fatalf("items %d -> %d", before, after)
			}
		})
	}
}

func TestUpdateUser(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.Query(t, `mutation { createUser(input: {username: "carol", name: "Carol", status: "hi", interests: ["a"]}) { username } }`, nil)
	const update = `mutation($u: ID!, $in: UpdateUserInput!) { updateUser(username: $u, input: $in) { name status address interests } }`

	t.Run("OK_SetsGivenRemovesNullKeepsOmitted", func(t *testing.T) {
		resp := srv.Query(t, update, map[string]any{"u": "carol", "in": map[string]any{"address": "1 Main St", "status": nil}})
		var got struct {
			UpdateUser struct {
				Name, Address string
				Status        *string
				Interests     []string
			}
		}
		resp.Decode(t, &got)
		u := got.UpdateUser
		if u.Name != "Carol" || u.Address != "1 Main St" || u.Status != nil || len(u.Interests) != 1 {
			t.Fatalf("updated %+v", u)
		}
		if c := resp.Cost(t); c.Requests != 1 || c.Operations["UpdateItem"] != 1 {
			t.Fatalf("cost %+v, want one UpdateItem", c)
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		before := srv.ItemCount(t)
		resp := srv.Query(t, update, map[string]any{"u": "nobody", "in": map[string]any{"name": "X"}})
		if resp.Code() != "NOT_FOUND" {
			t.Fatalf("code %q, want NOT_FOUND", resp.Code())
		}
		if srv.ItemCount(t) != before {
			t.Fatal("updateUser of a missing user created an item")
		}
	})
}

func TestUserQuery(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "dave")
	srv.MustCreateUser(t, "erin")

	t.Run("NullWhenAbsent", func(t *testing.T) {
		resp := srv.Query(t, `{ user(username: "nobody") { username } }`, nil)
		var got struct{ User *struct{ Username string } }
		resp.Decode(t, &got)
		if got.User != nil {
			t.Fatalf("got %+v, want null", got.User)
		}
	})

	t.Run("UsersInOrderWithNulls", func(t *testing.T) {
		resp := srv.Query(t, `{ users(usernames: ["erin", "nobody", "dave", "erin"]) { username } }`, nil)
		var got struct{ Users []*struct{ Username string } }
		resp.Decode(t, &got)
		if len(got.Users) != 4 || got.Users[0].Username != "erin" || got.Users[1] != nil || got.Users[2].Username != "dave" || got.Users[3].Username != "erin" {
			t.Fatalf("users %+v", got.Users)
		}
		if c := resp.Cost(t); c.Requests != 1 || c.Operations["BatchGetItem"] != 1 {
			t.Fatalf("cost %+v, want one BatchGetItem", c)
		}
	})

	t.Run("ErrTooManyUsernames", func(t *testing.T) {
		names := make([]string, 101)
		for i := range names {
			names[i] = "u" + strings.Repeat("x", i%5)
		}
		resp := srv.Query(t, `query($n: [ID!]!) { users(usernames: $n) { username } }`, map[string]any{"n": names})
		if resp.Code() != "BAD_USER_INPUT" {
			t.Fatalf("code %q, want BAD_USER_INPUT", resp.Code())
		}
	})

	t.Run("GetQueryWorksAndCostOnlyWhenAsked", func(t *testing.T) {
		resp := srv.Get(t, `{ user(username: "dave") { username } }`, nil)
		if resp.Status != 200 || resp.Extensions.Cost != nil {
			t.Fatalf("status %d, cost %+v: want 200 and no cost", resp.Status, resp.Extensions.Cost)
		}
		var got struct{ User struct{ Username string } }
		resp.Decode(t, &got)
		if got.User.Username != "dave" {
			t.Fatalf("got %+v", got)
		}
	})
}
