package dynamo

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

// TestGetNodes_RequestPerKeyCount: one key is read with a GetItem, several with a BatchGetItem,
// one request either way for the same capacity; both honour the profile fields asked for and
// leave out keys with no item.
func TestGetNodes_RequestPerKeyCount(t *testing.T) {
	_, store := embedded(t)
	ctx := context.Background()
	name, email := "Ada", "ada@example.com"
	for _, u := range []string{"ada", "bob"} {
		if _, err := store.CreateUser(ctx, u, domain.Profile{Name: &name, Email: &email}); err != nil {
			t.Fatal(err)
		}
	}
	ada, bob, nobody := domain.UserKey{Username: "ada"}, domain.UserKey{Username: "bob"}, domain.UserKey{Username: "nobody"}
	nameOnly := []domain.ProfileField{domain.FieldName}
	for _, tc := range []struct {
		name      string
		keys      []domain.NodeKey
		operation string
		found     int
		rcu       float64 // half a unit per key read, found or not
	}{
		{"one key", []domain.NodeKey{ada}, "GetItem", 1, 0.5},
		{"one key, twice", []domain.NodeKey{ada, ada}, "GetItem", 1, 0.5},
		{"one key with no item", []domain.NodeKey{nobody}, "GetItem", 0, 0.5},
		{"two keys", []domain.NodeKey{ada, bob}, "BatchGetItem", 2, 1},
		{"a key and one with no item", []domain.NodeKey{ada, nobody}, "BatchGetItem", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cost := WithCost(ctx)
			nodes, err := store.GetNodes(ctx, tc.keys, nameOnly)
			if err != nil {
				t.Fatal(err)
			}
			if s := cost.Snapshot(); s.Requests != 1 || s.Operations[tc.operation] != 1 || s.ReadCapacityUnits != tc.rcu {
				t.Errorf("cost %+v, want one %s of %g read units", s, tc.operation, tc.rcu)
			}
			if len(nodes) != tc.found {
				t.Fatalf("%d nodes, want %d", len(nodes), tc.found)
			}
			for _, n := range nodes {
				u := n.(*domain.User)
				if u.Name == nil || *u.Name != name || u.Email != nil {
					t.Errorf("%s: name %v, email %v: want the name alone", u.Username, u.Name, u.Email)
				}
			}
		})
	}
}

// TestBatchGetConsistent_OneKey: a strongly consistent read of one key stays strongly
// consistent as a GetItem: a whole read unit, where an eventually consistent one costs half.
func TestBatchGetConsistent_OneKey(t *testing.T) {
	_, store := embedded(t)
	ctx := context.Background()
	if _, err := store.CreateUser(ctx, "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	ctx, cost := WithCost(ctx)
	items, err := store.batchGetConsistent(ctx, []Key{UserKey("ada")})
	if err != nil || len(items) != 1 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	if s := cost.Snapshot(); s.Operations["GetItem"] != 1 || s.ReadCapacityUnits != 1 {
		t.Errorf("cost %+v, want one strongly consistent GetItem (1 read unit)", s)
	}
}

// TestProjection_Placeholders: the names of a projection's attributes are #p0, #p1, … however
// many there are, the first ones spelt once in advance.
func TestProjection_Placeholders(t *testing.T) {
	attributes := make([]string, 40)
	for i := range attributes {
		attributes[i] = fmt.Sprint("attr", i)
	}
	attributes = append(attributes, "attr3") // named once
	expr, names := projection(attributes)
	parts := strings.Split(*expr, ", ")
	if len(parts) != 40 || len(names) != 40 {
		t.Fatalf("%d parts, %d names for 40 distinct attributes", len(parts), len(names))
	}
	for i, part := range parts {
		if want := fmt.Sprintf("#p%d", i); part != want || names[part] != fmt.Sprint("attr", i) {
			t.Errorf("part %d: %q naming %q, want %s naming attr%d", i, part, names[part], want, i)
		}
	}
}
