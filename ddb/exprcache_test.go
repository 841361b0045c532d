package ddb

import (
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

// TestParseCached checks that an expression is parsed once for all the
// requests that send it, that a faulty one is parsed again for each (its
// error is not kept), and that one parse binds to each request's values.
func TestParseCached(t *testing.T) {
	parses := 0
	parse := func(s string) (*expr.Update, error) {
		parses++
		return expr.ParseUpdate(s)
	}
	text := "SET cachedTestCount = cachedTestCount + :inc"
	for range 3 {
		if _, err := parseCached("test-update", text, parse); err != nil {
			t.Fatal(err)
		}
	}
	if parses != 1 {
		t.Errorf("%d parses of one expression sent three times, want 1", parses)
	}
	for range 2 {
		if _, err := parseCached("test-update", "SET = broken", parse); err == nil {
			t.Fatal("a faulty expression parsed")
		}
	}
	if parses != 3 {
		t.Errorf("%d parses after two faulty sends, want 3 (errors are not kept)", parses)
	}

	// Two requests, one parse, each bound to its own :inc.
	for _, inc := range []string{"1", "5"} {
		x := &exprEnv{values: map[string]attr.Value{":inc": attr.N(inc)}}
		up, err := x.update(text, nil)
		if err != nil {
			t.Fatal(err)
		}
		it, err := up.apply(attr.Item{"cachedTestCount": attr.N("10")})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"1": "11", "5": "15"}[inc]
		if got := it["cachedTestCount"]; got.N != want {
			t.Errorf(":inc %s: count %v, want %s", inc, got, want)
		}
	}
}

// TestSharedKeyNamesAreNotOverwritten: the key names of the metadata every
// request shares are worked out once; a caller that appends to them (an
// index Query's LastEvaluatedKey names) must get a copy.
func TestSharedKeyNamesAreNotOverwritten(t *testing.T) {
	env := mustOpen(t)
	env.createTable("keyn", true)
	var m *tableMeta
	if err := env.e.view(func(tx *bolt.Tx) error {
		var err error
		m, err = env.e.loadTableShared(tx, "keyn")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	names := m.keyNames()
	_ = append(names, "GSI_PK")
	if got := m.keyNames(); len(got) != 2 || cap(got) != 2 || got[0] != "PK" || got[1] != "SK" {
		t.Fatalf("shared key names %v (cap %d), want [PK SK]", got, cap(got))
	}
}
