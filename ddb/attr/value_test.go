package attr_test

import (
	"testing"
	"unsafe"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// TestValueIsSmall pins the size of a Value. Items, request Keys and
// ExpressionAttributeValues are maps of Values, and Go stores a map's values
// (up to 128 bytes) inline in groups of eight slots: a map of one to eight
// attributes is one group of eight Values however few it holds, and a
// larger one grows by such groups. Every byte of Value is paid eight times
// per small map decoded, set or cloned, so B, L and the sets sit behind one
// pointer and N shares S.
func TestValueIsSmall(t *testing.T) {
	if n := unsafe.Sizeof(attr.Value{}); n > 40 {
		t.Fatalf("attr.Value is %d bytes, over 40: Type+BOOL, S, M and one pointer to the rest", n)
	}
}

// TestAccessorsMatchTheirType checks that each accessor answers only for
// its own type: a number's text shares S but is read with NumText, and
// nil and empty binaries and lists stay as built.
func TestAccessorsMatchTheirType(t *testing.T) {
	l := []attr.Value{attr.S("a")}
	cases := []struct {
		name    string
		v       attr.Value
		num     string
		bytes   []byte
		list    []attr.Value
		nilB    bool
		nilList bool
	}{
		{name: "S", v: attr.S("12"), nilB: true, nilList: true},
		{name: "N", v: attr.N("12"), num: "12", nilB: true, nilList: true},
		{name: "Int", v: attr.Int(-3), num: "-3", nilB: true, nilList: true},
		{name: "B", v: attr.B([]byte("xy")), bytes: []byte("xy"), nilList: true},
		{name: "B empty", v: attr.B([]byte{}), bytes: []byte{}, nilList: true},
		{name: "B nil", v: attr.B(nil), nilB: true, nilList: true},
		{name: "L", v: attr.L(l...), list: l, nilB: true},
		{name: "L empty", v: attr.L([]attr.Value{}...), list: []attr.Value{}, nilB: true},
		{name: "L nil", v: attr.L(), nilB: true, nilList: true},
		{name: "M", v: attr.M(map[string]attr.Value{"a": attr.N("1")}), nilB: true, nilList: true},
		{name: "SS", v: attr.SS("1"), nilB: true, nilList: true},
		{name: "zero", v: attr.Value{}, nilB: true, nilList: true},
		{name: "N without text", v: attr.Value{Type: attr.TypeN}, nilB: true, nilList: true},
		{name: "B without bytes", v: attr.Value{Type: attr.TypeB}, nilB: true, nilList: true},
		{name: "L without elements", v: attr.Value{Type: attr.TypeL}, nilB: true, nilList: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.v.NumText(); got != c.num {
				t.Errorf("NumText() = %q, want %q", got, c.num)
			}
			if got := c.v.Bytes(); string(got) != string(c.bytes) || (got == nil) != c.nilB {
				t.Errorf("Bytes() = %#v, want %#v (nil %v)", got, c.bytes, c.nilB)
			}
			if got := c.v.List(); len(got) != len(c.list) || (got == nil) != c.nilList {
				t.Errorf("List() = %#v, want %#v (nil %v)", got, c.list, c.nilList)
			}
			for i := range c.list {
				if !attr.Equal(c.v.List()[i], c.list[i]) {
					t.Errorf("List()[%d] = %s, want %s", i, c.v.List()[i], c.list[i])
				}
			}
		})
	}
}

// TestNumberIsNotAString checks that a number and a string of the same
// text stay distinct values everywhere they meet, now that both sit in S.
func TestNumberIsNotAString(t *testing.T) {
	n, s := attr.N("12"), attr.S("12")
	if attr.Equal(n, s) || attr.Compare(n, s) == 0 || attr.Comparable(n, s) {
		t.Errorf("N 12 and S 12 compare as the same value")
	}
	if attr.SS("12").Contains(n) || attr.NS("12").Contains(s) {
		t.Errorf("a set holds the value of the other type")
	}
	if got, want := n.String(), `{"N":"12"}`; got != want {
		t.Errorf("N JSON = %s, want %s", got, want)
	}
	if got, want := s.String(), `{"S":"12"}`; got != want {
		t.Errorf("S JSON = %s, want %s", got, want)
	}
	if string(attr.AppendKey(nil, n)) == string(attr.AppendKey(nil, s)) {
		t.Errorf("N 12 and S 12 have the same key encoding")
	}
	if attr.ValueSize(n) != 2 || attr.ValueSize(s) != 2 || attr.ValueSize(attr.N("123456")) != 4 {
		t.Errorf("sizes: N 12 = %d, S 12 = %d, N 123456 = %d; want 2, 2, 4",
			attr.ValueSize(n), attr.ValueSize(s), attr.ValueSize(attr.N("123456")))
	}
	if n.Decimal().Cmp(attr.Int(12).Decimal()) != 0 || s.Decimal().Cmp(attr.Int(0).Decimal()) != 0 {
		t.Errorf("Decimal of N 12 = %s, of S 12 = %s; want 12 and 0", n.Decimal(), s.Decimal())
	}
	it := attr.Item{"n": n, "s": s}
	back := attr.Item{}
	_, err := attr.DecodeBinary(attr.AppendBinary(nil, it, attr.Size(it)), back)
	if err != nil || back["n"].Type != attr.TypeN || back["s"].Type != attr.TypeS {
		t.Errorf("binary round trip = %v, %v", back, err)
	}
}

// TestCloneCopiesBinariesAndLists checks that a clone owns its bytes and
// elements, so that changing it leaves the original and its copies alone.
func TestCloneCopiesBinariesAndLists(t *testing.T) {
	orig := attr.L(attr.B([]byte("x")), attr.L(attr.S("a")))
	c := orig.Clone()
	c.List()[0].Bytes()[0] = 'y'
	c.List()[1] = attr.S("changed")
	if !attr.Equal(orig, attr.L(attr.B([]byte("x")), attr.L(attr.S("a")))) {
		t.Errorf("changing a clone changed the original: %s", orig)
	}
	if got := attr.B([]byte{}).Clone(); got.Type != attr.TypeB || len(got.Bytes()) != 0 {
		t.Errorf("clone of an empty binary = %s", got)
	}
	if got := attr.L().Clone(); got.Type != attr.TypeL || got.List() == nil {
		t.Errorf("clone of a list without elements = %#v, want an empty list", got)
	}
}

func TestSetMembersMatchTheirType(t *testing.T) {
	cases := []struct {
		name   string
		v      attr.Value
		ss, ns []string
		bs     [][]byte
	}{
		{"SS", attr.SS("a", "b"), []string{"a", "b"}, nil, nil},
		{"NS", attr.NS("1", "2"), nil, []string{"1", "2"}, nil},
		{"BS", attr.BS([]byte("x")), nil, nil, [][]byte{[]byte("x")}},
		{"S", attr.S("a"), nil, nil, nil},
		{"zero", attr.Value{}, nil, nil, nil},
		{"SS without members", attr.Value{Type: attr.TypeSS}, nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.v.SS(); !equalStrings(got, c.ss) {
				t.Errorf("SS() = %q, want %q", got, c.ss)
			}
			if got := c.v.NS(); !equalStrings(got, c.ns) {
				t.Errorf("NS() = %q, want %q", got, c.ns)
			}
			if got := c.v.BS(); len(got) != len(c.bs) || (len(got) > 0 && string(got[0]) != string(c.bs[0])) {
				t.Errorf("BS() = %q, want %q", got, c.bs)
			}
		})
	}
}

func TestCloneCopiesSetMembers(t *testing.T) {
	for _, v := range []attr.Value{attr.SS("a"), attr.NS("1"), attr.BS([]byte("x"))} {
		c := v.Clone()
		switch v.Type {
		case attr.TypeSS:
			c.SS()[0] = "changed"
		case attr.TypeNS:
			c.NS()[0] = "9"
		case attr.TypeBS:
			c.BS()[0][0] = 'y'
		}
		if !attr.Equal(v, attr.SS("a")) && !attr.Equal(v, attr.NS("1")) && !attr.Equal(v, attr.BS([]byte("x"))) {
			t.Errorf("changing a clone changed %s", v)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
