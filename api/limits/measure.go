package limits

import (
	"math"
	"reflect"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/selection"
)

// The measures below take an operation that gqlgen has validated: validation is what links
// each field to its definition (for argument defaults) and each spread to its fragment.
// Fields under @skip or @include count as selected, so a bound holds whatever the variables
// say; fields the executor would merge (same response key) count once per occurrence. Both
// make a measure an upper bound rather than an exact count.

// Tokens is the number of lexical tokens in the document query, as gqlparser's lexer reads
// them (punctuators, names, values; not whitespace, commas or comments). Lexing is linear in
// the text, which the body limit bounds. A document the lexer cannot read counts up to the bad
// token: parsing reports it.
func Tokens(query string) int {
	lex := lexer.New(&ast.Source{Input: query})
	n := 0
	for {
		tok, err := lex.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		if tok.Kind != lexer.Comment {
			n++
		}
	}
	return n
}

// Operations is the number of operation definitions in doc. Only one of them runs, but every
// one is parsed and validated, so a document of many operations costs CPU however it is run.
func Operations(doc *ast.QueryDocument) int {
	if doc == nil {
		return 0
	}
	return len(doc.Operations)
}

// Measures are the measures of one operation that its fields determine.
type Measures struct {
	Depth, Aliases, Cost int
}

// Measure takes the measures of op in one walk of its selection set.
func Measure(op *ast.OperationDefinition, vars map[string]any) Measures {
	if op == nil {
		return Measures{}
	}
	return selection.Walker[Measures]{Vars: vars, Combine: Measures.Plus, Field: MeasureField}.Walk(op.SelectionSet)
}

// Plus combines the measures of two sibling selections: the deeper depth, the sum of the
// others.
func (m Measures) Plus(o Measures) Measures {
	return Measures{Depth: max(m.Depth, o.Depth), Aliases: add(m.Aliases, o.Aliases), Cost: add(m.Cost, o.Cost)}
}

// MeasureField is the measures of f given those of its children, for a selection.Walker that
// measures an operation while it walks it for other reasons too.
func MeasureField(f *selection.Field, children Measures) Measures {
	m := Measures{Depth: fieldDepth(f, children.Depth), Aliases: children.Aliases, Cost: fieldCost(f, children.Cost)}
	if f.Alias != "" && f.Alias != f.Name {
		m.Aliases = add(m.Aliases, 1)
	}
	return m
}

// Depth is the length of the longest chain of nested fields in op, with fragments expanded:
// `{ user { name } }` is 2. Introspection fields (__schema, __type, __typename) and all below
// them count nothing: they read no table, and introspection is switched on or off elsewhere.
func Depth(op *ast.OperationDefinition) int { return Measure(op, nil).Depth }

func fieldDepth(f *selection.Field, children int) int {
	if isIntrospection(f.Field) {
		return 0
	}
	return add(1, children)
}

// Aliases is the number of fields in op whose alias differs from their name, with fragments
// expanded: aliases are how one operation asks for the same expensive field many times.
// Aliases under introspection fields count too; they cost CPU even though they read no table.
func Aliases(op *ast.OperationDefinition) int { return Measure(op, nil).Aliases }

// Cost is an upper bound of the DynamoDB items op may read, in read units: each item is
// counted as one strongly consistent read of at most 4 KB. It ignores the batching the
// resolvers do, because batching saves requests, not read units.
//
// A field that loads one entity (Query.user, Query.photo, Query.viewer, Photo.owner,
// Reaction.user, Reaction.photo, Friendship.follower, Friendship.followed, and every mutation)
// costs 1 plus its children; so does Query.node. Query.users and Query.nodes cost that once
// per username or id asked. A connection (any field that takes `first`, by the schema: the
// feeds too) costs `first` (its default when absent or null, clamped to 0..100) times 1 plus
// the cost of one node's children. Every other field costs only its children; introspection costs nothing.
// Argument values are resolved as gqlgen resolves them, from literals, vars and defaults.
func Cost(op *ast.OperationDefinition, vars map[string]any) int { return Measure(op, vars).Cost }

func fieldCost(f *selection.Field, children int) int {
	switch kindOf(f.Field) {
	case introspection:
		return 0
	case entity:
		return add(1, children)
	case entityList:
		return mul(listLen(f, listArguments[f.Name]), add(1, children))
	case connection:
		return mul(pageSize(f), add(1, children))
	default:
		return children
	}
}

// fieldKind is how a field reads DynamoDB, as far as Cost is concerned.
type fieldKind int

const (
	// plain fields read nothing themselves: scalars, counters, edges, nodes, page info.
	plain fieldKind = iota
	introspection
	entity
	entityList
	connection
)

// mutationType is the schema's mutation root; every mutation writes after reading at most a
// few items, which Cost counts as one.
const mutationType = "Mutation"

// fieldKinds are the fields that read an entity, by parent type and field name; connections
// are known by their `first` argument instead (selection.IsConnection), so a new one costs its
// page without an edit here. Query.viewer is listed so that it cannot become free. Validate
// checks the others against the schema, so renaming one there cannot silently make it free
// either.
var fieldKinds = map[string]map[string]fieldKind{
	"Query":      {"user": entity, "photo": entity, "viewer": entity, "users": entityList, "node": entity, "nodes": entityList},
	"Photo":      {"owner": entity},
	"Reaction":   {"user": entity, "photo": entity},
	"Friendship": {"follower": entity, "followed": entity},
}

// listArguments name the argument that lists what an entityList field reads.
var listArguments = map[string]string{"users": "usernames", "nodes": "ids"}

// optionalFields may be missing from the schema.
var optionalFields = map[string]bool{"Query.viewer": true}

func isIntrospection(f *ast.Field) bool { return strings.HasPrefix(f.Name, "__") }

func kindOf(f *ast.Field) fieldKind {
	if isIntrospection(f) {
		return introspection
	}
	if f.ObjectDefinition == nil {
		return plain
	}
	if f.ObjectDefinition.Name == mutationType {
		return entity
	}
	if selection.IsConnection(f.Definition) {
		return connection
	}
	return fieldKinds[f.ObjectDefinition.Name][f.Name]
}

// pageSize is the `first` a connection field asks for, as the resolvers read it: null or
// absent is the default page size, and the store refuses more than the maximum, so more
// never costs more than the maximum.
func pageSize(f *selection.Field) int {
	args, resolved := f.Args()
	if !resolved {
		return domain.MaxPageSize
	}
	v := args["first"]
	if v == nil {
		return domain.DefaultPageSize
	}
	n, ok := selection.Int(v)
	if !ok {
		return domain.MaxPageSize
	}
	return int(min(max(n, 0), domain.MaxPageSize))
}

// listLen is the number of values in f's list argument name. GraphQL coerces a single value
// to a list of one.
func listLen(f *selection.Field, name string) int {
	args, resolved := f.Args()
	if !resolved {
		return math.MaxInt
	}
	v := args[name]
	if v == nil {
		return 0
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		return rv.Len()
	}
	return 1
}

// add and mul saturate at math.MaxInt: a nested query can describe more reads than an int
// holds, and it must still be refused rather than wrap around to a small cost.
func add(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

func mul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}
