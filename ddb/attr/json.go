package attr

import (
	"encoding/base64"
	"slices"
	"strings"
	"unicode/utf8"
)

// The JSON codec of the DynamoDB wire format: {"S":"x"}, {"N":"1.5"},
// {"B":"<base64>"}, {"BOOL":true}, {"NULL":true}, {"SS":[…]}, {"NS":[…]},
// {"BS":[…]}, {"L":[…]}, {"M":{…}}.
//
// Decoding validates as DynamoDB does and canonicalizes numbers. A value
// that is well-formed JSON but not a valid AttributeValue yields a
// *ValidationError; JSON of the wrong shape (a number where a string belongs,
// bad base64, broken syntax) yields a *SyntaxError, which the protocol
// handler reports as a SerializationException.

// UnmarshalJSON decodes and validates one AttributeValue.
func (v *Value) UnmarshalJSON(data []byte) error {
	out, err := decodeValue(data)
	if err != nil {
		return err
	}
	*v = out
	return nil
}

// UnmarshalJSON decodes and validates an item (a JSON object of
// AttributeValues). JSON null decodes as a nil Item.
func (it *Item) UnmarshalJSON(data []byte) error {
	out, err := decodeItem(data)
	if err != nil {
		return err
	}
	*it = out
	return nil
}

// DecodeItem decodes and validates an item from JSON.
func DecodeItem(data []byte) (Item, error) { return decodeItem(data) }

// ValidateSet checks a set value as DynamoDB does on input: it must not be
// empty, NS members must be valid numbers, and members must be distinct
// (numbers compared numerically). The three duplicate messages differ by
// set type, as they do in DynamoDB Local.
func ValidateSet(v Value) error {
	switch v.Type {
	case TypeSS:
		if len(v.SS()) == 0 {
			return &ValidationError{Message: msgEmptySS}
		}
		seen := make(map[string]struct{}, len(v.SS()))
		for _, s := range v.SS() {
			if _, dup := seen[s]; dup {
				return invalidf("%sInput collection [%s] contains duplicates.", MsgInvalidParams, strings.Join(v.SS(), ", "))
			}
			seen[s] = struct{}{}
		}
	case TypeNS:
		if len(v.NS()) == 0 {
			return &ValidationError{Message: msgEmptyNS}
		}
		seen := make(map[Decimal]struct{}, len(v.NS())) // normalized: equal numbers are equal keys
		for _, s := range v.NS() {
			d, err := ParseDecimal(s)
			if err != nil {
				return err
			}
			if _, dup := seen[d]; dup {
				return &ValidationError{Message: msgDuplicateNS}
			}
			seen[d] = struct{}{}
		}
	case TypeBS:
		if len(v.BS()) == 0 {
			return &ValidationError{Message: msgEmptyBS}
		}
		seen := make(map[string]struct{}, len(v.BS()))
		for _, b := range v.BS() {
			if _, dup := seen[string(b)]; dup {
				return &ValidationError{Message: msgDuplicateBS}
			}
			seen[string(b)] = struct{}{}
		}
	}
	return nil
}

// MarshalJSON encodes v in the DynamoDB wire format.
func (v Value) MarshalJSON() ([]byte, error) { return AppendJSON(nil, v), nil }

// MarshalJSON encodes it as a JSON object of AttributeValues, keys sorted.
func (it Item) MarshalJSON() ([]byte, error) { return AppendItemJSON(nil, it), nil }

// AppendItemJSON appends the wire encoding of it to dst, keys sorted.
func AppendItemJSON(dst []byte, it Item) []byte { return appendMapJSON(dst, it) }

// AppendJSON appends the wire encoding of v to dst. The zero Value encodes
// as {} (it never reaches the wire in valid responses).
func AppendJSON(dst []byte, v Value) []byte {
	if v.Type == TypeNone {
		return append(dst, "{}"...)
	}
	dst = append(dst, `{"`...)
	dst = append(dst, v.Type.String()...)
	dst = append(dst, `":`...)
	switch v.Type {
	case TypeS:
		dst = appendString(dst, v.S)
	case TypeN:
		dst = appendString(dst, v.NumText())
	case TypeB:
		dst = appendBase64(dst, v.Bytes())
	case TypeBOOL:
		if v.BOOL {
			dst = append(dst, "true"...)
		} else {
			dst = append(dst, "false"...)
		}
	case TypeNULL:
		dst = append(dst, "true"...)
	case TypeSS:
		dst = appendArrayJSON(dst, v.SS(), appendString)
	case TypeNS:
		dst = appendArrayJSON(dst, v.NS(), appendString)
	case TypeBS:
		dst = appendArrayJSON(dst, v.BS(), appendBase64)
	case TypeL:
		dst = appendArrayJSON(dst, v.List(), AppendJSON)
	case TypeM:
		dst = appendMapJSON(dst, v.M)
	}
	return append(dst, '}')
}

// appendArrayJSON appends the JSON array of elems, each written by appendElem.
func appendArrayJSON[E any](dst []byte, elems []E, appendElem func([]byte, E) []byte) []byte {
	dst = append(dst, '[')
	for i, e := range elems {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendElem(dst, e)
	}
	return append(dst, ']')
}

func appendMapJSON(dst []byte, m map[string]Value) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		dst = AppendJSON(dst, m[k])
	}
	return append(dst, '}')
}

func appendBase64(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, replacing invalid UTF-8 with
// U+FFFD as encoding/json does.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
