package attr

import (
	"encoding/base64"
	"unicode/utf8"
)

// SizeJSON returns Size of the item encoded in data without building it:
// a Query page only needs the sizes of the items it returns as stored, and
// decoding them was most of its cost. data must be a valid item as
// AppendItemJSON writes it (for example one read back from storage); the
// result for other input is unspecified but an error is returned for
// malformed JSON.
func SizeJSON(data []byte) (int, error) {
	n := 0
	d := &decoder{data: data}
	err := run(d, func() error {
		d.object(func(k string) {
			n += len(k) + d.valueSize()
		})
		return nil
	})
	return n, err
}

// valueSize consumes one AttributeValue and returns its ValueSize.
func (d *decoder) valueSize() int {
	n := 0
	d.object(func(key string) {
		switch t := ParseType(key); t {
		case TypeS:
			n = d.stringLen()
		case TypeN:
			n = numberSize(d.string())
		case TypeB:
			n = d.base64Len()
		case TypeBOOL, TypeNULL:
			d.bool()
			n = 1
		case TypeSS:
			d.array(func() { n += d.stringLen() })
		case TypeNS:
			d.array(func() { n += numberSize(d.string()) })
		case TypeBS:
			d.array(func() { n += d.base64Len() })
		case TypeL:
			n = 3
			d.array(func() { n += 1 + d.valueSize() })
		case TypeM:
			n = 3
			d.object(func(k string) { n += 1 + len(k) + d.valueSize() })
		default:
			d.skip()
		}
	})
	return n
}

// stringLen consumes a JSON string and returns the length of its UTF-8
// value, without allocating when it has no escapes.
func (d *decoder) stringLen() int {
	if d.peek() == '"' {
		for i := d.pos + 1; i < len(d.data); i++ {
			switch c := d.data[i]; {
			case c == '"':
				n := i - d.pos - 1
				if !utf8.Valid(d.data[d.pos+1 : i]) {
					return len(d.string()) // invalid UTF-8 is replaced
				}
				d.pos = i + 1
				return n
			case c == '\\' || c < 0x20:
				return len(d.string())
			}
		}
	}
	return len(d.string())
}

// base64Len consumes a base64 JSON string and returns its decoded length.
func (d *decoder) base64Len() int {
	if d.peek() == '"' {
		for i := d.pos + 1; i < len(d.data); i++ {
			switch c := d.data[i]; {
			case c == '"':
				s := d.data[d.pos+1 : i]
				n := base64.StdEncoding.DecodedLen(len(s))
				for j := len(s) - 1; j >= 0 && s[j] == '='; j-- {
					n--
				}
				d.pos = i + 1
				return n
			case c == '\\' || c < 0x20:
				return len(d.base64())
			}
		}
	}
	return len(d.base64())
}
