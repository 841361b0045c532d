package api

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/loaders"
	"github.com/quickphotos/quickphotos/selection"
)

// perOperation gives every GraphQL operation its own loaders and its own cost account, so
// nothing cached or counted outlives the operation or leaks into another.
type perOperation struct {
	store *dynamo.Store
	// batches, when set, is told the size of every loader batch.
	batches loaders.BatchObserver
	// batchWait is the entity loader's batch window (loaders.Options.Wait).
	batchWait time.Duration
	// syncRetention is how long the change logs keep their entries (loaders.Options).
	syncRetention time.Duration
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
} = perOperation{}

func (perOperation) ExtensionName() string { return "QuickphotosPerOperation" }

func (perOperation) Validate(graphql.ExecutableSchema) error { return nil }

func (p perOperation) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	ctx, _ = dynamo.WithCost(ctx)
	opts := loaders.Options{Observer: p.batches, Wait: p.batchWait, SyncRetention: p.syncRetention}
	if oc := graphql.GetOperationContext(ctx); oc != nil && oc.Operation != nil {
		facts := selectionOf(oc)
		opts.ProfileFields = facts.profile.profileFields()
		opts.OneRootField = facts.rootFields == 1
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

// profileFieldOf is the profile field f selects, as a set: none unless f is one of User's
// fields that hold a profile field.
func profileFieldOf(f *selection.Field) profileSet {
	if f.ObjectDefinition == nil || f.ObjectDefinition.Name != "User" {
		return 0
	}
	return schemaProfileBits[f.Name]
}

// schemaProfileBits maps each of schemaProfileFields to its field alone, as a set.
var schemaProfileBits = func() map[string]profileSet {
	if len(domain.ProfileFields) > 32 {
		panic("profileSet holds at most 32 profile fields")
	}
	bits := map[string]profileSet{}
	for name, pf := range schemaProfileFields {
		for i, f := range domain.ProfileFields {
			if f == pf {
				bits[name] = 1 << i
			}
		}
	}
	return bits
}()
