package limits_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/graph"
)

// schema is the server's own schema, as gqlgen validates operations against it.
var schema = sync.OnceValue(func() *ast.Schema {
	return graph.NewExecutableSchema(graph.Config{}).Schema()
})

// operation is what gqlgen hands the extension: query parsed and validated against the real
// schema, the operation named name (or the only one) selected, and the JSON variables decoded
// as the POST transport decodes them and coerced as the executor coerces them.
type operation struct {
	doc  *ast.QueryDocument
	op   *ast.OperationDefinition
	vars map[string]any
}

func mustValidate(t testing.TB, query, name, varsJSON string) operation {
	t.Helper()
	doc, errs := gqlparser.LoadQueryWithRules(schema(), query, rules.NewDefaultRules())
	if errs != nil {
		t.Fatalf("invalid query: %v", errs)
	}
	op := doc.Operations.ForName(name)
	if op == nil {
		t.Fatalf("no operation %q", name)
	}
	raw := map[string]any{}
	if varsJSON != "" {
		dec := json.NewDecoder(strings.NewReader(varsJSON))
		dec.UseNumber()
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("variables: %v", err)
		}
	}
	vars, err := validator.VariableValues(schema(), op, raw)
	if err != nil {
		t.Fatalf("variables: %v", err)
	}
	return operation{doc: doc, op: op, vars: vars}
}

// usernames returns n distinct usernames as a JSON list.
func usernames(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%q", fmt.Sprintf("u%03d", i))
	}
	return "[" + strings.Join(names, ",") + "]"
}

// nest wraps inner in n levels of user → followers → edges → node → follower.
func nest(n int, first int, inner string) string {
	for range n {
		inner = fmt.Sprintf("followers(first: %d) { edges { node { follower { %s } } } }", first, inner)
	}
	return inner
}

const photosReactionsReactors = `{ user(username: "a") { photos(first: 50) { edges { node {
	reactions(first: 10) { edges { node { user { name } } } } } } } } }`

func TestMeasures(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		query                string
		vars                 string
		depth, cost, aliases int
	}{
		{"OneUser", `{ user(username: "a") { name } }`, "",
			2, 1, 0},
		{"OnePhotoAndItsOwner", `{ photo(owner: "a", timestamp: "t") { url owner { name } } }`, "",
			3, 2, 0},
		{"ScalarsAndCountersCostNothingMore", `{ photo(owner: "a", timestamp: "t") { url reactionCounts { total } } }`, "",
			3, 1, 0},
		{"ConnectionDefaultFirst", `{ user(username: "a") { photos { edges { cursor node { url } } pageInfo { hasNextPage } } } }`, "",
			5, 1 + 20, 0},
		{"ConnectionOnlyCounted_StillAPage", `{ user(username: "a") { followers { totalCount } } }`, "",
			3, 1 + 20, 0},
		{"NestedConnections", photosReactionsReactors, "",
			9, 1 + 50*(1+10*(1+1)), 0},
		{"FirstFromVariable", `query($n: Int) { user(username: "a") { photos(first: $n) { edges { node { url } } } } }`, `{"n": 50}`,
			5, 1 + 50, 0},
		{"FirstVariableAbsent_SchemaDefault", `query($n: Int) { user(username: "a") { photos(first: $n) { edges { node { url } } } } }`, ``,
			5, 1 + 20, 0},
		{"FirstVariableNull_ResolverDefault", `query($n: Int) { user(username: "a") { photos(first: $n) { edges { node { url } } } } }`, `{"n": null}`,
			5, 1 + 20, 0},
		{"FirstVariableDefault", `query($n: Int = 7) { user(username: "a") { photos(first: $n) { edges { node { url } } } } }`, ``,
			5, 1 + 7, 0},
		{"FirstNullLiteral", `{ user(username: "a") { photos(first: null) { edges { node { url } } } } }`, "",
			5, 1 + 20, 0},
		{"FirstClampedTo100", `{ user(username: "a") { photos(first: 100000) { edges { node { url } } } } }`, "",
			5, 1 + 100, 0},
		{"FirstZero", `{ user(username: "a") { photos(first: 0) { edges { node { url } } } } }`, "",
			5, 1, 0},
		{"FirstNegative", `{ user(username: "a") { photos(first: -5) { edges { node { url } } } } }`, "",
			5, 1, 0},
		{"UsersLiteralList", `{ users(usernames: ["a", "b", "c"]) { name } }`, "",
			2, 3, 0},
		{"UsersSingleValueIsAListOfOne", `{ users(usernames: "a") { name } }`, "",
			2, 1, 0},
		{"UsersFromVariable", `query($n: [ID!]!) { users(usernames: $n) { photos(first: 10) { edges { node { url } } } } }`, `{"n": ` + usernames(100) + `}`,
			5, 100 * (1 + 10), 0},
		{"NodesLiteralList", `{ nodes(ids: ["a", "b", "c"]) { id ... on User { photos(first: 10) { edges { node { url } } } } } }`, "",
			5, 3 * (1 + 10), 0},
		{"NodeIsOneEntity", `{ node(id: "a") { ... on Photo { owner { name } } } }`, "",
			3, 1 + 1, 0},
		{"UsersListWithAVariableInside", `query($u: ID!) { users(usernames: ["a", $u]) { name } }`, `{"u": "b"}`,
			2, 2, 0},
		{"NamedFragmentSpreadTwice", `{ a: user(username: "a") { ...Photos } b: user(username: "b") { ...Photos } }
			fragment Photos on User { photos(first: 5) { edges { node { owner { name } } } } }`, "",
			6, 2 * (1 + 5*(1+1)), 2},
		{"InlineFragment", `{ photo(owner: "a", timestamp: "t") { ... on Photo { owner { name } } } }`, "",
			3, 2, 0},
		{"FragmentInsideFragment", `{ user(username: "a") { ...A } } fragment A on User { f: followers(first: 2) { edges { node { ...B } } } }
			fragment B on Friendship { follower { n: name } followed { name } }`, "",
			6, 1 + 2*(1+1+1), 2},
		{"AliasEqualToNameIsNoAlias", `{ user: user(username: "a") { name: name } }`, "",
			2, 1, 0},
		{"Mutation", `mutation { followUser(input: {follower: "a", followed: "b"}) { follower { name } followed { name } } }`, "",
			3, 1 + 1 + 1, 0},
		{"MutationsEachCount", `mutation { a: createUser(input: {username: "a"}) { username } b: createUser(input: {username: "b"}) { username } }`, "",
			2, 2, 2},
		{"TypenameIsFree", `{ __typename user(username: "a") { __typename name } }`, "",
			2, 1, 0},
		{"IntrospectionIsExempt", `{ __type(name: "User") { fields { type { ofType { name } } } } }`, "",
			0, 0, 0},
		{"AliasesUnderIntrospectionCount", `{ a: __type(name: "User") { name } b: __type(name: "Photo") { name } }`, "",
			0, 0, 2},
		{"CostSaturatesInsteadOfOverflowing", `{ user(username: "a") { ` + nest(12, 100, "name") + ` } }`, "",
			2 + 12*4, math.MaxInt, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := mustValidate(t, tc.query, "", tc.vars)
			if got := limits.Depth(o.op); got != tc.depth {
				t.Errorf("Depth = %d, want %d", got, tc.depth)
			}
			if got := limits.Cost(o.op, o.vars); got != tc.cost {
				t.Errorf("Cost = %d, want %d", got, tc.cost)
			}
			if got := limits.Aliases(o.op); got != tc.aliases {
				t.Errorf("Aliases = %d, want %d", got, tc.aliases)
			}
		})
	}
}

func TestOperations(t *testing.T) {
	o := mustValidate(t, `query A { user(username: "a") { name } } query B { __typename } mutation C { createUser(input: {username: "c"}) { username } }`, "B", "")
	if got := limits.Operations(o.doc); got != 3 {
		t.Errorf("Operations = %d, want 3", got)
	}
	if got := limits.Operations(nil); got != 0 {
		t.Errorf("Operations(nil) = %d, want 0", got)
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"", 0},
		{"{ a }", 3},
		{"{ a, b # a comment: { c d e }\n }", 4}, // commas and comments are not tokens
		{`{ a(x: "b c d", y: """e f""") }`, 11},  // a string is one token however long
		{"query Q($v: [ID!]!) { a(v: $v) @skip(if: true) { ...F } }", 32},
		{`{ a(x: "unterminated`, 5}, // counted up to what the lexer cannot read
	} {
		if got := limits.Tokens(tc.query); got != tc.want {
			t.Errorf("Tokens(%q) = %d, want %d", tc.query, got, tc.want)
		}
	}
}

// TestMeasuresOfTheSelectedOperation checks that only the operation that runs is measured.
func TestMeasuresOfTheSelectedOperation(t *testing.T) {
	query := `query Cheap { user(username: "a") { name } }
		query Dear { user(username: "a") { a: photos(first: 100) { edges { node { url } } } } }`
	if got := limits.Cost(mustValidate(t, query, "Cheap", "").op, nil); got != 1 {
		t.Errorf("Cost(Cheap) = %d, want 1", got)
	}
	if got := limits.Cost(mustValidate(t, query, "Dear", "").op, nil); got != 101 {
		t.Errorf("Cost(Dear) = %d, want 101", got)
	}
}

// TestFragmentFanOutIsMeasuredOnce: each fragment spreads the next twice, so the operation
// expands to 2^40 fields. Measuring it must not expand it.
func TestFragmentFanOutIsMeasuredOnce(t *testing.T) {
	const levels = 40
	var b strings.Builder
	b.WriteString(`{ user(username: "a") { ...F0 } }`)
	for i := range levels {
		fmt.Fprintf(&b, "\nfragment F%d on User { ...F%d ...F%d }", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "\nfragment F%d on User { n: name photos(first: 1) { edges { node { url } } } }", levels)
	o := mustValidate(t, b.String(), "", "")

	start := time.Now()
	aliases, cost, depth := limits.Aliases(o.op), limits.Cost(o.op, nil), limits.Depth(o.op)
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("measuring took %v", elapsed)
	}
	if want := 1 << levels; aliases != want {
		t.Errorf("Aliases = %d, want %d", aliases, want)
	}
	if want := 1 + 1<<levels; cost != want {
		t.Errorf("Cost = %d, want %d", cost, want)
	}
	if depth != 5 {
		t.Errorf("Depth = %d, want 5", depth)
	}
}

// TestIntrospectionPassesDefaults: GraphiQL must be able to load the schema.
func TestIntrospectionPassesDefaults(t *testing.T) {
	query, err := os.ReadFile("testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	o := mustValidate(t, string(query), "IntrospectionQuery", "")
	d := limits.Defaults
	if got := limits.Operations(o.doc); got > d.MaxOperations {
		t.Errorf("Operations = %d, over %d", got, d.MaxOperations)
	}
	if got := limits.Depth(o.op); got > d.MaxDepth {
		t.Errorf("Depth = %d, over %d", got, d.MaxDepth)
	}
	if got := limits.Aliases(o.op); got > d.MaxAliases {
		t.Errorf("Aliases = %d, over %d", got, d.MaxAliases)
	}
	if got := limits.Cost(o.op, o.vars); got > d.MaxCost {
		t.Errorf("Cost = %d, over %d", got, d.MaxCost)
	}
}

// TestDefaultsExamples pins the numbers the comment on Defaults gives.
func TestDefaultsExamples(t *testing.T) {
	for _, tc := range []struct {
		name, query, vars string
		measure           func(operation) int
		want              int
	}{
		{"DeepestUsefulPath", `{ user(username: "a") { photos { edges { node { reactions { edges { node { user { name } } } } } } } } }`, "",
			depth, 9},
		{"FollowersPhotosReactors", `{ user(username: "a") { followers(first: 5) { edges { node { follower { photos(first: 5) { edges { node {
			reactions(first: 5) { edges { node { user { name } } } } } } } } } } } } }`, "",
			depth, 13},
		{"FullPageOfPhotosTenReactorsEach", `{ user(username: "a") { photos(first: 100) { edges { node {
			reactions(first: 10) { edges { node { user { name } } } } } } } } }`, "",
			cost, 2101},
		{"DefaultPagesOfPhotosAndReactors", `{ user(username: "a") { photos { edges { node {
			reactions { edges { node { user { name } } } } } } } } }`, "",
			cost, 821},
		{"HundredProfilesTenPhotosEach", `query($n: [ID!]!) { users(usernames: $n) { photos(first: 10) { edges { node { url } } } } }`, `{"n": ` + usernames(100) + `}`,
			cost, 1100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.measure(mustValidate(t, tc.query, "", tc.vars)); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

func depth(o operation) int { return limits.Depth(o.op) }
func cost(o operation) int  { return limits.Cost(o.op, o.vars) }

// TestFragmentCycleTerminates: validation refuses a cycle, but a measure given one anyway
// must still return.
func TestFragmentCycleTerminates(t *testing.T) {
	doc, err := parser.ParseQuery(&ast.Source{Input: `{ user(username: "a") { ...A } }
		fragment A on User { a: name ...B }
		fragment B on User { photos(first: 2) { edges { node { owner { ...A } } } } }`})
	if err != nil {
		t.Fatal(err)
	}
	if errs := validator.ValidateWithRules(schema(), doc, rules.NewDefaultRules()); errs == nil {
		t.Fatal("validation accepted a fragment cycle")
	}
	op := doc.Operations[0]
	if op.SelectionSet[0].(*ast.Field).SelectionSet[0].(*ast.FragmentSpread).Definition == nil {
		t.Fatal("validation did not link the spread; the test would prove nothing")
	}
	if got := limits.Aliases(op); got != 1 {
		t.Errorf("Aliases = %d, want 1", got)
	}
	if got := limits.Depth(op); got != 5 {
		t.Errorf("Depth = %d, want 5", got)
	}
	if got := limits.Cost(op, nil); got != 1+2*(1+1) {
		t.Errorf("Cost = %d, want 5", got)
	}
}

// TestCost_ConnectionsGoByTheSchema: every field that takes `first` costs its page, the feeds
// too, and a connection the cost model has never heard of.
func TestCost_ConnectionsGoByTheSchema(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        int
	}{
		{"Feed", `{ feed(first: 5) { edges { node { owner { name } } } } }`, 5 * (1 + 1)},
		{"FeedDefaultFirst", `{ feed { edges { node { url } } } }`, 20},
		{"UsersFeed", `{ user(username: "a") { feed(first: 3) { edges { node { url } } } } }`, 1 + 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cost(mustValidate(t, tc.query, "", "")); got != tc.want {
				t.Errorf("Cost = %d, want %d", got, tc.want)
			}
		})
	}
	t.Run("AFieldNewToTheCostModel", func(t *testing.T) {
		s := gqlparser.MustLoadSchema(&ast.Source{Name: "new.graphqls", Input: `
			type Query { albums(first: Int = 20, after: String): AlbumConnection! }
			type AlbumConnection { edges: [AlbumEdge!]! }
			type AlbumEdge { node: Album! }
			type Album { title: String! }`})
		doc, errs := gqlparser.LoadQueryWithRules(s, `{ a: albums(first: 7) { edges { node { title } } } b: albums { edges { node { title } } } }`, rules.NewDefaultRules())
		if errs != nil {
			t.Fatal(errs)
		}
		if got := limits.Cost(doc.Operations[0], nil); got != 7+20 {
			t.Errorf("Cost = %d, want 27", got)
		}
	})
}
