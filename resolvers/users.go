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
