package resolvers

import (
	"context"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph"
	"github.com/quickphotos/quickphotos/graph/model"
	"github.com/quickphotos/quickphotos/loaders"
)

// Follower is the resolver for the follower field.
func (r *friendshipResolver) Follower(ctx context.Context, obj *domain.Friendship) (*domain.User, error) {
	return existingUser(ctx, obj.Follower)
}

// Followed is the resolver for the followed field.
func (r *friendshipResolver) Followed(ctx context.Context, obj *domain.Friendship) (*domain.User, error) {
	return existingUser(ctx, obj.Followed)
}

// CreateUser is the resolver for the createUser field.
func (r *mutationResolver) CreateUser(ctx context.Context, input model.CreateUserInput) (*domain.User, error) {
	profile := toProfile(input)
	if err := domain.ValidateUsername("username", input.Username); err != nil {
		return nil, err
	}
	if err := domain.ValidateProfile(profile); err != nil {
		return nil, err
	}
	u, err := r.Store.CreateUser(ctx, input.Username, profile)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).PrimeUser(ctx, u)
	return &u, nil
}

// UpdateUser is the resolver for the updateUser field.
func (r *mutationResolver) UpdateUser(ctx context.Context, username string, input model.UpdateUserInput) (*domain.User, error) {
	changes := toProfileChanges(input)
	if err := domain.ValidateUsername("username", username); err != nil {
		return nil, err
	}
	if err := domain.ValidateProfileChanges(changes); err != nil {
		return nil, err
	}
	u, err := r.Store.UpdateUser(ctx, username, changes)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).PrimeUser(ctx, u)
	return &u, nil
}

// UploadPhoto is the resolver for the uploadPhoto field.
func (r *mutationResolver) UploadPhoto(ctx context.Context, input model.UploadPhotoInput) (*domain.Photo, error) {
	p := domain.Photo{Owner: input.Owner, URL: input.URL, Timestamp: r.Store.Now()}
	if ts := input.Timestamp.Value(); ts != nil {
		p.Timestamp = *ts
	}
	if err := domain.ValidatePhotoKey(p.Key()); err != nil {
		return nil, err
	}
	if err := domain.ValidateURL("url", p.URL); err != nil {
		return nil, err
	}
	p, err := r.Store.UploadPhoto(ctx, p)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).PrimePhoto(ctx, p)
	return &p, nil
}

// DeletePhoto is the resolver for the deletePhoto field.
func (r *mutationResolver) DeletePhoto(ctx context.Context, owner string, timestamp string) (*domain.Photo, error) {
	k := domain.PhotoKey{Owner: owner, Timestamp: timestamp}
	if err := domain.ValidatePhotoKey(k); err != nil {
		return nil, err
	}
	p, err := r.Store.DeletePhoto(ctx, k)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetPhoto(ctx, k)
	return &p, nil
}

// ReactToPhoto is the resolver for the reactToPhoto field.
func (r *mutationResolver) ReactToPhoto(ctx context.Context, input model.ReactionInput) (*domain.Reaction, error) {
	k := toReactionKey(input)
	if err := domain.ValidateReactionKey(k); err != nil {
		return nil, err
	}
	reaction, err := r.Store.React(ctx, k)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetPhoto(ctx, k.Photo)
	return &reaction, nil
}

// RemoveReaction is the resolver for the removeReaction field.
func (r *mutationResolver) RemoveReaction(ctx context.Context, input model.ReactionInput) (*domain.Reaction, error) {
	k := toReactionKey(input)
	if err := domain.ValidateReactionKey(k); err != nil {
		return nil, err
	}
	reaction, err := r.Store.RemoveReaction(ctx, k)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetPhoto(ctx, k.Photo)
	return &reaction, nil
}

// FollowUser is the resolver for the followUser field.
func (r *mutationResolver) FollowUser(ctx context.Context, input model.FriendshipInput) (*domain.Friendship, error) {
	k := toFriendshipKey(input)
	if err := domain.ValidateFriendship(k); err != nil {
		return nil, err
	}
	f, err := r.Store.Follow(ctx, k)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetUsers(ctx, k.Follower, k.Followed)
	return &f, nil
}

// UnfollowUser is the resolver for the unfollowUser field.
func (r *mutationResolver) UnfollowUser(ctx context.Context, input model.FriendshipInput) (*domain.Friendship, error) {
	k := toFriendshipKey(input)
	if err := domain.ValidateFriendship(k); err != nil {
		return nil, err
	}
	f, err := r.Store.Unfollow(ctx, k)
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).ForgetUsers(ctx, k.Follower, k.Followed)
	return &f, nil
}

// Owner is the resolver for the owner field.
func (r *photoResolver) Owner(ctx context.Context, obj *domain.Photo) (*domain.User, error) {
	return existingUser(ctx, obj.Owner)
}

// ReactionCounts is the resolver for the reactionCounts field.
func (r *photoResolver) ReactionCounts(ctx context.Context, obj *domain.Photo) (*model.ReactionCounts, error) {
	return toModelReactionCounts(obj.Reactions), nil
}

// Reactions is the resolver for the reactions field.
func (r *photoResolver) Reactions(ctx context.Context, obj *domain.Photo, first *int, after *string) (*model.ReactionConnection, error) {
	p, err := pageRequest(first, after)
	if err != nil {
		return nil, err
	}
	page, err := loaders.For(ctx).PhotoReactions(ctx, obj.Key(), p)
	if err != nil {
		return nil, err
	}
	total := obj.Reactions.Total()
	return reactionConnection(page.Page, &total), nil
}

// User is the resolver for the user field.
func (r *queryResolver) User(ctx context.Context, username string) (*domain.User, error) {
	if err := domain.ValidateUsername("username", username); err != nil {
		return nil, err
	}
	l := loaders.For(ctx)
	// A first page of followers is read by the same Query as the profile.
	if p, ok := selectedPage(ctx, "followers", true); ok {
		page, err := l.Followers(ctx, username, p)
		if err != nil {
			return nil, err
		}
		return page.User, nil
	}
	// So is the last page of photos (the profile sorts just before the oldest photo): for a
	// user with few photos, one Query serves both.
	if p, ok := selectedPage(ctx, "photos", false); ok {
		page, err := l.Photos(ctx, username, p)
		if err != nil {
			return nil, err
		}
		if page.Owner != nil {
			return page.Owner, nil
		}
	}
	return l.User(ctx, username)
}

// Users is the resolver for the users field.
func (r *queryResolver) Users(ctx context.Context, usernames []string) ([]*domain.User, error) {
	if len(usernames) > domain.MaxPageSize {
		return nil, domain.Errorf(domain.Invalid, "usernames: at most %d usernames, got %d", domain.MaxPageSize, len(usernames))
	}
	for _, u := range usernames {
		if err := domain.ValidateUsername("usernames", u); err != nil {
			return nil, err
		}
	}
	return loaders.For(ctx).Users(ctx, usernames)
}

// Photo is the resolver for the photo field.
func (r *queryResolver) Photo(ctx context.Context, owner string, timestamp string) (*domain.Photo, error) {
	k := domain.PhotoKey{Owner: owner, Timestamp: timestamp}
	if err := domain.ValidatePhotoKey(k); err != nil {
		return nil, err
	}
	l := loaders.For(ctx)
	// A first page of reactions is read by the same Query on InvertedIndex as the photo.
	if p, ok := selectedPage(ctx, "reactions", true); ok {
		page, err := l.PhotoReactions(ctx, k, p)
		if err != nil {
			return nil, err
		}
		return page.Photo, nil
	}
	return l.Photo(ctx, k)
}

// User is the resolver for the user field.
func (r *reactionResolver) User(ctx context.Context, obj *domain.Reaction) (*domain.User, error) {
	return existingUser(ctx, obj.Username)
}

// Type is the resolver for the type field.
func (r *reactionResolver) Type(ctx context.Context, obj *domain.Reaction) (model.ReactionType, error) {
	return toModelReactionType(obj.Type), nil
}

// Photo is the resolver for the photo field.
func (r *reactionResolver) Photo(ctx context.Context, obj *domain.Reaction) (*domain.Photo, error) {
	p, err := loaders.For(ctx).Photo(ctx, obj.Photo)
	if err == nil && p == nil {
		err = domain.Errorf(domain.NotFound, "%q has no photo at %s", obj.Photo.Owner, obj.Photo.Timestamp)
	}
	return p, err
}

// Photos is the resolver for the photos field.
func (r *userResolver) Photos(ctx context.Context, obj *domain.User, first *int, after *string) (*model.PhotoConnection, error) {
	p, err := pageRequest(first, after)
	if err != nil {
		return nil, err
	}
	page, err := loaders.For(ctx).Photos(ctx, obj.Username, p)
	if err != nil {
		return nil, err
	}
	return photoConnection(page.Page), nil
}

// Followers is the resolver for the followers field.
func (r *userResolver) Followers(ctx context.Context, obj *domain.User, first *int, after *string) (*model.FriendshipConnection, error) {
	p, err := pageRequest(first, after)
	if err != nil {
		return nil, err
	}
	page, err := loaders.For(ctx).Followers(ctx, obj.Username, p)
	if err != nil {
		return nil, err
	}
	return friendshipConnection(page.Page, obj.FollowerCount), nil
}

// Following is the resolver for the following field.
func (r *userResolver) Following(ctx context.Context, obj *domain.User, first *int, after *string) (*model.FriendshipConnection, error) {
	p, err := pageRequest(first, after)
	if err != nil {
		return nil, err
	}
	page, err := loaders.For(ctx).Following(ctx, obj.Username, p)
	if err != nil {
		return nil, err
	}
	return friendshipConnection(page, obj.FollowingCount), nil
}

// Reactions is the resolver for the reactions field.
func (r *userResolver) Reactions(ctx context.Context, obj *domain.User, first *int, after *string) (*model.ReactionConnection, error) {
	p, err := pageRequest(first, after)
	if err != nil {
		return nil, err
	}
	page, err := loaders.For(ctx).UserReactions(ctx, obj.Username, p)
	if err != nil {
		return nil, err
	}
	return reactionConnection(page, nil), nil
}

// Friendship returns graph.FriendshipResolver implementation.
func (r *Resolver) Friendship() graph.FriendshipResolver { return &friendshipResolver{r} }

// Mutation returns graph.MutationResolver implementation.
func (r *Resolver) Mutation() graph.MutationResolver { return &mutationResolver{r} }

// Photo returns graph.PhotoResolver implementation.
func (r *Resolver) Photo() graph.PhotoResolver { return &photoResolver{r} }

// Query returns graph.QueryResolver implementation.
func (r *Resolver) Query() graph.QueryResolver { return &queryResolver{r} }

// Reaction returns graph.ReactionResolver implementation.
func (r *Resolver) Reaction() graph.ReactionResolver { return &reactionResolver{r} }

// User returns graph.UserResolver implementation.
func (r *Resolver) User() graph.UserResolver { return &userResolver{r} }

type friendshipResolver struct{ *Resolver }
type mutationResolver struct{ *Resolver }
type photoResolver struct{ *Resolver }
type queryResolver struct{ *Resolver }
type reactionResolver struct{ *Resolver }
type userResolver struct{ *Resolver }
