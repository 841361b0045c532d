package domain

import (
	"unicode"
	"unicode/utf8"
)

// Free text that other people see (a name, a status line, interests) must read the way it
// prints. Refused everywhere:
//   - invalid UTF-8;
//   - control characters (Unicode category Cc: U+0000–U+001F, U+007F–U+009F), which can ring
//     bells, cut strings short in C-based clients and logs, or move the cursor;
//   - bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which make
//     text display in an order other than the one it is stored in: "\u202egpj.exe" shows as
//     "exe.jpg";
//   - the line and paragraph separators U+2028 and U+2029, line breaks by another name.
//
// The one exception is a postal address, whose lines are separated by a line feed (U+000A)
// alone; no other field has a use for a line break.

// textRule says what a field's text may hold besides ordinary characters.
type textRule struct {
	max      int  // at most this many characters
	newlines bool // line feeds allowed
}

var (
	lineText      = textRule{max: MaxTextLength}
	multilineText = textRule{max: MaxTextLength, newlines: true}
	interestText  = textRule{max: MaxInterestLength}
	urlText       = textRule{max: MaxURLLength}
)

// validateText checks s against rule; field names the argument in the error message. The
// message names the offending character by its position and code point, never by printing it.
func validateText(field, s string, rule textRule) error {
	if !utf8.ValidString(s) {
		return Errorf(Invalid, "%s: must be valid UTF-8", field)
	}
	n := 0
	for _, r := range s {
		n++
		if why := forbidden(r, rule); why != "" {
			return Errorf(Invalid, "%s: character %d is %U, %s", field, n, r, why)
		}
	}
	if n > rule.max {
		return Errorf(Invalid, "%s: at most %d characters, got %d", field, rule.max, n)
	}
	return nil
}

// forbidden says why r may not appear in text under rule, or "" when it may.
func forbidden(r rune, rule textRule) string {
	switch {
	case r == '\n' && rule.newlines:
		return ""
	case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
		if rule.newlines {
			return "a line break other than a line feed (U+000A): separate lines with a line feed alone"
		}
		return "a line break, which this field may not hold"
	case unicode.IsControl(r):
		return "a control character, which text may not hold"
	case unicode.Is(unicode.Bidi_Control, r):
		return "a bidirectional control character, which text may not hold"
	}
	return ""
}
