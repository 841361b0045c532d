package dynamo

import (
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

// TestStoredSpellings: every reaction type and profile field has its own stored spelling, the
// tutorial's, and a stored reaction type reads back as itself.
func TestStoredSpellings(t *testing.T) {
	reactions := map[domain.ReactionType]string{
		domain.ReactionThumbsUp: "+1", domain.ReactionHeart: "heart",
		domain.ReactionSmiley: "smiley", domain.ReactionSunglasses: "sunglasses",
	}
	for _, rt := range domain.ReactionTypes {
		if got := storedReactionTypes[rt]; got != reactions[rt] {
			t.Errorf("%s is stored as %q, want %q", rt, got, reactions[rt])
		}
		if back, ok := reactionTypeFromStored(reactions[rt]); !ok || back != rt {
			t.Errorf("%q reads back as %v, %v", reactions[rt], back, ok)
		}
	}
	for _, s := range []string{"", "THUMBS_UP", "thumbs up", "Heart", "wink"} {
		if rt, ok := reactionTypeFromStored(s); ok {
			t.Errorf("%q read as reaction type %s", s, rt)
		}
	}
	for i := 1; i < len(reactionTypesInKeyOrder); i++ {
		if a, b := storedReactionTypes[reactionTypesInKeyOrder[i-1]], storedReactionTypes[reactionTypesInKeyOrder[i]]; a >= b {
			t.Errorf("reactionTypesInKeyOrder: %q before %q", a, b)
		}
	}
	if len(reactionTypesInKeyOrder) != len(domain.ReactionTypes) {
		t.Errorf("reactionTypesInKeyOrder has %d types", len(reactionTypesInKeyOrder))
	}

	fields := map[domain.ProfileField]string{
		domain.FieldName: "name", domain.FieldEmail: "email", domain.FieldBirthdate: "birthdate",
		domain.FieldAddress: "address", domain.FieldStatus: "status", domain.FieldInterests: "interests",
		domain.FieldPinnedImage: "pinnedImage",
	}
	for _, f := range domain.ProfileFields {
		if got := profileAttributes[f]; got != fields[f] {
			t.Errorf("%s is stored as %q, want %q", f, got, fields[f])
		}
	}
}

func TestUserAttributes(t *testing.T) {
	if got := userAttributes(nil); got != nil {
		t.Errorf("every field: attributes %v, want no projection", got)
	}
	got := userAttributes([]domain.ProfileField{domain.FieldPinnedImage, domain.FieldInterests})
	want := []string{"followers", "following", "version", "pinnedImage", "interests"}
	if len(got) != len(want) {
		t.Fatalf("attributes %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("attributes %v, want %v", got, want)
		}
	}
}
