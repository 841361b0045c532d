package resolvers

import (
	"context"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/loaders"
)

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
