package domain_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
)

// idTimestamp is an instant in the canonical form, whichever form that is.
var idTimestamp = domain.Timestamp(time.Date(2019, 3, 3, 18, 20, 10, 0, time.UTC))

// rawID encodes a body as ids are encoded, so the tests can forge ids of any content.
func rawID(body string) string { return base64.RawURLEncoding.EncodeToString([]byte(body)) }

func TestNodeID_RoundTrip(t *testing.T) {
	photo := domain.PhotoKey{Owner: "ada", Timestamp: idTimestamp}
	for name, k := range map[string]domain.NodeKey{
		"User":       domain.UserKey{Username: "ada.l_0-v"},
		"Photo":      photo,
		"Reaction":   domain.ReactionKey{Username: "bob", Type: domain.ReactionThumbsUp, Photo: photo},
		"Friendship": domain.FriendshipKey{Follower: "bob", Followed: "ada"},
	} {
		t.Run(name, func(t *testing.T) {
			id := domain.NodeID(k)
			got, err := domain.ParseNodeID("id", id)
			if err != nil || got != k {
				t.Fatalf("ParseNodeID(%q) = %#v, %v; want %#v", id, got, err, k)
			}
			if domain.NodeTypeName(got) != name {
				t.Errorf("type name %q, want %q", domain.NodeTypeName(got), name)
			}
			if strings.Contains(id, "ada") || strings.ContainsAny(id, "+/=") {
				t.Errorf("id %q is not opaque base64url", id)
			}
		})
	}
}

// TestNodeID_OneIDPerEntity: the entities' own ID methods give the id of their key, and two
// entities differing in any part of their key have different ids.
func TestNodeID_OneIDPerEntity(t *testing.T) {
	photo := domain.Photo{Owner: "ada", Timestamp: idTimestamp, URL: "https://cdn.example.com/1.jpg"}
	reaction := domain.Reaction{Username: "bob", Type: domain.ReactionHeart, Photo: photo.Key(), Timestamp: idTimestamp}
	friendship := domain.Friendship{Follower: "bob", Followed: "ada", Timestamp: idTimestamp}
	ids := map[string]string{
		"user":           domain.User{Username: "ada"}.ID(),
		"photo":          photo.ID(),
		"reaction":       reaction.ID(),
		"friendship":     friendship.ID(),
		"other type":     domain.Reaction{Username: "bob", Type: domain.ReactionSmiley, Photo: photo.Key()}.ID(),
		"reversed":       domain.Friendship{Follower: "ada", Followed: "bob"}.ID(),
		"other instant":  domain.Photo{Owner: "ada", Timestamp: domain.Timestamp(time.Date(2019, 3, 3, 18, 20, 11, 0, time.UTC))}.ID(),
		"user named ada": domain.NodeID(domain.UserKey{Username: "Ada"}),
	}
	seen := map[string]string{}
	for what, id := range ids {
		if other, ok := seen[id]; ok {
			t.Errorf("%s and %s share the id %q", what, other, id)
		}
		seen[id] = what
	}
	if got, _ := domain.ParseNodeID("id", reaction.ID()); got != reaction.Key() {
		t.Errorf("reaction id names %#v, want %#v", got, reaction.Key())
	}
}

func TestParseNodeID_Refused(t *testing.T) {
	valid := domain.NodeID(domain.PhotoKey{Owner: "ada", Timestamp: idTimestamp})
	for _, tc := range []struct {
		name, id, says string
	}{
		{"Empty", "", "not a list of key parts"},
		{"NotBase64", "%%%", "not base64url"},
		{"Padded", valid + "=", "not base64url"},
		{"StdAlphabet", strings.NewReplacer("-", "+", "_", "/").Replace(domain.NodeID(domain.UserKey{Username: "a~~~>>>"})), "not base64url"},
		{"TooLong", strings.Repeat("A", 2000), "ids are at most 1024"},
		{"NotJSON", rawID("hello"), "not a list of key parts"},
		{"Object", rawID(`{"t":"User","u":"ada"}`), "not a list of key parts"},
		{"EmptyList", rawID(`[]`), "not a list of key parts"},
		{"Numbers", rawID(`["User",1]`), "not a list of key parts"},
		{"Trailing", rawID(`["User","ada"]["User","bob"]`), "not a list of key parts"},
		{"UnknownType", rawID(`["PageInfo","ada"]`), `"PageInfo" is not a type with ids`},
		{"LowercaseType", rawID(`["user","ada"]`), `"user" is not a type with ids`},
		{"Cursor", "eyJsIjoicGhvdG9zIiwicCI6IlVTRVIjYWRhIiwicyI6IlBIT1RPI2FkYSMyMDE5LTAzLTAzVDE4OjIwOjEwWiJ9", "not a list of key parts"},
		{"MissingPart", rawID(`["Photo","ada"]`), "a Photo id has 3 parts, this one 2"},
		{"ExtraPart", rawID(`["User","ada","x"]`), "a User id has 2 parts, this one 3"},
		{"BadUsername", rawID(`["User","ada#PHOTO"]`), "not a valid username"},
		{"EmptyUsername", rawID(`["User",""]`), "a username is required"},
		{"NotATimestamp", rawID(`["Photo","ada","yesterday"]`), "timestamp"},
		{"OtherSpellingOfTheInstant", rawID(`["Photo","ada","2019-03-03T20:20:10+02:00"]`), "timestamp"},
		{"BadReactionType", rawID(`["Reaction","bob","LIKE","ada","` + idTimestamp + `"]`), `"LIKE" is not a reaction type`},
		{"StoredReactionType", rawID(`["Reaction","bob","+1","ada","` + idTimestamp + `"]`), `"+1" is not a reaction type`},
		{"FollowingThemselves", rawID(`["Friendship","ada","ada"]`), "cannot follow themselves"},
		{"WhiteSpace", rawID(`["User", "ada"]`), "not spelt as the server spells ids"},
		{"Escaped", rawID(`["User","\u0061da"]`), "not spelt as the server spells ids"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, err := domain.ParseNodeID("ids[2]", tc.id)
			if domain.ErrorCode(err) != domain.Invalid {
				t.Fatalf("ParseNodeID(%q) = %#v, %v; want invalid", tc.id, k, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "ids[2]: not an id of this server") || !strings.Contains(msg, tc.says) {
				t.Errorf("message %q, want it to name the argument and say %q", msg, tc.says)
			}
		})
	}
}

func FuzzParseNodeID(f *testing.F) {
	f.Add(domain.NodeID(domain.UserKey{Username: "ada"}))
	f.Add(domain.NodeID(domain.ReactionKey{Username: "bob", Type: domain.ReactionSunglasses, Photo: domain.PhotoKey{Owner: "ada", Timestamp: idTimestamp}}))
	f.Add(rawID(`["Friendship","a","b"]`))
	f.Fuzz(func(t *testing.T, id string) {
		k, err := domain.ParseNodeID("id", id)
		if err != nil {
			if domain.ErrorCode(err) != domain.Invalid {
				t.Fatalf("%q: error %v is not invalid", id, err)
			}
			return
		}
		// Whatever is accepted is the one spelling of a valid key.
		if got := domain.NodeID(k); got != id {
			t.Fatalf("%q accepted, but the key's id is %q", id, got)
		}
	})
}
