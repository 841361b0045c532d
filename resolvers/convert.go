package resolvers

import (
	"context"
	"errors"

	"github.com/99designs/gqlgen/graphql"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph/model"
)

func toReactionKey(in model.ReactionInput) domain.ReactionKey {
	return domain.ReactionKey{
		Username: in.Username,
		Type:     in.Type,
		Photo:    domain.PhotoKey{Owner: in.Owner, Timestamp: in.Timestamp},
	}
}

func toFriendshipKey(in model.FriendshipInput) domain.FriendshipKey {
	return domain.FriendshipKey{Follower: in.Follower, Followed: in.Followed}
}

// toProfile reads createUser's input; null and absent mean the same there.
func toProfile(in model.CreateUserInput) domain.Profile {
	return domain.Profile{
		Name: in.Name.Value(), Email: in.Email.Value(), Birthdate: in.Birthdate.Value(),
		Address: in.Address.Value(), Status: in.Status.Value(), Interests: in.Interests.Value(),
		PinnedImage: in.PinnedImage.Value(),
	}
}

// toProfileChanges reads updateUser's input: a field left out is unchanged, a null removes it.
func toProfileChanges(in model.UpdateUserInput) domain.ProfileChanges {
	c := domain.ProfileChanges{Set: map[domain.ProfileField]any{}, IfVersion: in.ExpectedVersion.Value()}
	for _, field := range []struct {
		name  domain.ProfileField
		value graphql.Omittable[*string]
	}{
		{domain.FieldName, in.Name}, {domain.FieldEmail, in.Email}, {domain.FieldBirthdate, in.Birthdate},
		{domain.FieldAddress, in.Address}, {domain.FieldStatus, in.Status}, {domain.FieldPinnedImage, in.PinnedImage},
	} {
		f := field.name
		switch s, set := field.value.ValueOK(); {
		case !set:
		case s == nil:
			c.Remove = append(c.Remove, f)
		default:
			c.Set[f] = *s
		}
	}
	switch list, set := in.Interests.ValueOK(); {
	case !set:
	case list == nil:
		c.Remove = append(c.Remove, domain.FieldInterests)
	default:
		c.Set[domain.FieldInterests] = list
	}
	return c
}

// withCurrent gives the Conflict of a stale expected version the profile as it is now, in the
// error's extensions.current, its fields as the schema names them: what a client merges with.
func withCurrent(err error) error {
	var stale *domain.StaleVersion
	var e *domain.Error
	if !errors.As(err, &stale) || !errors.As(err, &e) {
		return err
	}
	u := stale.Current
	interests := u.Interests
	if interests == nil {
		interests = []string{}
	}
	return &domain.Error{Code: e.Code, Message: e.Message, Err: e.Err, Details: map[string]any{"current": map[string]any{
		"__typename": "User", "id": u.ID(), "username": u.Username, "version": u.Version,
		"name": u.Name, "email": u.Email, "birthdate": u.Birthdate, "address": u.Address,
		"status": u.Status, "interests": interests, "pinnedImage": u.PinnedImage,
		"followerCount": u.FollowerCount, "followingCount": u.FollowingCount,
	}}}
}

// withCurrentProfile is the replay of updateUser's recorded refusal e: a Conflict (a stale
// version) gets the profile as it is now, as the first answer had it as it was then.
func (r *Resolver) withCurrentProfile(ctx context.Context, username string, e *domain.Error) error {
	if e.Code != domain.Conflict {
		return e
	}
	n, err := r.Store.GetNode(ctx, domain.UserKey{Username: username})
	u, ok := n.(*domain.User)
	if err != nil || !ok {
		return e
	}
	return withCurrent(&domain.Error{Code: e.Code, Message: e.Message, Err: &domain.StaleVersion{Current: *u}})
}
