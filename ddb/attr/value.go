package attr

import (
	"maps"
	"strconv"
)

// Type is the data type of a Value, named as on the wire.
type Type uint8

// The DynamoDB data types. The zero Type marks an absent or invalid Value.
const (
	TypeNone Type = iota
	TypeS
	TypeN
	TypeB
	TypeBOOL
	TypeNULL
	TypeSS
	TypeNS
	TypeBS
	TypeL
	TypeM
)

var typeNames = [...]string{"", "S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"}

// String returns the wire name of t ("S", "NS", "M", …) or "" for TypeNone.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return ""
}

// ParseType returns the Type named by its wire name, or TypeNone.
func ParseType(s string) Type {
	for i, n := range typeNames {
		if i > 0 && n == s {
			return Type(i)
		}
	}
	return TypeNone
}

// IsSet reports whether t is SS, NS or BS.
func (t Type) IsSet() bool { return t == TypeSS || t == TypeNS || t == TypeBS }

// Value is one DynamoDB AttributeValue. Only what matches Type is
// meaningful: S holds the text of an S and the canonical text of an N (read
// it with NumText; see ParseN), BOOL a BOOL, M a map; the rest is read with
// Bytes, List, SS, NS and BS. The zero Value (Type == TypeNone) stands for
// "no value", e.g. a missing attribute.
//
// A Value is kept small (40 bytes) because Items are maps, and Go stores a
// map's values inline in groups of eight slots: every small map (a request's
// Key, its ExpressionAttributeValues, a stored item) costs eight slots of
// key plus Value however few attributes it holds. So the binaries, lists and
// sets, rarer in items than strings, numbers and maps, sit behind one
// pointer, and a number shares S with a string.
type Value struct {
	Type Type
	BOOL bool
	S    string
	M    map[string]Value
	more *payload
}

// payload holds the binary of a B (bin), the elements of an L (list), the
// members of an SS or NS (strs) or of a BS (bins). A Value's payload is
// never changed once the Value is built, so copies of a Value share it as
// they share the backing arrays of its slices.
type payload struct {
	bin  []byte
	list []Value
	strs []string
	bins [][]byte
}

// NumText returns the canonical text of a number, or "" if v is not one.
func (v Value) NumText() string {
	if v.Type != TypeN {
		return ""
	}
	return v.S
}

// Bytes returns the bytes of a binary value, or nil if v is not one.
func (v Value) Bytes() []byte {
	if v.Type != TypeB || v.more == nil {
		return nil
	}
	return v.more.bin
}

// List returns the elements of a list, or nil if v is not one. Its backing
// array is shared by every copy of v: a caller changing an element works on
// a copy (slices.Clone) and builds a new list with L.
func (v Value) List() []Value {
	if v.Type != TypeL || v.more == nil {
		return nil
	}
	return v.more.list
}

// SS returns the members of a string set, or nil if v is not one.
func (v Value) SS() []string {
	if v.Type != TypeSS || v.more == nil {
		return nil
	}
	return v.more.strs
}

// NS returns the canonical number texts of a number set, or nil if v is
// not one.
func (v Value) NS() []string {
	if v.Type != TypeNS || v.more == nil {
		return nil
	}
	return v.more.strs
}

// BS returns the members of a binary set, or nil if v is not one.
func (v Value) BS() [][]byte {
	if v.Type != TypeBS || v.more == nil {
		return nil
	}
	return v.more.bins
}

// Item is a DynamoDB item: attribute names to values.
type Item map[string]Value

// IsZero reports whether v is the zero Value, i.e. absent.
func (v Value) IsZero() bool { return v.Type == TypeNone }

// S returns a string value.
func S(s string) Value { return Value{Type: TypeS, S: s} }

// N returns a number value holding s as given; use ParseN to validate and
// canonicalize untrusted text.
func N(s string) Value { return Value{Type: TypeN, S: s} }

// Int returns a number value for i. The decimal text of an int64 is already
// canonical.
func Int(i int64) Value { return Value{Type: TypeN, S: strconv.FormatInt(i, 10)} }

// Num returns a number value for d.
func Num(d Decimal) Value { return Value{Type: TypeN, S: d.String()} }

// ParseN validates s as a DynamoDB number and returns it in canonical form.
func ParseN(s string) (Value, error) {
	d, err := ParseDecimal(s)
	if err != nil {
		return Value{}, err
	}
	return Num(d), nil
}

// B returns a binary value. A nil b stays nil (Bytes returns nil), as an
// empty one stays empty.
func B(b []byte) Value {
	if b == nil {
		return Value{Type: TypeB}
	}
	return Value{Type: TypeB, more: &payload{bin: b}}
}

// Bool returns a BOOL value.
func Bool(b bool) Value { return Value{Type: TypeBOOL, BOOL: b} }

// Null returns the NULL value.
func Null() Value { return Value{Type: TypeNULL} }

// SS returns a string set.
func SS(s ...string) Value { return Value{Type: TypeSS, more: &payload{strs: s}} }

// NS returns a number set of the given number texts.
func NS(s ...string) Value { return Value{Type: TypeNS, more: &payload{strs: s}} }

// BS returns a binary set.
func BS(b ...[]byte) Value { return Value{Type: TypeBS, more: &payload{bins: b}} }

// L returns a list. A nil l stays nil (List returns nil), as an empty one
// stays empty.
func L(l ...Value) Value {
	if l == nil {
		return Value{Type: TypeL}
	}
	return Value{Type: TypeL, more: &payload{list: l}}
}

// M returns a map.
func M(m map[string]Value) Value { return Value{Type: TypeM, M: m} }

// Decimal returns the number held by an N value. It returns the zero
// Decimal if v is not a valid number.
func (v Value) Decimal() Decimal {
	d, _ := parseDecimal(v.NumText())
	return d
}

// Clone returns a deep copy of v.
func (v Value) Clone() Value {
	switch v.Type {
	case TypeB:
		v = B(append([]byte(nil), v.Bytes()...))
	case TypeSS, TypeNS:
		if v.more != nil {
			v.more = &payload{strs: append([]string(nil), v.more.strs...)}
		}
	case TypeBS:
		if v.more != nil {
			bs := make([][]byte, len(v.more.bins))
			for i, b := range v.more.bins {
				bs[i] = append([]byte(nil), b...)
			}
			v.more = &payload{bins: bs}
		}
	case TypeL:
		l := make([]Value, len(v.List()))
		for i, e := range v.List() {
			l[i] = e.Clone()
		}
		v = L(l...)
	case TypeM:
		m := make(map[string]Value, len(v.M))
		for k, e := range v.M {
			m[k] = e.Clone()
		}
		v.M = m
	}
	return v
}

// Clone returns a deep copy of it.
func (it Item) Clone() Item {
	if it == nil {
		return nil
	}
	out := make(Item, len(it))
	for k, v := range it {
		out[k] = v.Clone()
	}
	return out
}

// ShallowClone returns a copy of the top-level map of it, sharing values.
func (it Item) ShallowClone() Item { return maps.Clone(it) }

// String returns v in the DynamoDB JSON wire format, for logs and tests.
func (v Value) String() string { return string(AppendJSON(nil, v)) }
