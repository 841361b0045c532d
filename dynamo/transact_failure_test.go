package dynamo

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// TestCancellationError: a cancelled transaction's error is that of its first action whose
// condition failed; a failure no action gives a meaning is internal.
func TestCancellationError(t *testing.T) {
	photoGone, userGone, reacted := errors.New("photo"), errors.New("user"), errors.New("reacted")
	actions := []txAction{updateIf(nil, photoGone), checkIf(nil, userGone), putIf(nil, reacted), deleteIf(nil, nil)}
	for _, c := range []struct {
		name    string
		reasons []string
		want    error
	}{
		{"only the last with a meaning", []string{"None", "None", "ConditionalCheckFailed", "None"}, reacted},
		{"the first of two", []string{"None", "ConditionalCheckFailed", "ConditionalCheckFailed", "None"}, userGone},
		{"the first action", []string{"ConditionalCheckFailed", "ConditionalCheckFailed", "None", "None"}, photoGone},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := cancellationError("reaction", c.reasons, nil, actions); got != c.want {
				t.Fatalf("error %v, want %v", got, c.want)
			}
		})
	}
	for _, reasons := range [][]string{
		{"None", "None", "None", "ConditionalCheckFailed"}, // an action whose failure means nothing
		{"None", "ValidationError", "None", "None"},
	} {
		if err := cancellationError("reaction", reasons, nil, actions); domain.ErrorCode(err) != domain.Internal {
			t.Errorf("reasons %v: %v, want an internal error", reasons, err)
		}
	}
}

// TestCancellationError_Explained: an action that asked for the item as it was tells its
// failure from that item, the one returned for it and not another action's; without one, from
// nothing.
func TestCancellationError_Explained(t *testing.T) {
	markTaken := errors.New("marked")
	explain := func(old Item) error {
		if old == nil {
			return errors.New("no item")
		}
		s, _ := getString(old, attrSK)
		return errors.New("item " + s)
	}
	actions := []txAction{putIf(nil, markTaken), updateOrExplain(&types.Update{}, explain)}
	old := []Item{{attrSK: str("the mark")}, {attrSK: str("the profile")}}
	for _, c := range []struct {
		name    string
		reasons []string
		old     []Item
		want    string
	}{
		{"its own item", []string{"None", "ConditionalCheckFailed"}, old, "item the profile"},
		{"no item returned", []string{"None", "ConditionalCheckFailed"}, nil, "no item"},
		{"an earlier action's failure first", []string{"ConditionalCheckFailed", "ConditionalCheckFailed"}, old, "marked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := cancellationError("profile update", c.reasons, c.old, actions); got == nil || got.Error() != c.want {
				t.Fatalf("error %v, want %q", got, c.want)
			}
		})
	}
	if u := actions[1].write.Update; u.ReturnValuesOnConditionCheckFailure != types.ReturnValuesOnConditionCheckFailureAllOld {
		t.Fatalf("the update asks for %q, want ALL_OLD", u.ReturnValuesOnConditionCheckFailure)
	}
}
