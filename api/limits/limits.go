package limits

import (
	"context"
	"errors"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Config holds the limits; a zero field means that limit is off.
type Config struct {
	MaxTokens     int // lexical tokens in the document, counted before it is parsed (see Tokens)
	MaxDepth      int // nesting depth of fields in the executed operation (see Depth)
	MaxCost       int // estimated DynamoDB read units (see Cost)
	MaxAliases    int // aliased fields in the executed operation (see Aliases)
	MaxOperations int // operation definitions in the document (see Operations)
}

// Defaults are the server's limits: the queries the schema is designed for pass with room to
// spare, and what fails was built to be expensive or should be split.
//
//   - MaxTokens 1000: GraphiQL's introspection query is 175 tokens and the largest query the
//     other limits let through is a few hundred. Validation is quadratic in the fields that
//     share a response key (gqlparser's OverlappingFieldsCanBeMerged): 7,500 repeated fields,
//     a 150 KB body, took 13 s of CPU before any other limit could look at them, and 20,000
//     took 83 s. At 1000 tokens the worst document (990 repeated fields) takes about 60 ms;
//     at 2000, 310 ms.
//   - MaxDepth 12: a user's photos' reactors, user → photos → edges → node → reactions → edges
//     → node → user → name, is 9 deep. One connection further, a user's followers' photos'
//     reactors, is 13 and is refused: each connection level multiplies the reads, and such a
//     feed is better fetched in two steps. Introspection does not count, so GraphiQL's
//     introspection query passes whatever its own nesting.
//   - MaxCost 2000: a full page of 100 photos with the first 10 reactions of each and every
//     reactor's profile costs 2101 and is refused; default pages (20 photos, 20 reactions each,
//     their reactors) cost 821, and 100 profiles by Query.users with 10 photos each cost 1100.
//     At most 2000 items of at most 4 KB is at most 8 MB read by one operation.
//   - MaxAliases 30: a screen shows a handful of users or photos side by side; thirty aliases
//     is more than any screen needs, and aliases multiply whatever the other limits let through.
//   - MaxOperations 10: clients send one operation per document, tools a few; every definition
//     is parsed and validated even though only one runs.
var Defaults = Config{MaxTokens: 1000, MaxDepth: 12, MaxCost: 2000, MaxAliases: 30, MaxOperations: 10}

// Code is the extensions.code of a refused operation.
const Code = "QUERY_LIMIT_EXCEEDED"

// A refusal is a request error in GraphQL-over-HTTP terms: nothing ran and the response has
// no data. Registering the code as a protocol error makes gqlgen answer it as it answers a
// validation error: HTTP 422 for application/json, 400 for application/graphql-response+json
// (where a 200 without data would break the spec), instead of 200.
func init() { errcode.RegisterErrorType(Code, errcode.KindProtocol) }

// Extension refuses, after parsing and validation and before any resolver, operations that
// exceed the limits of its Config. Install it with handler.Server.Use.
type Extension struct {
	cfg Config
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
} = (*Extension)(nil)

// New returns the extension enforcing cfg.
func New(cfg Config) *Extension { return &Extension{cfg: cfg} }

// ExtensionName names the extension in gqlgen's extension list.
func (*Extension) ExtensionName() string { return "QuickphotosLimits" }

// Validate refuses a negative limit, and a schema in which a field Cost counts as an entity
// read is missing: that would make the field free without anyone noticing. handler.Server.Use panics with the error, so the server does not start.
func (e *Extension) Validate(es graphql.ExecutableSchema) error {
	c := e.cfg
	if c.MaxTokens < 0 || c.MaxDepth < 0 || c.MaxCost < 0 || c.MaxAliases < 0 || c.MaxOperations < 0 {
		return fmt.Errorf("limits: negative limit in %+v; zero turns a limit off", c)
	}
	return checkSchema(es.Schema())
}

func checkSchema(s *ast.Schema) error {
	if s.Mutation != nil && s.Mutation.Name != mutationType {
		return fmt.Errorf("limits: mutation type is %s, Cost expects %s", s.Mutation.Name, mutationType)
	}
	var errs []error
	for typ, fields := range fieldKinds {
		for name := range fields {
			var def *ast.FieldDefinition
			if t := s.Types[typ]; t != nil {
				def = t.Fields.ForName(name)
			}
			if def == nil && !optionalFields[typ+"."+name] {
				errs = append(errs, fmt.Errorf("limits: Cost counts %s.%s, which the schema lacks", typ, name))
			}
		}
	}
	return errors.Join(errs...)
}

// MutateOperationParameters refuses a document of more than MaxTokens tokens before gqlgen
// parses, validates or caches it: those steps cost time and memory that grow faster than the
// document, and the other limits can only look at a validated document. gqlgen calls it after
// automatic persisted queries have turned a hash into its query.
func (e *Extension) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	max := e.cfg.MaxTokens
	if max == 0 {
		return nil
	}
	if n := Tokens(p.Query); n > max {
		return exceeded("tokens", n, max, "document has %d tokens, %d over the limit of %d")
	}
	return nil
}

// MutateOperationContext refuses the operation about to run when it exceeds a limit. gqlgen
// calls it after validation and before execution, so a refused operation reads nothing. The
// limits are checked in this order: operations, depth, aliases, cost.
func (e *Extension) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	c := e.cfg
	if n := Operations(oc.Doc); over(n, c.MaxOperations) {
		return exceeded("operations", n, c.MaxOperations, "document has %d operations, %d over the limit of %d")
	}
	m, ok := oc.Stats.GetExtension(statsKey).(*Measures)
	if !ok {
		measured := Measure(oc.Operation, oc.Variables)
		m = &measured
	}
	if n := m.Depth; over(n, c.MaxDepth) {
		return exceeded("depth", n, c.MaxDepth, "query depth is %d, %d over the limit of %d")
	}
	if n := m.Aliases; over(n, c.MaxAliases) {
		return exceeded("aliases", n, c.MaxAliases, "query has %d aliases, %d over the limit of %d")
	}
	if n := m.Cost; over(n, c.MaxCost) {
		return exceeded("cost", n, c.MaxCost, "query cost is %d estimated read units, %d over the limit of %d")
	}
	return nil
}

// statsKey is where Record keeps an operation's measures.
const statsKey = "QuickphotosLimits"

// Record gives the extension the measures of oc's operation, taken with MeasureField by an
// extension in front of it that walks the operation anyway: the extension then checks those
// rather than walking the operation a second time. m must be what Measure(oc.Operation,
// oc.Variables) would return.
func Record(oc *graphql.OperationContext, m *Measures) { oc.Stats.SetExtension(statsKey, m) }

func over(n, limit int) bool { return limit > 0 && n > limit }

// exceeded is the refusal: format takes the actual value, the excess and the limit.
func exceeded(limit string, actual, maxAllowed int, format string) *gqlerror.Error {
	return &gqlerror.Error{
		Message: fmt.Sprintf(format, actual, actual-maxAllowed, maxAllowed),
		Extensions: map[string]any{
			"code":   Code,
			"limit":  limit,
			"max":    maxAllowed,
			"actual": actual,
		},
	}
}
