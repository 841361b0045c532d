package api

import (
	"net/http"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

// TestErrorTable: every domain error code has its own extensions.code and an HTTP status, and
// none is taken by the codes of refused documents.
func TestErrorTable(t *testing.T) {
	seen := map[string]domain.Code{codeValidationFailed: "(a document refused by validation)", codeLimitExceeded: "(a document refused by the limits)"}
	for _, c := range []domain.Code{domain.Invalid, domain.NotFound, domain.Conflict, domain.Unauthenticated,
		domain.Forbidden, domain.Unavailable, domain.LimitExceeded, domain.CursorExpired, domain.Internal} {
		ext := extensionCode(c)
		if ext == "" {
			t.Errorf("code %v has no extensions.code", c)
		}
		if other, dup := seen[ext]; dup {
			t.Errorf("codes %v and %v share the extensions.code %s", c, other, ext)
		}
		seen[ext] = c
		if s := httpStatus(c); s < 400 || (c != domain.Internal && s == http.StatusInternalServerError) {
			t.Errorf("code %v has HTTP status %d", c, s)
		}
	}
	if len(errorKinds) != len(seen)-2 {
		t.Errorf("the table has %d codes, the test knows %d: add the new one here", len(errorKinds), len(seen)-2)
	}
}
