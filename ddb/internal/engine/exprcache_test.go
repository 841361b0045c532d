package engine

import (
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

// TestParseCached checks that an expression is parsed once for all the
// requests that send it, that a faulty one is parsed again for each (its
// error is not kept), that the requests' path reads the cache by kind and
// text, and that one parse binds to each request's values.
func TestParseCached(t *testing.T) {
	parses := 0
	parse := func(s string) (*expr.Update, error) {
		parses++
		return expr.ParseUpdate(s)
	}
	text := "SET cachedTestCount = cachedTestCount + :inc"
	// The cache outlives a run of the test (go test -count=2): start without the entry.
	parsedExprs.Remove(exprKey{"test-update", text})
	defer parsedExprs.Remove(exprKey{"test-update", text})
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

	// The requests' path reads the cache under the update kind: seeded with
	// another parse for this text, two requests run the seeded tree, each
	// bound to its own :inc.
	seeded := "SET requestsTestCount = requestsTestCount - :inc"
	text = "SET requestsTestCount = requestsTestCount + :inc"
	tree, err := expr.ParseUpdate(seeded)
	if err != nil {
		t.Fatal(err)
	}
	parsedExprs.Add(exprKey{expr.KindUpdate, text}, tree)
	defer parsedExprs.Remove(exprKey{expr.KindUpdate, text})
	for _, inc := range []string{"1", "5"} {
		x := &exprEnv{values: map[string]attr.Value{":inc": attr.N(inc)}}
		up, err := x.Update(text, nil)
		if err != nil {
			t.Fatal(err)
		}
		it, err := up.bound.Apply(attr.Item{"requestsTestCount": attr.N("10")})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"1": "9", "5": "5"}[inc]
		if got := it["requestsTestCount"]; got.NumText() != want {
			t.Errorf(":inc %s: count %v, want %s (the cached tree, bound to this request)", inc, got, want)
		}
	}
	// Another kind with the same text does not get the update's tree.
	x := &exprEnv{values: map[string]attr.Value{":inc": attr.N("1")}}
	if _, err := x.condition(&text); err == nil {
		t.Error("an update's text parsed as a condition")
	}
}
