package resolvers

import (
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
	c := domain.ProfileChanges{Set: map[domain.ProfileField]any{}}
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
