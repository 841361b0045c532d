package domain_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestValidateUsername(t *testing.T) {
	for _, tc := range []struct {
		name  string
		valid bool
	}{
		{"jacksonjason", true}, {"a", true}, {"Ada_Lovelace-1.0", true}, {strings.Repeat("x", 64), true},
		{"", false}, {strings.Repeat("x", 65), false}, {"a#b", false}, {"a b", false}, {"a/b", false},
		{"ünïcode", false}, {"a$b", false}, {"tab\t", false},
	} {
		err := domain.ValidateUsername("username", tc.name)
		if (err == nil) != tc.valid {
			t.Errorf("%q: err %v, want valid=%v", tc.name, err, tc.valid)
		}
		if err != nil && domain.ErrorCode(err) != domain.Invalid {
			t.Errorf("%q: code %s, want invalid", tc.name, domain.ErrorCode(err))
		}
	}
}

func TestValidateURL(t *testing.T) {
	for _, tc := range []struct {
		url   string
		valid bool
	}{
		{"https://cdn.example.com/a.jpg", true}, {"http://localhost:8080/x", true},
		{"ftp://x/y", false}, {"javascript:alert(1)", false}, {"/relative.jpg", false}, {"https://", false},
		{"https://x/" + strings.Repeat("a", 2048), false},
		{"https://cdn.example.com/\u202egpj.exe", false}, {"https://cdn.ex\u2066ample.com/a.jpg", false},
		{"https://cdn.example.com/a\u0085.jpg", false}, {"https://cdn.example.com/a\xff.jpg", false},
		{"https://cdn.example.com/caf\u00e9.jpg", true},
	} {
		if err := domain.ValidateURL("url", tc.url); (err == nil) != tc.valid {
			t.Errorf("%q: err %v, want valid=%v", tc.url, err, tc.valid)
		}
	}
}

func TestValidatePage(t *testing.T) {
	for first, valid := range map[int]bool{1: true, 20: true, 100: true, 0: false, -5: false, 101: false} {
		if err := domain.ValidatePage(domain.PageRequest{First: first}); (err == nil) != valid {
			t.Errorf("first=%d: err %v, want valid=%v", first, err, valid)
		}
	}
}

func TestValidateProfileChanges(t *testing.T) {
	for name, tc := range map[string]struct {
		set   map[domain.ProfileField]any
		valid bool
	}{
		"OK":                     {map[domain.ProfileField]any{domain.FieldName: "Ada", domain.FieldEmail: "ada@example.com", domain.FieldBirthdate: "1815-12-10", domain.FieldInterests: []string{"maths"}}, true},
		"ErrEmail":               {map[domain.ProfileField]any{domain.FieldEmail: "Ada <ada@example.com>"}, false},
		"ErrBirthdate":           {map[domain.ProfileField]any{domain.FieldBirthdate: "10/12/1815"}, false},
		"ErrPinnedImage":         {map[domain.ProfileField]any{domain.FieldPinnedImage: "data:image/png;base64,xx"}, false},
		"ErrTooManyInterests":    {map[domain.ProfileField]any{domain.FieldInterests: make([]string, 51)}, false},
		"ErrEmptyInterest":       {map[domain.ProfileField]any{domain.FieldInterests: []string{""}}, false},
		"ErrLongStatus":          {map[domain.ProfileField]any{domain.FieldStatus: strings.Repeat("é", 1001)}, false},
		"ErrInvalidUTF8":         {map[domain.ProfileField]any{domain.FieldName: "\xff"}, false},
		"ErrInvalidUTF8Interest": {map[domain.ProfileField]any{domain.FieldInterests: []string{"ok", "\xed\xa0\x80"}}, false},
	} {
		err := domain.ValidateProfileChanges(domain.ProfileChanges{Set: tc.set})
		if (err == nil) != tc.valid {
			t.Errorf("%s: err %v, want valid=%v", name, err, tc.valid)
		}
	}
}

func TestValidateFriendship_SelfFollow(t *testing.T) {
	err := domain.ValidateFriendship(domain.FriendshipKey{Follower: "ada", Followed: "ada"})
	if domain.ErrorCode(err) != domain.Invalid {
		t.Fatalf("err %v, want invalid", err)
	}
}

func TestErrorCodeAndMessage(t *testing.T) {
	if domain.ErrorCode(nil) != "" {
		t.Error("nil error has a code")
	}
	plain := strings.NewReader("").UnreadByte() // any non-domain error
	if domain.ErrorCode(plain) != domain.Internal || domain.ErrorMessage(plain) != "internal error" {
		t.Errorf("plain error: %s %q", domain.ErrorCode(plain), domain.ErrorMessage(plain))
	}
	wrapped := domain.Wrap(domain.Internal, plain, "secret detail")
	if domain.ErrorMessage(wrapped) != "internal error" {
		t.Error("an internal error's message leaks")
	}
	if e := domain.Errorf(domain.Conflict, "taken"); domain.ErrorMessage(e) != "taken" || domain.ErrorCode(e) != domain.Conflict {
		t.Error("conflict lost its code or message")
	}
}
