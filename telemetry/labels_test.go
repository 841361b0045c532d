package telemetry

import (
	"fmt"
	"strings"
	"testing"
)

func TestBoundedLabel(t *testing.T) {
	b := newBoundedLabel(3, isOperationName)
	tests := []struct{ in, want string }{
		{"", ""},
		{"userProfile", "userProfile"},
		{"x y", otherLabel},
		{"1abc", otherLabel},
		{strings.Repeat("a", 64), strings.Repeat("a", 64)},
		{strings.Repeat("a", 65), otherLabel},
		{"third", "third"},
		{"fourth", otherLabel}, // past the bound
		{"userProfile", "userProfile"},
	}
	for _, tc := range tests {
		if got := b.value(tc.in); got != tc.want {
			t.Errorf("value(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for i := range 1000 {
		b.value(fmt.Sprintf("op%d", i))
	}
	if len(b.seen) != 3 {
		t.Errorf("%d names kept, want 3", len(b.seen))
	}
}

func TestSpanName(t *testing.T) {
	for _, tc := range []struct{ name, typ, want string }{
		{"userProfile", "query", "query userProfile"},
		{"", "mutation", "mutation"},
		{"", "", "GraphQL Operation"},
	} {
		if got := spanName(tc.name, tc.typ); got != tc.want {
			t.Errorf("spanName(%q, %q) = %q, want %q", tc.name, tc.typ, got, tc.want)
		}
	}
}
