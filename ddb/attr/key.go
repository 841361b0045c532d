package attr

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

// Key encoding. AppendKey writes a scalar key value (S, N or B) so that
// bytes.Compare on two encodings of the same type equals Compare on the
// values, and so that every encoding is self-delimiting: no encoding is a
// proper prefix of another. The encoding carries no type tag (a key
// attribute has one type per table).
//
// S and B: the bytes with 0x00 escaped as 0x00 0xFF, then the terminator
// 0x00 0x01. Escaped 0x00 sorts after the terminator, so a shorter string
// sorts before its extensions.
//
// N: one sign byte (0x01 negative, 0x02 zero, 0x03 positive); for non-zero
// numbers one exponent byte (exp+129, in 0..255 for DynamoDB's range) and
// the digit characters, terminated by 0x00. Negative numbers complement the
// exponent and digit bytes and terminate with 0xFF, reversing their order.
//
// A (partition, sort) pair is the concatenation AppendKey(AppendKey(dst, pk),
// sk): the items of one partition share the prefix AppendKey(nil, pk), are
// contiguous and ordered by sort key.

const (
	numNeg  = 0x01
	numZero = 0x02
	numPos  = 0x03
)

// AppendKey appends the order-preserving encoding of the S, N or B value v
// to dst. It panics on other types; N values must be valid numbers.
func AppendKey(dst []byte, v Value) []byte {
	switch v.Type {
	case TypeS:
		return appendEscaped(dst, v.S)
	case TypeB:
		return appendEscaped(dst, string(v.Bytes()))
	case TypeN:
		return appendNumberKey(dst, v.Decimal())
	}
	panic(fmt.Sprintf("attr.AppendKey: type %q is not a key type", v.Type))
}

// AppendKeyPair appends the encoding of a partition key and, when sk is not
// the zero Value, a sort key.
func AppendKeyPair(dst []byte, pk, sk Value) []byte {
	dst = AppendKey(dst, pk)
	if sk.Type != TypeNone {
		dst = AppendKey(dst, sk)
	}
	return dst
}

// appendEscaped appends s with every zero byte followed by 0xFF, then the
// terminator 0x00 0x01. Zero bytes are rare: s is copied in runs between
// them rather than a byte at a time.
func appendEscaped(dst []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			break
		}
		dst = append(append(dst, s[:i+1]...), 0xFF)
		s = s[i+1:]
	}
	return append(append(dst, s...), 0x00, 0x01)
}

func appendNumberKey(dst []byte, d Decimal) []byte {
	switch d.Sign() {
	case 0:
		return append(dst, numZero)
	case 1:
		dst = append(dst, numPos, byte(d.exp-minExp))
		dst = append(dst, d.digits...)
		return append(dst, 0x00)
	}
	dst = append(dst, numNeg, ^byte(d.exp-minExp))
	for i := 0; i < len(d.digits); i++ {
		dst = append(dst, ^d.digits[i])
	}
	return append(dst, 0xFF)
}

// ErrBadKey is returned by DecodeKey for bytes that are not a key encoding.
var ErrBadKey = errors.New("attr: malformed key encoding")

// DecodeKey decodes one key value of type t (S, N or B) from the front of
// b, returning it and the remaining bytes.
func DecodeKey(b []byte, t Type) (Value, []byte, error) {
	switch t {
	case TypeS, TypeB:
		raw, rest, err := decodeEscaped(b)
		if err != nil {
			return Value{}, nil, err
		}
		if t == TypeS {
			return S(string(raw)), rest, nil
		}
		return B(append([]byte{}, raw...)), rest, nil
	case TypeN:
		d, rest, err := decodeNumberKey(b)
		if err != nil {
			return Value{}, nil, err
		}
		return Num(d), rest, nil
	}
	return Value{}, nil, ErrBadKey
}

// DecodeKeyShared is DecodeKey for bytes that are never written to again
// (the bytes of a string, say): a string value without escaped zero bytes,
// nearly every one, is a view of b rather than a copy.
func DecodeKeyShared(b []byte, t Type) (Value, []byte, error) {
	if t != TypeS {
		return DecodeKey(b, t)
	}
	raw, rest, err := decodeEscaped(b)
	if err != nil {
		return Value{}, nil, err
	}
	if len(raw) == 0 || &raw[0] != &b[0] { // empty, or unescaped into a copy
		return S(string(raw)), rest, nil
	}
	return S(unsafe.String(&raw[0], len(raw))), rest, nil
}

// decodeEscaped decodes an S or B key encoding from the front of b. The
// value returned may share b's memory.
func decodeEscaped(b []byte) ([]byte, []byte, error) {
	// Without escaped zero bytes (nearly always), the value is b's prefix.
	if i := bytes.IndexByte(b, 0); i >= 0 && i+1 < len(b) && b[i+1] == 0x01 {
		return b[:i], b[i+2:], nil
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != 0 {
			out = append(out, c)
			continue
		}
		if i+1 >= len(b) {
			return nil, nil, ErrBadKey
		}
		switch b[i+1] {
		case 0xFF:
			out = append(out, 0)
			i++
		case 0x01:
			return out, b[i+2:], nil
		default:
			return nil, nil, ErrBadKey
		}
	}
	return nil, nil, ErrBadKey
}

func decodeNumberKey(b []byte) (Decimal, []byte, error) {
	if len(b) == 0 {
		return Decimal{}, nil, ErrBadKey
	}
	switch b[0] {
	case numZero:
		return Decimal{}, b[1:], nil
	case numPos, numNeg:
	default:
		return Decimal{}, nil, ErrBadKey
	}
	neg := b[0] == numNeg
	if len(b) < 2 {
		return Decimal{}, nil, ErrBadKey
	}
	e := b[1]
	term := byte(0x00)
	if neg {
		e, term = ^e, 0xFF
	}
	var digits []byte
	for i := 2; i < len(b); i++ {
		c := b[i]
		if c == term {
			if len(digits) == 0 {
				return Decimal{}, nil, ErrBadKey
			}
			return Decimal{neg: neg, digits: string(digits), exp: int(e) + minExp}, b[i+1:], nil
		}
		if neg {
			c = ^c
		}
		if c < '0' || c > '9' {
			return Decimal{}, nil, ErrBadKey
		}
		digits = append(digits, c)
	}
	return Decimal{}, nil, ErrBadKey
}

// KeyLen returns the length of the encoding of one key value of type t (S,
// N or B) at the front of b, without decoding it: how the engine splits a
// stored key into its values' encodings.
func KeyLen(b []byte, t Type) (int, error) {
	switch t {
	case TypeS, TypeB:
		for i := 0; i+1 < len(b); i++ {
			if b[i] != 0 {
				continue
			}
			switch b[i+1] {
			case 0x01:
				return i + 2, nil
			case 0xFF:
				i++
			default:
				return 0, ErrBadKey
			}
		}
	case TypeN:
		if len(b) > 0 && b[0] == numZero {
			return 1, nil
		}
		if len(b) < 2 || b[0] != numPos && b[0] != numNeg {
			return 0, ErrBadKey
		}
		term := byte(0x00)
		if b[0] == numNeg {
			term = 0xFF
		}
		for i := 2; i < len(b); i++ {
			if b[i] == term {
				return i + 1, nil
			}
		}
	}
	return 0, ErrBadKey
}
