package dynamo

import (
	"errors"
	"testing"

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
			if got := cancellationError("reaction", c.reasons, actions); got != c.want {
				t.Fatalf("error %v, want %v", got, c.want)
			}
		})
	}
	for _, reasons := range [][]string{
		{"None", "None", "None", "ConditionalCheckFailed"}, // an action whose failure means nothing
		{"None", "ValidationError", "None", "None"},
	} {
		if err := cancellationError("reaction", reasons, actions); domain.ErrorCode(err) != domain.Internal {
			t.Errorf("reasons %v: %v, want an internal error", reasons, err)
		}
	}
}
