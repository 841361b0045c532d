package attr_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

func TestSize(t *testing.T) {
	tests := []struct {
		name string
		item attr.Item
		want int
	}{
		{"string", attr.Item{"ab": attr.S("hello")}, 2 + 5},
		{"utf8", attr.Item{"é": attr.S("é")}, 2 + 2},
		{"number 1 digit", attr.Item{"n": attr.N("7")}, 1 + 2},
		{"number 3 digits", attr.Item{"n": attr.N("123")}, 1 + 3},
		{"number trailing zeros trimmed", attr.Item{"n": attr.N("1000000")}, 1 + 2},
		{"binary", attr.Item{"b": attr.B([]byte{1, 2, 3})}, 1 + 3},
		{"bool", attr.Item{"b": attr.Bool(true)}, 1 + 1},
		{"null", attr.Item{"n": attr.Null()}, 1 + 1},
		{"empty list", attr.Item{"l": attr.L()}, 1 + 3},
		{"list", attr.Item{"l": attr.L(attr.S("ab"), attr.Bool(false))}, 1 + 3 + (1 + 2) + (1 + 1)},
		{"map", attr.Item{"m": attr.M(map[string]attr.Value{"k": attr.S("v")})}, 1 + 3 + (1 + 1 + 1)},
		{"string set", attr.Item{"s": attr.SS("a", "bc")}, 1 + 3},
		{"number set", attr.Item{"s": attr.NS("1", "22")}, 1 + 2 + 2},
		{"two attrs", attr.Item{"PK": attr.S("USER#a"), "SK": attr.S("x")}, 2 + 6 + 2 + 1},
	}
	for _, tt := range tests {
		if got := attr.Size(tt.item); got != tt.want {
			t.Errorf("%s: Size = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestCapacityUnits(t *testing.T) {
	if attr.ReadUnits(0) != 1 || attr.ReadUnits(4096) != 1 || attr.ReadUnits(4097) != 2 {
		t.Error("ReadUnits")
	}
	if attr.WriteUnits(1) != 1 || attr.WriteUnits(1024) != 1 || attr.WriteUnits(1025) != 2 {
		t.Error("WriteUnits")
	}
	big := attr.Item{"x": attr.S(strings.Repeat("a", attr.MaxItemSize))}
	if attr.Size(big) <= attr.MaxItemSize {
		t.Error("MaxItemSize")
	}
}
