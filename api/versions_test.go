package api_test

import (
	"reflect"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

const updateVersioned = `mutation($u: ID!, $in: UpdateUserInput!) { updateUser(username: $u, input: $in) { name status version followerCount } }`

type versionedUser struct {
	UpdateUser struct {
		Name, Status  string
		Version       int
		FollowerCount int
	}
}

func userVersion(t *testing.T, srv *apitest.Server, username string) int {
	t.Helper()
	var got struct{ User struct{ Version int } }
	srv.Query(t, `query($u: ID!) { user(username: $u) { version } }`, map[string]any{"u": username}).Decode(t, &got)
	return got.User.Version
}

// TestUserVersion: every write of the profile's fields moves the version by one, in the
// same UpdateItem; counters never do, so an edit made against the version a client read
// succeeds although someone followed the user meanwhile, and an edit made against an older
// one is refused with the current profile.
func TestUserVersion(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUsers(t, "vera", "fan")
	if v := userVersion(t, srv, "vera"); v != 0 {
		t.Fatalf("a new profile is at version %d, want 0", v)
	}

	resp := srv.Query(t, updateVersioned, map[string]any{"u": "vera", "in": map[string]any{"status": "one"}})
	var got versionedUser
	resp.Decode(t, &got)
	if got.UpdateUser.Version != 1 {
		t.Fatalf("after one update: version %d, want 1", got.UpdateUser.Version)
	}
	if c := resp.Cost(t); c.Requests != 1 || c.Operations["UpdateItem"] != 1 {
		t.Fatalf("cost %+v, want one UpdateItem", c)
	}

	t.Run("OK_CountersDoNotMoveIt", func(t *testing.T) {
		srv.MustFollow(t, "fan", "vera")
		if v := userVersion(t, srv, "vera"); v != 1 {
			t.Fatalf("a follow moved the version to %d", v)
		}
		resp := srv.Query(t, updateVersioned, map[string]any{"u": "vera", "in": map[string]any{"status": "two", "expectedVersion": 1}})
		var got versionedUser
		resp.Decode(t, &got)
		if got.UpdateUser.Version != 2 || got.UpdateUser.Status != "two" || got.UpdateUser.FollowerCount != 1 {
			t.Fatalf("updated %+v, want version 2, status two, 1 follower", got.UpdateUser)
		}
		if c := resp.Cost(t); c.Requests != 1 || c.Operations["UpdateItem"] != 1 {
			t.Fatalf("cost %+v, want one UpdateItem", c)
		}
	})

	t.Run("ErrStaleVersion_CurrentInExtensions", func(t *testing.T) {
		before := srv.Contents(t)
		resp := srv.Query(t, updateVersioned, map[string]any{"u": "vera", "in": map[string]any{"status": "stale", "expectedVersion": 1}})
		if resp.Code() != "CONFLICT" {
			t.Fatalf("code %q, want CONFLICT: %+v", resp.Code(), resp.Errors)
		}
		current, _ := resp.Errors[0].Extensions["current"].(map[string]any)
		if current["version"] != float64(2) || current["status"] != "two" || current["username"] != "vera" ||
			current["followerCount"] != float64(1) || current["id"] != domain.NodeID(domain.UserKey{Username: "vera"}) {
			t.Fatalf("extensions.current %v, want vera at version 2 with status two", current)
		}
		if c := resp.Cost(t); c.Requests != 1 {
			t.Fatalf("cost %+v: the refusal carries the profile, no second read", c)
		}
		if after := srv.Contents(t); !reflect.DeepEqual(before, after) {
			t.Fatal("a stale update wrote")
		}
	})

	t.Run("ErrStaleVersion_NothingToChange", func(t *testing.T) {
		resp := srv.Query(t, updateVersioned, map[string]any{"u": "vera", "in": map[string]any{"expectedVersion": 0}})
		if resp.Code() != "CONFLICT" {
			t.Fatalf("code %q, want CONFLICT: %+v", resp.Code(), resp.Errors)
		}
	})

	t.Run("ErrNoSuchUser", func(t *testing.T) {
		for i, in := range []map[string]any{
			{"status": "x", "expectedVersion": 0},
			{"status": "x", "expectedVersion": 3},
			{"expectedVersion": 3},
			// With an id the update is a transaction, whose refusal is told apart by a read.
			{"status": "x", "expectedVersion": 3, "clientMutationId": "missing-1"},
		} {
			resp := srv.Query(t, updateVersioned, map[string]any{"u": "nobody", "in": in})
			if resp.Code() != "NOT_FOUND" {
				t.Fatalf("case %d (%v) of a missing user: code %q, want NOT_FOUND: %+v", i, in, resp.Code(), resp.Errors)
			}
		}
	})

	for name, v := range map[string]int{"ErrNegative": -1, "ErrTooLarge": domain.MaxVersion + 1} {
		t.Run(name, func(t *testing.T) {
			before := srv.Contents(t)
			resp := srv.Query(t, updateVersioned, map[string]any{"u": "vera", "in": map[string]any{"status": "x", "expectedVersion": v}})
			if resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("expectedVersion %d: code %q, want BAD_USER_INPUT: %+v", v, resp.Code(), resp.Errors)
			}
			if c := resp.Cost(t); c.Requests != 0 {
				t.Fatalf("a bad version reached DynamoDB: %+v", c)
			}
			if after := srv.Contents(t); !reflect.DeepEqual(before, after) {
				t.Fatal("a refused update wrote")
			}
		})
	}
}

// TestUserVersion_ItemsWithoutOne: a profile written before versions (no attribute) is at
// version 0, and updates from there: no migration.
func TestUserVersion_ItemsWithoutOne(t *testing.T) {
	srv := apitest.NewServer(t)
	name := "Old"
	srv.WriteRaw(t, domain.Dataset{Users: []domain.User{{Username: "old", Profile: domain.Profile{Name: &name}}}})
	if v := userVersion(t, srv, "old"); v != 0 {
		t.Fatalf("an item without a version reads as %d, want 0", v)
	}
	var got versionedUser
	srv.Query(t, updateVersioned, map[string]any{"u": "old", "in": map[string]any{"status": "new", "expectedVersion": 0}}).Decode(t, &got)
	if got.UpdateUser.Version != 1 || got.UpdateUser.Name != "Old" {
		t.Fatalf("updated %+v, want version 1", got.UpdateUser)
	}
}
