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

// Value is one DynamoDB AttributeValue. Only the field matching Type is
// meaningful; a set's members are read with SS, NS or BS. N and NS hold
// canonical number text (see ParseN). The zero Value (Type == TypeNone)
// stands for "no value", e.g. a missing attribute.
//
// The sets, rare in items, sit behind one pointer so that a Value stays
// within the 128 bytes up to which Go stores a map's values inline: an
// Item's attributes then live in the map itself rather than each in an
// allocation of its own when an item is decoded, set or cloned.
type Value struct {
	Type Type
	BOOL bool
	S    string
	N    string
	B    []byte
	L    []Value
	M    map[string]Value
	set  *setMembers
}

// setMembers holds the members of an SS or NS (strs) or a BS (bins). A
// Value's setMembers is never changed once the Value is built, so copies of
// a Value may share it as they share the backing arrays of its slices.
type setMembers struct {
	strs []string
	bins [][]byte
}

// SS returns the members of a string set, or nil if v is not one.
func (v Value) SS() []string {
	if v.Type != TypeSS || v.set == nil {
		return nil
	}
	return v.set.strs
}

// NS returns the canonical number texts of a number set, or nil if v is
// not one.
func (v Value) NS() []string {
	if v.Type != TypeNS || v.set == nil {
		return nil
	}
	return v.set.strs
}

// BS returns the members of a binary set, or nil if v is not one.
func (v Value) BS() [][]byte {
	if v.Type != TypeBS || v.set == nil {
		return nil
	}
	return v.set.bins
}

// Item is a DynamoDB item: attribute names to values.
type Item map[string]Value

// IsZero reports whether v is the zero Value, i.e. absent.
func (v Value) IsZero() bool { return v.Type == TypeNone }

// S returns a string value.
func S(s string) Value { return Value{Type: TypeS, S: s} }

// N returns a number value holding s as given; use ParseN to validate and
// canonicalize untrusted text.
func N(s string) Value { return Value{Type: TypeN, N: s} }

// Int returns a number value for i. The decimal text of an int64 is already
// canonical.
func Int(i int64) Value { return Value{Type: TypeN, N: strconv.FormatInt(i, 10)} }

// Num returns a number value for d.
func Num(d Decimal) Value { return Value{Type: TypeN, N: d.String()} }

// ParseN validates s as a DynamoDB number and returns it in canonical form.
func ParseN(s string) (Value, error) {
	d, err := ParseDecimal(s)
	if err != nil {
		return Value{}, err
	}
	return Num(d), nil
}

// B returns a binary value.
func B(b []byte) Value { return Value{Type: TypeB, B: b} }

// Bool returns a BOOL value.
func Bool(b bool) Value { return Value{Type: TypeBOOL, BOOL: b} }

// Null returns the NULL value.
func Null() Value { return Value{Type: TypeNULL} }

// SS returns a string set.
func SS(s ...string) Value { return Value{Type: TypeSS, set: &setMembers{strs: s}} }

// NS returns a number set of the given number texts.
func NS(s ...string) Value { return Value{Type: TypeNS, set: &setMembers{strs: s}} }

// BS returns a binary set.
func BS(b ...[]byte) Value { return Value{Type: TypeBS, set: &setMembers{bins: b}} }

// L returns a list.
func L(l ...Value) Value { return Value{Type: TypeL, L: l} }

// M returns a map.
func M(m map[string]Value) Value { return Value{Type: TypeM, M: m} }

// Decimal returns the number held by an N value. It returns the zero
// Decimal if v is not a valid number.
func (v Value) Decimal() Decimal {
	d, _ := parseDecimal(v.N)
	return d
}

// Clone returns a deep copy of v.
func (v Value) Clone() Value {
	switch v.Type {
	case TypeB:
		v.B = append([]byte(nil), v.B...)
	case TypeSS, TypeNS:
		if v.set != nil {
			v.set = &setMembers{strs: append([]string(nil), v.set.strs...)}
		}
	case TypeBS:
		if v.set != nil {
			bs := make([][]byte, len(v.set.bins))
			for i, b := range v.set.bins {
				bs[i] = append([]byte(nil), b...)
			}
			v.set = &setMembers{bins: bs}
		}
	case TypeL:
		l := make([]Value, len(v.L))
		for i, e := range v.L {
			l[i] = e.Clone()
		}
		v.L = l
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
