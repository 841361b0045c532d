package api

import (
	"os"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/graph"
)

// TestRequestChecks_MeasuresAreTheLimits: the measures the request's one walk records for the
// limits extension are those the limits take themselves.
func TestRequestChecks_MeasuresAreTheLimits(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	introspection, err := os.ReadFile("limits/testdata/introspection.graphql")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		query string
		vars  map[string]any
	}{
		"Nested": {`{ a: user(username: "a") { name photos(first: 50) { edges { node { reactions(first: 10) { edges { node { user { name } } } } } } } } }`, nil},
		"Fragments": {`query($n: Int) { u: user(username: "a") { ...F ... on User { f: followers(first: $n) { totalCount } } } v: user(username: "b") { ...F } }
			fragment F on User { photos(first: 3) { edges { node { owner { ...G } } } } } fragment G on User { n: name }`, map[string]any{"n": int64(7)}},
		"Lists":         {`query($u: [ID!]!) { users(usernames: $u) { name } nodes(ids: ["a", "b"]) { id } }`, map[string]any{"u": []any{"a", "b", "c"}}},
		"Mutation":      {`mutation { createUser(input: {username: "a"}) { photos { edges { cursor } } } }`, nil},
		"Introspection": {string(introspection), nil},
	} {
		t.Run(name, func(t *testing.T) {
			doc, errs := gqlparser.LoadQueryWithRules(schema, tc.query, nil)
			if errs != nil {
				t.Fatal(errs)
			}
			op := doc.Operations[0]
			vars, err := validator.VariableValues(schema, op, tc.vars)
			if err != nil {
				t.Fatal(err)
			}
			got, want := walkSelection(op, vars).measures, limits.Measure(op, vars)
			if got != want {
				t.Errorf("the request's walk measured %+v, the limits %+v", got, want)
			}
			if want.Depth == 0 && name != "Introspection" || want.Cost == 0 && name != "Introspection" {
				t.Errorf("measures %+v: the case proves nothing", want)
			}
		})
	}
}
