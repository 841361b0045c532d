package domain_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestCanonicalTimestamp(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "" means refused
		says     string // the refusal's message holds this
	}{
		// The canonical form, the tutorial's: UTC to the second, no zone.
		{"2018-05-30T15:42:38", "2018-05-30T15:42:38", ""},
		{"2018-01-01T00:00:00", "2018-01-01T00:00:00", ""},
		{"2018-05-30T15:42:38.000", "2018-05-30T15:42:38", ""},
		// RFC 3339 with a zone: the same instant in the canonical form.
		{"2019-03-03T18:20:10Z", "2019-03-03T18:20:10", ""},
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00", ""},
		{"2019-03-03T20:20:10+02:00", "2019-03-03T18:20:10", ""},
		{"2019-03-03T00:20:10-05:30", "2019-03-03T05:50:10", ""},
		{"2019-03-03T18:20:10-00:00", "2019-03-03T18:20:10", ""},
		{"2019-03-03T18:20:10.000Z", "2019-03-03T18:20:10", ""},
		{"2019-03-03T18:20:10.0+00:00", "2019-03-03T18:20:10", ""},
		{"2018-12-31T23:30:00-01:00", "2019-01-01T00:30:00", ""},
		{"1900-01-01T00:00:00Z", "1900-01-01T00:00:00", ""},
		{"1900-01-01T00:00:00", "1900-01-01T00:00:00", ""},
		{"2100-12-31T23:59:59Z", "2100-12-31T23:59:59", ""},
		{"2100-12-31T23:59:59", "2100-12-31T23:59:59", ""},

		{"2019-03-03T18:20:10.5", "", "whole seconds"},
		{"2019-03-03T18:20:10.5Z", "", "whole seconds"},
		{"2019-03-03T18:20:10.000000001Z", "", "whole seconds"},
		{"2019-03-03T18:20:10.0000000000Z", "", "not a timestamp"},
		{"2019-03-03T18:20:10+24:00", "", "offset out of range"},
		{"2019-03-03T18:20:10+23:60", "", "offset out of range"},
		{"2019-03-03T18:20:10+0200", "", "not a timestamp"},
		{"2019-03-03t18:20:10z", "", "not a timestamp"},
		{"2019-03-03 18:20:10Z", "", "not a timestamp"},
		{"2019-03-03", "", "not a timestamp"},
		{"", "", "not a timestamp"},
		{" 2019-03-03T18:20:10Z", "", "not a timestamp"},
		{"2019-03-03T18:20:10Z\n", "", "not a timestamp"},
		{"２019-03-03T18:20:10Z", "", "not a timestamp"},
		{"2023-02-29T00:00:00Z", "", "not a real date"},
		{"2019-03-03T25:00:00Z", "", "not a real date"},
		{"2019-03-03T23:59:60Z", "", "not a real date"},
		{"1899-12-31T23:59:59Z", "", "outside 1900-01-01T00:00:00 through 2100-12-31T23:59:59 (UTC)"},
		{"1899-12-31T23:59:59", "", "outside"},
		{"2101-01-01T00:00:00", "", "outside"},
		{"1900-01-01T00:30:00+01:00", "", "outside"},
		{"2101-01-01T00:00:00Z", "", "outside"},
		{"2100-12-31T23:00:00-01:00", "", "outside"},
		{"0000-01-01T00:00:00Z", "", "outside"},
		{"9999-12-31T23:59:59-23:59", "", "outside"},
	} {
		got, err := domain.CanonicalTimestamp("timestamp", tc.in)
		if tc.want != "" {
			if err != nil || got != tc.want {
				t.Errorf("%q: got %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q: accepted as %q, want refused", tc.in, got)
			continue
		}
		if domain.ErrorCode(err) != domain.Invalid || !strings.Contains(err.Error(), tc.says) || !strings.HasPrefix(err.Error(), "timestamp: ") {
			t.Errorf("%q: %s %q, want invalid, naming the argument, saying %q", tc.in, domain.ErrorCode(err), err, tc.says)
		}
	}
}

func TestValidateTimestamp_OnlyTheCanonicalForm(t *testing.T) {
	for ts, valid := range map[string]bool{
		"2019-03-03T18:20:10": true, "2019-03-03T18:20:10Z": false, "2019-03-03T18:20:10.000": false,
		"2019-03-03T19:20:10+01:00": false, "yesterday": false,
	} {
		if err := domain.ValidateTimestamp("timestamp", ts); (err == nil) != valid {
			t.Errorf("%q: err %v, want valid=%v", ts, err, valid)
		}
	}
}

func TestCanonicalKeys(t *testing.T) {
	k, err := domain.CanonicalReactionKey(domain.ReactionKey{Username: "bob", Type: domain.ReactionHeart,
		Photo: domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T20:20:10+02:00"}})
	if err != nil || k.Photo != (domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"}) || k.Username != "bob" || k.Type != domain.ReactionHeart {
		t.Errorf("CanonicalReactionKey: %+v, %v", k, err)
	}
	for name, k := range map[string]domain.ReactionKey{
		"NotATime":   {Username: "bob", Type: domain.ReactionHeart, Photo: domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20"}},
		"BadOwner":   {Username: "bob", Type: domain.ReactionHeart, Photo: domain.PhotoKey{Owner: "a#b", Timestamp: "2019-03-03T18:20:10"}},
		"BadUser":    {Username: "", Type: domain.ReactionHeart, Photo: domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10Z"}},
		"BadType":    {Username: "bob", Type: domain.ReactionType(99), Photo: domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10Z"}},
		"OutOfRange": {Username: "bob", Type: domain.ReactionHeart, Photo: domain.PhotoKey{Owner: "ada", Timestamp: "1800-01-01T00:00:00Z"}},
	} {
		if _, err := domain.CanonicalReactionKey(k); domain.ErrorCode(err) != domain.Invalid {
			t.Errorf("%s: err %v, want invalid", name, err)
		}
		if err := domain.ValidateReactionKey(k); domain.ErrorCode(err) != domain.Invalid {
			t.Errorf("%s: ValidateReactionKey err %v, want invalid", name, err)
		}
	}
	if err := domain.ValidatePhotoKey(domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T20:20:10+02:00"}); err == nil {
		t.Error("ValidatePhotoKey accepted a timestamp that is not canonical")
	}
}
