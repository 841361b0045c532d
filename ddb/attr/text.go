package attr

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// Errors of CheckJSONText.
var (
	ErrInvalidUTF8   = errors.New("invalid UTF-8")
	ErrLoneSurrogate = errors.New(`a \u escape names half of a UTF-16 surrogate pair`)
)

// CheckJSONText returns an error when the JSON text data holds bytes that are not UTF-8, or a
// \u escape of a UTF-16 surrogate that is not half of a pair. DynamoDB's strings are UTF-8, and
// JSON decoders (encoding/json, and this package's) would otherwise turn both into U+FFFD:
// storing text the client never sent, or making two different inputs one.
func CheckJSONText(data []byte) error {
	if !utf8.Valid(data) {
		return ErrInvalidUTF8
	}
	// Backslashes occur only inside JSON strings, so no string tracking is needed.
	for i := 0; i < len(data)-1; i++ {
		if data[i] != '\\' {
			continue
		}
		if data[i+1] != 'u' || i+6 > len(data) {
			i++ // an escaped character, possibly a backslash
			continue
		}
		r := hexRune(data[i+2 : i+6])
		i += 5
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if i+7 <= len(data) && data[i+1] == '\\' && data[i+2] == 'u' {
				if low := hexRune(data[i+3 : i+7]); low >= 0xDC00 && low < 0xE000 {
					i += 6
					continue
				}
			}
			return ErrLoneSurrogate
		case r >= 0xDC00 && r < 0xE000:
			return ErrLoneSurrogate
		}
	}
	return nil
}

// hexRune parses four hex digits, -1 when they are not.
func hexRune(b []byte) rune {
	r, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return -1
	}
	return rune(r)
}
