package attr_test

import (
	"testing"
	"unsafe"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// TestValueFitsInlineInMaps keeps a Value within the 128 bytes up to which
// Go stores a map's values in the map itself; past it every attribute of an
// Item is an allocation of its own.
func TestValueFitsInlineInMaps(t *testing.T) {
	if n := unsafe.Sizeof(attr.Value{}); n > 128 {
		t.Fatalf("attr.Value is %d bytes, over the 128 Go stores inline in a map", n)
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
