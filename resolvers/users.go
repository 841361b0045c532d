package resolvers

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/loaders"
)

// relatedUser is the user that a photo, reaction or friendship names, for the field being
// resolved. Where that field asks only for what the username answers (byName), the user is not
// read: the writes that make a photo, a reaction or a friendship check that its users exist,
// and no user is ever deleted. The photos of the users one follows then cost a Query per user
// and no BatchGetItem of profiles nobody asked for (docs/design.md, pattern 10).
func relatedUser(ctx context.Context, username string) (*domain.User, error) {
	if askedByName(ctx) {
		return &domain.User{Username: username}, nil
	}
	return existingUser(ctx, username)
}

// askedByName reports whether the field being resolved, of type User, asks only for what the
// username answers (byName).
func askedByName(ctx context.Context) bool {
	fc := graphql.GetFieldContext(ctx)
	return fc != nil && byName(graphql.GetOperationContext(ctx), fc.Field.Selections)
}

// byNameFields are the fields of a User that its username alone answers: its id, and the
// connections read by the username (their resolvers use nothing else of the user).
var byNameFields = map[string]bool{"__typename": true, "id": true, "username": true, "photos": true, "reactions": true}

// countedFields are the connections of a User read by the username whose totalCount is the
// profile's counter: answered by the username alone when totalCount is not asked.
var countedFields = map[string]bool{"followers": true, "following": true}

// byName reports whether sel, a User's selection set, asks only for what the username answers
// (through fragments too, whatever their type conditions).
func byName(oc *graphql.OperationContext, sel ast.SelectionSet) bool {
	for _, f := range graphql.CollectFields(oc, sel, nil) {
		if byNameFields[f.Name] || countedFields[f.Name] && !asks(oc, f.Selections, "totalCount") {
			continue
		}
		return false
	}
	return true
}

// asks reports whether sel asks for field.
func asks(oc *graphql.OperationContext, sel ast.SelectionSet, field string) bool {
	for _, f := range graphql.CollectFields(oc, sel, nil) {
		if f.Name == field {
			return true
		}
	}
	return false
}

// readsEntity reports whether field f, which names an entity, needs that entity read: a user
// asked for only by name does not (relatedUser).
func readsEntity(oc *graphql.OperationContext, f graphql.CollectedField) bool {
	return f.Definition == nil || f.Definition.Type.Name() != "User" || !byName(oc, f.Selections)
}

// existingUser loads a user that a photo, reaction or friendship refers to; its absence means
// the data is inconsistent, which is reported rather than hidden.
func existingUser(ctx context.Context, username string) (*domain.User, error) {
	u, err := loaders.For(ctx).User(ctx, username)
	if err == nil && u == nil {
		err = domain.Errorf(domain.NotFound, "user %q does not exist", username)
	}
	return u, err
}

// private returns a private profile field's value when the caller may see it, else nil.
func private(ctx context.Context, owner *domain.User, value *string) *string {
	if !domain.CallerFrom(ctx).MaySeePrivate(owner.Username) {
		return nil
	}
	return value
}

// errNoSignedInCaller explains why a caller without a username cannot have field, which is
// about the caller's own user.
func errNoSignedInCaller(field string, caller domain.Caller) error {
	if caller.IsTrusted() {
		return domain.Errorf(domain.Unauthenticated, "%s needs a signed-in caller, and this server runs without authentication", field)
	}
	return domain.Errorf(domain.Unauthenticated, "%s needs a signed-in caller: send Authorization: Bearer <token>", field)
}
