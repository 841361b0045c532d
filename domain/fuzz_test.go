package domain_test

import (
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/quickphotos/quickphotos/domain"
)

// The fuzz targets check properties of the validation every GraphQL argument goes through,
// with oracles written independently of the code under test. Their seed corpora in
// testdata/fuzz/ hold the inputs of issue 13 (timestamps without a zone, NUL, BEL and
// bidirectional overrides in profile text) as regression seeds.

// FuzzCanonicalTimestamp: anything accepted names the same instant as the input (UTC when it
// has no zone), in a form that is canonical (fixed width, no zone, re-validates to itself) and
// sorts like time.
func FuzzCanonicalTimestamp(f *testing.F) {
	f.Add("2019-03-03T18:20:10Z", "2019-03-03T20:20:10+02:00")
	f.Add("2019-03-03T18:20:10.000Z", "2100-12-31T23:59:59Z")
	f.Add("2018-05-30T15:42:38", "2018-05-30T15:42:38Z")
	f.Fuzz(func(t *testing.T, a, b string) {
		ca, okA := checkTimestamp(t, a)
		cb, okB := checkTimestamp(t, b)
		if !okA || !okB {
			return
		}
		ta, _ := time.Parse(domain.TimestampLayout, ca)
		tb, _ := time.Parse(domain.TimestampLayout, cb)
		if got, want := strings.Compare(ca, cb), ta.Compare(tb); got != want {
			t.Errorf("%q and %q compare %d as strings, %d as times", ca, cb, got, want)
		}
	})
}

// checkTimestamp checks CanonicalTimestamp(ts) and returns its result.
func checkTimestamp(t *testing.T, ts string) (string, bool) {
	c, err := domain.CanonicalTimestamp("timestamp", ts)
	if err != nil {
		checkRefusal(t, "timestamp", ts, err)
		return "", false
	}
	if len(c) != len(domain.TimestampLayout) || strings.ContainsAny(c, "Z+") || strings.Count(c, "-") != 2 {
		t.Fatalf("%q: canonical form %q is not %d bytes without a zone", ts, c, len(domain.TimestampLayout))
	}
	if again, err := domain.CanonicalTimestamp("timestamp", c); err != nil || again != c {
		t.Fatalf("%q: canonical form %q canonicalises to %q, %v", ts, c, again, err)
	}
	if err := domain.ValidateTimestamp("timestamp", c); err != nil {
		t.Fatalf("%q: canonical form %q does not validate: %v", ts, c, err)
	}
	// The input was RFC 3339 with a zone, or the same without one read as UTC (Go's parser is
	// laxer than RFC 3339, never stricter), and names the same instant.
	in, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		in, err = time.Parse("2006-01-02T15:04:05.999999999", ts)
	}
	if err != nil {
		t.Fatalf("%q accepted as %q, but it is not RFC 3339 with or without a zone: %v", ts, c, err)
	}
	out, err := time.Parse(domain.TimestampLayout, c)
	if err != nil || !in.Equal(out) {
		t.Fatalf("%q (%v) accepted as %q (%v, %v): not the same instant", ts, in, c, out, err)
	}
	if c < domain.MinTimestamp || c > domain.MaxTimestamp {
		t.Fatalf("%q accepted as %q, outside the stated range", ts, c)
	}
	return c, true
}

// urlField stands for a photo's URL among textFields: zero is no profile field.
const urlField domain.ProfileField = 0

// textFields are the fields FuzzValidateText picks from: the profile's, then a photo's URL.
var textFields = append(append([]domain.ProfileField{}, domain.ProfileFields...), urlField)

func fieldName(f domain.ProfileField) string {
	if f == urlField {
		return "url"
	}
	return f.String()
}

// FuzzValidateText: text accepted for a profile field or a photo URL holds no invalid UTF-8,
// control, bidirectional control or line-separator character (line feeds only in an
// address), fits its length limit, and passes the field's own format check.
func FuzzValidateText(f *testing.F) {
	for i := range textFields {
		f.Add(uint8(i), "Ada Lovelace")
	}
	f.Add(uint8(3), "1 Main St\nSpringfield")
	f.Fuzz(func(t *testing.T, pick uint8, s string) {
		field := textFields[int(pick)%len(textFields)]
		var err error
		switch field {
		case urlField:
			err = domain.ValidateURL("url", s)
		case domain.FieldInterests:
			err = domain.ValidateProfileChanges(domain.ProfileChanges{Set: map[domain.ProfileField]any{field: []string{s}}})
			if created := domain.ValidateProfile(domain.Profile{Interests: []string{s}}); (created == nil) != (err == nil) {
				t.Fatalf("interests %q: createUser says %v, updateUser says %v", s, created, err)
			}
		default:
			err = domain.ValidateProfileChanges(domain.ProfileChanges{Set: map[domain.ProfileField]any{field: s}})
			p := domain.Profile{}
			*p.Field(field) = &s
			if created := domain.ValidateProfile(p); (created == nil) != (err == nil) {
				t.Fatalf("%s %q: createUser says %v, updateUser says %v", field, s, created, err)
			}
		}
		if err != nil {
			checkRefusal(t, fieldName(field), s, err)
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("%s: accepted invalid UTF-8 %q", field, s)
		}
		for i, r := range s {
			if unicode.IsControl(r) && (r != '\n' || field != domain.FieldAddress) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
				t.Fatalf("%s: accepted %q with %U at byte %d", fieldName(field), s, r, i)
			}
		}
		limit := map[domain.ProfileField]int{domain.FieldInterests: domain.MaxInterestLength, urlField: domain.MaxURLLength}[field]
		if limit == 0 {
			limit = domain.MaxTextLength
		}
		if n := utf8.RuneCountInString(s); n > limit {
			t.Fatalf("%s: accepted %d characters, limit %d", field, n, limit)
		}
		switch field {
		case domain.FieldEmail:
			if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
				t.Fatalf("email: accepted %q", s)
			}
		case domain.FieldBirthdate:
			if _, err := time.Parse(time.DateOnly, s); err != nil {
				t.Fatalf("birthdate: accepted %q", s)
			}
		case domain.FieldPinnedImage, urlField:
			if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Fatalf("%s: accepted %q", field, s)
			}
		case domain.FieldInterests:
			if s == "" {
				t.Fatal("interests: accepted an empty interest")
			}
		}
	})
}

var usernameAlphabet = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// FuzzValidateUsername: an accepted username is 1 to 64 bytes of the key-safe alphabet (no '#',
// the key separator).
func FuzzValidateUsername(f *testing.F) {
	f.Add("ada")
	f.Fuzz(func(t *testing.T, s string) {
		err := domain.ValidateUsername("username", s)
		if err != nil {
			checkRefusal(t, "username", s, err)
			return
		}
		if !usernameAlphabet.MatchString(s) {
			t.Fatalf("accepted username %q", s)
		}
	})
}

// checkRefusal checks that a refusal is the client's mistake, names the argument, and prints no
// character that could garble the client's display of the message.
func checkRefusal(t *testing.T, field, input string, err error) {
	t.Helper()
	if domain.ErrorCode(err) != domain.Invalid {
		t.Fatalf("%s %q: refused with code %s, want invalid: %v", field, input, domain.ErrorCode(err), err)
	}
	msg := domain.ErrorMessage(err)
	if !strings.HasPrefix(msg, field) {
		t.Fatalf("%s %q: message %q does not name the argument", field, input, msg)
	}
	if !utf8.ValidString(msg) {
		t.Fatalf("%s %q: message %q is not valid UTF-8", field, input, msg)
	}
	for _, r := range msg {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			t.Fatalf("%s %q: message %q holds %U", field, input, msg, r)
		}
	}
}
