package attr

import (
	"bytes"
	"strings"
)

// Compare orders two values of the same scalar key type the way DynamoDB
// orders sort keys: S by UTF-8 bytes, N numerically, B as unsigned bytes.
// It returns -1, 0 or +1. Values of different types are ordered by Type so
// that Compare is total; callers that need DynamoDB's "different types are
// not comparable" rule check the types first (see Comparable).
func Compare(a, b Value) int {
	if a.Type != b.Type {
		if a.Type < b.Type {
			return -1
		}
		return 1
	}
	switch a.Type {
	case TypeS:
		return strings.Compare(a.S, b.S)
	case TypeN:
		return a.Decimal().Cmp(b.Decimal())
	case TypeB:
		return bytes.Compare(a.Bytes(), b.Bytes())
	}
	return 0
}

// Comparable reports whether a and b can be ordered with < <= > >=: both S,
// both N or both B.
func Comparable(a, b Value) bool {
	return a.Type == b.Type && (a.Type == TypeS || a.Type == TypeN || a.Type == TypeB)
}

// Equal reports whether a and b are the same DynamoDB value: same type and
// deeply equal contents, numbers compared numerically, sets compared as sets
// (order does not matter), lists in order, maps by key.
func Equal(a, b Value) bool {
	if a.Type != b.Type {
		return false
	}
	switch a.Type {
	case TypeS:
		return a.S == b.S
	case TypeN:
		return a.NumText() == b.NumText() || a.Decimal().Cmp(b.Decimal()) == 0
	case TypeB:
		return bytes.Equal(a.Bytes(), b.Bytes())
	case TypeBOOL:
		return a.BOOL == b.BOOL
	case TypeNULL, TypeNone:
		return true
	case TypeSS:
		return sameStringSet(a.SS(), b.SS())
	case TypeNS:
		return sameNumberSet(a.NS(), b.NS())
	case TypeBS:
		return sameBinarySet(a.BS(), b.BS())
	case TypeL:
		al, bl := a.List(), b.List()
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !Equal(al[i], bl[i]) {
				return false
			}
		}
		return true
	case TypeM:
		return equalMaps(a.M, b.M)
	}
	return false
}

// EqualItems reports whether two items hold equal attributes.
func EqualItems(a, b Item) bool { return equalMaps(a, b) }

func equalMaps(a, b map[string]Value) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !Equal(av, bv) {
			return false
		}
	}
	return true
}

func sameStringSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	set := make(map[string]struct{}, len(a))
	for _, s := range a {
		set[s] = struct{}{}
	}
	for _, s := range b {
		if _, ok := set[s]; !ok {
			return false
		}
	}
	return true
}

func sameBinarySet(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	set := make(map[string]struct{}, len(a))
	for _, s := range a {
		set[string(s)] = struct{}{}
	}
	for _, s := range b {
		if _, ok := set[string(s)]; !ok {
			return false
		}
	}
	return true
}

func sameNumberSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	set := make(map[string]struct{}, len(a))
	for _, s := range a {
		set[canonicalNumber(s)] = struct{}{}
	}
	for _, s := range b {
		if _, ok := set[canonicalNumber(s)]; !ok {
			return false
		}
	}
	return true
}

// canonicalNumber returns the canonical text of s, or s if it is invalid.
func canonicalNumber(s string) string {
	d, err := parseDecimal(s)
	if err != nil {
		return s
	}
	return d.String()
}

// Contains reports whether set value s (SS, NS or BS) holds element e, which
// must be of the matching scalar type.
func (v Value) Contains(e Value) bool {
	switch {
	case v.Type == TypeSS && e.Type == TypeS:
		for _, s := range v.SS() {
			if s == e.S {
				return true
			}
		}
	case v.Type == TypeNS && e.Type == TypeN:
		d := e.Decimal()
		for _, s := range v.NS() {
			if s == e.NumText() || N(s).Decimal().Cmp(d) == 0 {
				return true
			}
		}
	case v.Type == TypeBS && e.Type == TypeB:
		for _, b := range v.BS() {
			if bytes.Equal(b, e.Bytes()) {
				return true
			}
		}
	}
	return false
}
