package engine

import (
	"maps"
	"slices"
	"strings"
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

// TestBindProjection: requests that send one ProjectionExpression with the same names share one
// binding; other names bind anew, and select what they name; a request reusing a binding still
// has an unused name of its own reported, and one lacking a name is refused.
func TestBindProjection(t *testing.T) {
	text := "#a, #b.c"
	item := attr.Item{
		"name": attr.S("Ada"), "status": attr.S("away"), "ab": attr.S("x"), "a": attr.S("y"),
		"m":  attr.M(map[string]attr.Value{"c": attr.N("1"), "d": attr.N("2")}),
		"bc": attr.M(map[string]attr.Value{"c": attr.N("3")}), "c": attr.M(map[string]attr.Value{"c": attr.N("4")}),
	}
	for _, tc := range []struct {
		name  string
		names map[string]string
		want  []string // the top-level attributes Apply keeps
		err   string   // what Check or binding reports
	}{
		{name: "first", names: map[string]string{"#a": "name", "#b": "m"}, want: []string{"m", "name"}},
		{name: "same names", names: map[string]string{"#a": "name", "#b": "m"}, want: []string{"m", "name"}},
		{name: "other names", names: map[string]string{"#a": "status", "#b": "m"}, want: []string{"m", "status"}},
		{name: "same names, one more", names: map[string]string{"#a": "name", "#b": "m", "#x": "extra"}, want: []string{"m", "name"},
			err: "unused in expressions: keys: {#x}"},
		// The names' boundaries are part of the key: "ab"+"c" is not "a"+"bc".
		{name: "ab, c", names: map[string]string{"#a": "ab", "#b": "c"}, want: []string{"ab", "c"}},
		{name: "a, bc", names: map[string]string{"#a": "a", "#b": "bc"}, want: []string{"a", "bc"}},
		{name: "a name missing", names: map[string]string{"#a": "name"}, err: "not defined; attribute name: #b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := &exprEnv{Names: tc.names}
			project, _, err := x.projectionNames(&text)
			if err == nil {
				err = x.Check()
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one saying %q", err, tc.err)
				}
				if project == nil {
					return
				}
			} else if err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(maps.Keys(project(item)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("kept %v, want %v", got, tc.want)
			}
			if len(tc.names) > 1 {
				if m := project(item)[tc.names["#b"]].M; len(m) != 1 || m["c"].S == "" {
					t.Errorf("%s kept as %v, want its c alone", tc.names["#b"], m)
				}
			}
		})
	}
	parsed, err := parseCached(expr.KindProjection, text, expr.ParseProjection)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"#a": "name", "#b": "m"}
	first, _ := bindProjection(parsed, expr.NewParams(names, nil))
	again, _ := bindProjection(parsed, expr.NewParams(map[string]string{"#b": "m", "#a": "name"}, nil))
	other, _ := bindProjection(parsed, expr.NewParams(map[string]string{"#a": "status", "#b": "m"}, nil))
	if first != again || first == other {
		t.Errorf("bindings %p, %p, %p: want the first two shared, the third its own", first, again, other)
	}
}
