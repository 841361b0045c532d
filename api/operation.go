package api

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/loaders"
	"github.com/quickphotos/quickphotos/selection"
)

// perOperation gives every GraphQL operation its own loaders and its own cost account, so
// nothing cached or counted outlives the operation or leaks into another, and a query or
// mutation that arrived without a deadline (over graphql-ws or Server-Sent Events, whose
// connections last) the request timeout an HTTP request has (withTimeout), from when it starts.
type perOperation struct {
	store *dynamo.Store
	// batches, when set, is told the size of every loader batch.
	batches loaders.BatchObserver
	// batchWait is the entity loader's batch window (loaders.Options.Wait).
	batchWait time.Duration
	// syncRetention is how long the change logs keep their entries (loaders.Options).
	syncRetention time.Duration
	// timeout bounds a query or mutation (Config.RequestTimeout).
	timeout time.Duration
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
	oc := graphql.GetOperationContext(ctx)
	if oc != nil && oc.Operation != nil {
		facts := selectionOf(oc)
		opts.ProfileFields = facts.profile.profileFields()
		opts.OneRootField = facts.rootFields == 1
	}
	ctx = loaders.With(ctx, loaders.New(p.store, opts))
	if _, deadline := ctx.Deadline(); deadline || p.timeout <= 0 || oc == nil || oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	respond := next(ctx)
	// Its transport reads responses until there are none; the context's parent, the
	// connection's or the operation's, releases it too should that stop early.
	return func(ctx context.Context) *graphql.Response {
		resp := respond(ctx)
		if resp == nil {
			cancel()
		}
		return resp
	}
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
