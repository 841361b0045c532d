package domain

import (
	"strings"
	"testing"
)

func TestValidateClientMutationID(t *testing.T) {
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"m", true},
		{"3f2b6c1e-5d7a-4c1b-9f0e-2a6d8b7c4e1f", true},
		{"queue #4: follow ann", true},
		{strings.Repeat("x", MaxClientMutationIDLength), true},
		{strings.Repeat("é", MaxClientMutationIDLength), true}, // characters, not bytes
		{"", false},
		{strings.Repeat("x", MaxClientMutationIDLength+1), false},
		{"a\tb", false},
		{"a\nb", false},
		{"a\u007fb", false},
		{"a\u200bb", false}, // zero-width space, a format character
		{"a\u202eb", false}, // right-to-left override
		{"a\u00a0b", false}, // no-break space: only U+0020 counts as printable space
		{"\xff", false},
	} {
		err := ValidateClientMutationID("clientMutationId", tc.id)
		if (err == nil) != tc.ok || err != nil && ErrorCode(err) != Invalid {
			t.Errorf("%q: %v, want ok %v", tc.id, err, tc.ok)
		}
	}
}

func TestInputHash(t *testing.T) {
	hash := func(mutation string, args map[string]any) string {
		h, err := InputHash(mutation, args)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	a := hash("followUser", map[string]any{"input": map[string]any{"follower": "bob", "followed": "ann"}})
	if b := hash("followUser", map[string]any{"input": map[string]any{"followed": "ann", "follower": "bob"}}); a != b {
		t.Error("the order of keys changed the hash")
	}
	if b := hash("unfollowUser", map[string]any{"input": map[string]any{"follower": "bob", "followed": "ann"}}); a == b {
		t.Error("another mutation with the same arguments has the same hash")
	}
	if b := hash("followUser", map[string]any{"input": map[string]any{"follower": "bob", "followed": "cy"}}); a == b {
		t.Error("other arguments have the same hash")
	}
}
