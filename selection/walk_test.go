package selection_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/quickphotos/quickphotos/graph"
	"github.com/quickphotos/quickphotos/selection"
)

var schema = graph.NewExecutableSchema(graph.Config{}).Schema()

func mustOperation(t testing.TB, query string) *ast.OperationDefinition {
	t.Helper()
	doc, errs := gqlparser.LoadQueryWithRules(schema, query, rules.NewDefaultRules())
	if errs != nil {
		t.Fatalf("invalid query: %v", errs)
	}
	return doc.Operations[0]
}

// visits lists the fields a walk calls Field for, as "path:depth", in the order it calls it.
func visits(op *ast.OperationDefinition, shallow bool) []string {
	var seen []string
	selection.Walker[int]{
		Shallow: shallow,
		Combine: func(a, b int) int { return a + b },
		Field: func(f *selection.Field, children int) int {
			seen = append(seen, fmt.Sprintf("%s:%d", pathString(f.Path()), f.Depth()))
			return children + 1
		},
	}.Walk(op.SelectionSet)
	return seen
}

func pathString(p ast.Path) string {
	parts := make([]string, len(p))
	for i, e := range p {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, ".")
}

func TestWalker_VisitsEachFieldChildrenFirst(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		shallow     bool
		want        string
	}{
		{"Nested", `{ user(username: "a") { name photos { totalCount: edges { cursor } } } }`, false,
			"user.name:1 user.photos.totalCount.cursor:3 user.photos.totalCount:2 user.photos:1 user:0"},
		{"AliasesInThePath", `{ u: user(username: "a") { n: name } }`, false,
			"u.n:1 u:0"},
		{"InlineFragment", `{ user(username: "a") { ... on User { name } } }`, false,
			"user.name:1 user:0"},
		{"FragmentOnceAtItsFirstSpread", `{ a: user(username: "a") { ...F } b: user(username: "b") { ...F } } fragment F on User { name }`, false,
			"a.name:1 a:0 b:0"},
		{"ShallowStopsAtTheRoot", `{ a: user(username: "a") { name } ... on Query { b: user(username: "b") { name } } ...R } fragment R on Query { c: photo(owner: "a", timestamp: "t") { url } }`, true,
			"a:0 b:0 c:0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(visits(mustOperation(t, tc.query), tc.shallow), " "); got != tc.want {
				t.Errorf("visits %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWalker_FragmentValueReusedAtEverySpread: a fragment's value counts at every spread,
// though the fragment is walked once.
func TestWalker_FragmentValueReusedAtEverySpread(t *testing.T) {
	op := mustOperation(t, `{ a: user(username: "a") { ...F } b: user(username: "b") { ...F } } fragment F on User { name status }`)
	if got := count(op); got != 2+2*2 {
		t.Errorf("count %d, want 6", got)
	}
}

func count(op *ast.OperationDefinition) int {
	return selection.Walker[int]{
		Combine: func(a, b int) int { return a + b },
		Field:   func(_ *selection.Field, children int) int { return children + 1 },
	}.Walk(op.SelectionSet)
}

// TestWalker_FragmentFanOutIsWalkedOnce: each fragment spreads the next twice, so the
// operation expands to 2^40 fields; walking it must not expand it.
func TestWalker_FragmentFanOutIsWalkedOnce(t *testing.T) {
	const levels = 40
	var b strings.Builder
	b.WriteString(`{ user(username: "a") { ...F0 } }`)
	for i := range levels {
		fmt.Fprintf(&b, "\nfragment F%d on User { ...F%d ...F%d }", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "\nfragment F%d on User { name }", levels)
	op := mustOperation(t, b.String())
	start := time.Now()
	calls := len(visits(op, false))
	got := count(op)
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("walking took %v", elapsed)
	}
	if calls != 2 {
		t.Errorf("Field called %d times, want 2 (user, and name once)", calls)
	}
	if want := 1 + 1<<levels; got != want {
		t.Errorf("count %d, want %d", got, want)
	}
}

// TestWalker_FragmentCycleTerminates: validation refuses a cycle, but a walk given one anyway
// must still return.
func TestWalker_FragmentCycleTerminates(t *testing.T) {
	doc, err := parser.ParseQuery(&ast.Source{Input: `{ user(username: "a") { ...A } }
		fragment A on User { name ...B }
		fragment B on User { photos { edges { node { owner { ...A } } } } }`})
	if err != nil {
		t.Fatal(err)
	}
	if errs := validator.ValidateWithRules(schema, doc, rules.NewDefaultRules()); errs == nil {
		t.Fatal("validation accepted a fragment cycle")
	}
	if got := count(doc.Operations[0]); got != 6 {
		t.Errorf("count %d, want 6 (user name photos edges node owner)", got)
	}
}

func TestField_Args(t *testing.T) {
	op := mustOperation(t, `query($n: Int, $u: ID!) { user(username: $u) { photos(first: $n) { totalCount: edges { cursor } } followers { edges { cursor } } } }`)
	got := map[string]string{}
	selection.Walker[struct{}]{
		Vars:    map[string]any{"n": int64(7), "u": "ada"},
		Combine: func(a, _ struct{}) struct{} { return a },
		Field: func(f *selection.Field, _ struct{}) struct{} {
			args, ok := f.Args()
			again, _ := f.Args()
			if fmt.Sprint(args) != fmt.Sprint(again) {
				t.Errorf("%s: Args changed between calls", f.Name)
			}
			if len(args) > 0 || !ok {
				got[f.Name] = fmt.Sprintf("%v %v", args, ok)
			}
			return struct{}{}
		},
	}.Walk(op.SelectionSet)
	want := map[string]string{
		"user":      "map[username:ada] true",
		"photos":    "map[first:7] true",
		"followers": "map[first:20] true", // the schema's default
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("args %v, want %v", got, want)
	}
}
