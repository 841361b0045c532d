package attr

import (
	"encoding/base64"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// decoder is a single-pass parser of the AttributeValue wire format. It
// replaces encoding/json (several times slower here, as it re-scans every
// nested value) because the storage layer decodes an item on every read.
//
// Syntax and shape errors (bad JSON, a number where a string belongs, bad
// base64) abort decoding with a *SyntaxError. Validation errors do not
// abort: the value is still consumed so that the enclosing value's own
// rule ("more than one datatypes set") is checked first, as DynamoDB does.
type decoder struct {
	data []byte
	pos  int
	// text, when set, is a copy of data as one string: the strings without
	// escapes are cut from it rather than allocated one by one (a decoded
	// item's names and values; one kept keeps the item's JSON alive).
	text string
}

// SyntaxError is malformed JSON, or JSON of the wrong shape for an
// AttributeValue. The protocol handler reports it as a
// SerializationException.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error describes the problem and its byte offset.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("attr: invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

type abort struct{ err error }

func (d *decoder) fail(msg string) {
	panic(abort{&SyntaxError{Offset: d.pos, Msg: msg}})
}

// run calls fn, which decodes with d, turning an abort into its error.
// The caller makes d and fn reads it: passed to fn, d would escape to the
// heap, an allocation for every item and value decoded.
func run(d *decoder, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(abort)
			if !ok {
				panic(r)
			}
			err = a.err
		}
	}()
	verr := fn()
	d.ws()
	if d.pos != len(d.data) {
		d.fail("trailing data")
	}
	return verr
}

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (d *decoder) peek() byte {
	d.ws()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *decoder) expect(c byte) {
	if d.peek() != c {
		d.fail(fmt.Sprintf("expected %q", c))
	}
	d.pos++
}

// literal consumes lit (true, false, null) if it is next.
func (d *decoder) literal(lit string) bool {
	d.ws()
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		return true
	}
	return false
}

func (d *decoder) bool() bool {
	switch {
	case d.literal("true"):
		return true
	case d.literal("false"):
		return false
	}
	d.fail("expected a boolean")
	return false
}

// object calls member for each key of a JSON object; member must consume
// the key's value.
func (d *decoder) object(member func(key string)) {
	d.expect('{')
	if d.peek() == '}' {
		d.pos++
		return
	}
	for {
		key := d.string()
		d.expect(':')
		member(key)
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return
		default:
			d.fail("expected ',' or '}'")
		}
	}
}

// array calls elem for each element of a JSON array.
func (d *decoder) array(elem func()) {
	d.expect('[')
	if d.peek() == ']' {
		d.pos++
		return
	}
	for {
		elem()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return
		default:
			d.fail("expected ',' or ']'")
		}
	}
}

// string parses a JSON string. Invalid UTF-8 becomes U+FFFD, as with
// encoding/json.
func (d *decoder) string() string {
	d.expect('"')
	start := d.pos
	// Fast path: no escapes, all ASCII or valid UTF-8.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if utf8.Valid(s) {
				if d.text != "" {
					return d.text[start : d.pos-1]
				}
				return string(s)
			}
			return string(fixUTF8(s))
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.pos++
	}
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(fixUTF8(buf))
		case c < 0x20:
			d.fail("control character in string")
		case c != '\\':
			buf = append(buf, c)
			d.pos++
			continue
		}
		d.pos++
		if d.pos >= len(d.data) {
			break
		}
		e := d.data[d.pos]
		d.pos++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r := d.hex4()
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if len(d.data)-d.pos >= 6 && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					save := d.pos
					d.pos += 2
					r2 = d.hex4()
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						d.pos, r = save, utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			d.fail("invalid escape")
		}
	}
	d.fail("unterminated string")
	return ""
}

func (d *decoder) hex4() rune {
	if len(d.data)-d.pos < 4 {
		d.fail("short \\u escape")
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			d.fail("invalid \\u escape")
		}
	}
	d.pos += 4
	return r
}

func fixUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		out = utf8.AppendRune(out, r) // RuneError for invalid bytes
		b = b[size:]
	}
	return out
}

func (d *decoder) base64() []byte {
	s := d.string()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		d.fail("invalid base64: " + err.Error())
	}
	return b
}

// skip consumes any JSON value.
func (d *decoder) skip() {
	switch c := d.peek(); {
	case c == '{':
		d.object(func(string) { d.skip() })
	case c == '[':
		d.array(d.skip)
	case c == '"':
		d.string()
	case d.literal("true"), d.literal("false"), d.literal("null"):
	case c == '-' || c >= '0' && c <= '9':
		for d.pos < len(d.data) && isNumberByte(d.data[d.pos]) {
			d.pos++
		}
	default:
		d.fail("unexpected character")
	}
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// value parses one AttributeValue. It returns the value and its first
// validation error, having consumed the whole JSON value either way.
func (d *decoder) value(depth int) (Value, error) {
	if depth > MaxDepth {
		// Stop before recursing further: input nesting is unbounded.
		panic(abort{&ValidationError{Message: MsgNestingTooDeep}})
	}
	var v Value
	var verr error
	n := 0
	d.object(func(key string) {
		t := ParseType(key)
		if t == TypeNone || d.literal("null") {
			if t == TypeNone {
				d.skip() // unknown members are ignored, as by DynamoDB
			}
			return
		}
		if v.Type != t {
			n++
		}
		var err error
		v, err = d.typed(t, depth)
		if err != nil && verr == nil {
			verr = err
		}
	})
	switch {
	case n == 0:
		return Value{}, &ValidationError{Message: MsgEmptyValue}
	case n > 1:
		return Value{}, &ValidationError{Message: msgManyTypes}
	case verr != nil:
		return Value{}, verr
	}
	return v, nil
}

// typed parses the JSON value of a member of type t.
func (d *decoder) typed(t Type, depth int) (Value, error) {
	switch t {
	case TypeS:
		return S(d.string()), nil
	case TypeN:
		return ParseN(d.string())
	case TypeB:
		return B(d.base64()), nil
	case TypeBOOL:
		return Bool(d.bool()), nil
	case TypeNULL:
		if !d.bool() {
			return Value{}, &ValidationError{Message: MsgNullNotTrue}
		}
		return Null(), nil
	case TypeSS:
		ss := []string{}
		d.array(func() { ss = append(ss, d.string()) })
		v := SS(ss...)
		return v, ValidateSet(v)
	case TypeNS:
		ns := []string{}
		d.array(func() { ns = append(ns, d.string()) })
		v := NS(ns...)
		if err := ValidateSet(v); err != nil {
			return Value{}, err
		}
		for i, s := range ns {
			dec, _ := parseDecimal(s) // validated above
			ns[i] = dec.String()
		}
		return v, nil
	case TypeBS:
		bs := [][]byte{}
		d.array(func() { bs = append(bs, d.base64()) })
		v := BS(bs...)
		return v, ValidateSet(v)
	case TypeL:
		l := []Value{}
		var verr error
		d.array(func() {
			e, err := d.value(depth + 1)
			if err != nil && verr == nil {
				verr = err
			}
			l = append(l, e)
		})
		return L(l...), verr
	case TypeM:
		m := map[string]Value{}
		var verr error
		d.object(func(k string) {
			e, err := d.value(depth + 1)
			if bad := CheckName(k); bad != nil && err == nil {
				err = bad
			}
			if err != nil && verr == nil {
				verr = err
			}
			m[k] = e
		})
		return M(m), verr
	}
	return Value{}, errors.New("attr: unreachable")
}

// decodeValue decodes one AttributeValue from data.
func decodeValue(data []byte) (Value, error) {
	var v Value
	d := &decoder{data: data, text: string(data)}
	err := run(d, func() error {
		var err error
		v, err = d.value(0)
		return err
	})
	return v, err
}

// decodeItem decodes an object of AttributeValues from data.
func decodeItem(data []byte) (Item, error) {
	var it Item
	d := &decoder{data: data, text: string(data)}
	err := run(d, func() error {
		if d.literal("null") {
			return nil
		}
		it = Item{}
		var verr error
		d.object(func(k string) {
			// The item is the first of DynamoDB's 32 levels, so its attributes are at depth 1
			// (DynamoDB Local agrees: 31 maps below a top-level attribute is the most it takes).
			v, err := d.value(1)
			if bad := CheckName(k); bad != nil && err == nil {
				err = bad // as DynamoDB says it, at any depth
			}
			if err != nil && verr == nil {
				verr = err
			}
			it[k] = v
		})
		return verr
	})
	if err != nil {
		return nil, err
	}
	return it, nil
}
