package domain_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

// TestProfileText_ControlAndBidiCharacters covers every free-text field of a profile: what
// other people see must print the way it reads.
func TestProfileText_ControlAndBidiCharacters(t *testing.T) {
	bad := map[string]string{
		"NUL":              "Ada\x00Lovelace",
		"BEL":              "Ada\a",
		"Tab":              "Ada\tLovelace",
		"Escape":           "\x1b[31mAda",
		"Delete":           "Ada\x7f",
		"C1NextLine":       "Ada\u0085Lovelace",
		"RightToLeftOvr":   "Ada \u202egpj.exe",
		"LeftToRightEmb":   "\u202aAda",
		"PopDirectional":   "Ada\u202c",
		"FirstStrongIsol":  "\u2068Ada",
		"PopIsolate":       "Ada\u2069",
		"RightToLeftMark":  "Ada\u200f",
		"LeftToRightMark":  "\u200eAda",
		"ArabicLetterMark": "Ada\u061c",
		"LineSeparator":    "Ada\u2028Lovelace",
		"ParagraphSep":     "Ada\u2029Lovelace",
		"InvalidUTF8":      "Ada\xc3",
	}
	singleLine := []domain.ProfileField{domain.FieldName, domain.FieldStatus, domain.FieldAddress, domain.FieldEmail, domain.FieldPinnedImage}
	for name, s := range bad {
		for _, f := range append(singleLine, domain.FieldInterests) {
			var v any = s
			if f == domain.FieldInterests {
				v = []string{"maths", s}
			}
			err := domain.ValidateProfileChanges(domain.ProfileChanges{Set: map[domain.ProfileField]any{f: v}})
			if domain.ErrorCode(err) != domain.Invalid {
				t.Errorf("%s in %s: err %v, want invalid", name, f, err)
				continue
			}
			if !strings.HasPrefix(err.Error(), f.String()) {
				t.Errorf("%s in %s: %q does not name the field", name, f, err)
			}
			if strings.ContainsAny(err.Error(), "\x00\a\u202e\u2028") {
				t.Errorf("%s in %s: the message prints the character: %q", name, f, err)
			}
		}
	}
}

func TestProfileText_LineBreaks(t *testing.T) {
	for name, tc := range map[string]struct {
		field domain.ProfileField
		value string
		valid bool
		says  string
	}{
		"AddressLines":        {domain.FieldAddress, "1 Main St\nSpringfield\n12345", true, ""},
		"AddressCRLF":         {domain.FieldAddress, "1 Main St\r\nSpringfield", false, "character 10 is U+000D, a line break other than a line feed"},
		"AddressLineSep":      {domain.FieldAddress, "1 Main St\u2028Springfield", false, "U+2028"},
		"NameNewline":         {domain.FieldName, "Ada\nLovelace", false, "character 4 is U+000A, a line break"},
		"StatusNewline":       {domain.FieldStatus, "shipping\n", false, "U+000A"},
		"StatusEmoji":         {domain.FieldStatus, "shipping 👩‍💻 (ZWJ is fine)", true, ""},
		"NameRightToLeft":     {domain.FieldName, "עדה לאבלייס", true, ""},
		"NameOverrideMessage": {domain.FieldName, "Ada\u202e", false, "name: character 4 is U+202E, a bidirectional control"},
		"StatusBellMessage":   {domain.FieldStatus, "\a", false, "status: character 1 is U+0007, a control character"},
	} {
		err := domain.ValidateProfileChanges(domain.ProfileChanges{Set: map[domain.ProfileField]any{tc.field: tc.value}})
		if (err == nil) != tc.valid {
			t.Errorf("%s: err %v, want valid=%v", name, err, tc.valid)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %q, want it to say %q", name, err, tc.says)
		}
	}
	// ValidateProfile (createUser) applies the same rules.
	bell := "\a"
	if err := domain.ValidateProfile(domain.Profile{Status: &bell}); domain.ErrorCode(err) != domain.Invalid {
		t.Errorf("ValidateProfile with a BEL status: %v", err)
	}
}
