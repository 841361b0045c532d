package engine

import (
	"regexp"
	"testing"
)

// TestNewID: ids are UUID-shaped lowercase hex and do not repeat.
func TestNewID(t *testing.T) {
	shape := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 10000 {
		id := NewID()
		if !shape.MatchString(id) {
			t.Fatalf("NewID() = %q, not in UUID form", id)
		}
		if seen[id] {
			t.Fatalf("NewID() gave %q twice", id)
		}
		seen[id] = true
	}
}

func BenchmarkNewID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = NewID()
	}
}
