package api

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// noIntrospection refuses operations that ask for the schema (__schema, __type) before they
// run, with a code a client can act on. (Without the Introspection extension gqlgen would
// still run them, and answer with an uncoded resolver error.) __typename stays allowed:
// clients need it to tell types apart.
type noIntrospection struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = noIntrospection{}

func (noIntrospection) ExtensionName() string { return "QuickphotosNoIntrospection" }

func (noIntrospection) Validate(graphql.ExecutableSchema) error { return nil }

func (noIntrospection) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	oc.DisableIntrospection = true
	if oc.Operation == nil || !asksForSchema(oc.Operation.SelectionSet, map[*ast.FragmentDefinition]bool{}) {
		return nil
	}
	err := gqlerror.Errorf("introspection is switched off on this server")
	err.Extensions = map[string]any{"code": codeValidationFailed}
	return err
}

// asksForSchema reports whether set selects __schema or __type at its top level, through
// fragments too (introspection fields exist only on the root query type).
func asksForSchema(set ast.SelectionSet, seen map[*ast.FragmentDefinition]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				return true
			}
		case *ast.InlineFragment:
			if asksForSchema(s.SelectionSet, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && !seen[s.Definition] {
				seen[s.Definition] = true
				if asksForSchema(s.Definition.SelectionSet, seen) {
					return true
				}
			}
		}
	}
	return false
}
