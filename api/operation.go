package api

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/loaders"
)

// perOperation gives every GraphQL operation its own loaders and its own cost account, so
// nothing cached or counted outlives the operation or leaks into another.
type perOperation struct {
	store *dynamo.Store
	// batches, when set, is told the size of every loader batch.
	batches loaders.BatchObserver
	// batchWait is each loader's batch window (loaders.Options.Wait).
	batchWait time.Duration
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
} = perOperation{}

func (perOperation) ExtensionName() string { return "QuickphotosPerOperation" }

func (perOperation) Validate(graphql.ExecutableSchema) error { return nil }

func (p perOperation) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	ctx, _ = dynamo.WithCost(ctx)
	opts := loaders.Options{Observer: p.batches, Wait: p.batchWait}
	if oc := graphql.GetOperationContext(ctx); oc != nil && oc.Operation != nil {
		opts.ProfileFields = profileFields(oc.Operation.SelectionSet)
	}
	return next(loaders.With(ctx, loaders.New(p.store, opts)))
}

// schemaProfileFields maps the schema's User fields that hold a profile field to that field.
var schemaProfileFields = map[string]domain.ProfileField{
	"name":        domain.FieldName,
	"email":       domain.FieldEmail,
	"birthdate":   domain.FieldBirthdate,
	"address":     domain.FieldAddress,
	"status":      domain.FieldStatus,
	"interests":   domain.FieldInterests,
	"pinnedImage": domain.FieldPinnedImage,
}

// profileFields lists the optional profile fields an operation selects anywhere, so that
// profile reads fetch only those. It returns them in domain.ProfileFields order, an empty,
// non-nil list when none is selected.
func profileFields(set ast.SelectionSet) []domain.ProfileField {
	seen := map[domain.ProfileField]bool{}
	visited := map[*ast.FragmentDefinition]bool{}
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if f, ok := schemaProfileFields[s.Name]; ok && s.ObjectDefinition != nil && s.ObjectDefinition.Name == "User" {
					seen[f] = true
				}
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			case *ast.FragmentSpread:
				if s.Definition != nil && !visited[s.Definition] {
					visited[s.Definition] = true
					walk(s.Definition.SelectionSet)
				}
			}
		}
	}
	walk(set)
	fields := []domain.ProfileField{}
	for _, f := range domain.ProfileFields {
		if seen[f] {
			fields = append(fields, f)
		}
	}
	return fields
}
