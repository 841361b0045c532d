// Package resolvers implements the GraphQL schema: thin functions that read arguments, call
// the per-operation loaders for reads and the store for writes, and convert domain values to
// the schema's types. gqlgen regenerates schema.resolvers.go around the bodies written here.
//
// The arguments of reads are checked before the operation runs, by the schema
// (selection.CheckArguments, run by package api for every request): a read's resolver takes
// its page, usernames and keys as valid, and reads a page with the same reader
// (selection.Page). Mutations and subscriptions check their own input, after authorising the
// caller.
package resolvers

import (
	"context"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
)

// Resolver holds what every resolver needs.
type Resolver struct {
	// Store writes; reads go through the operation's loaders (package loaders).
	Store Store
	// Live delivers the table's changes to subscriptions; nil refuses subscriptions.
	Live *live.Hub
	// Media takes uploads and serves their images; nil refuses createPhotoUpload and
	// uploadPhoto's upload.
	Media *media.Service
	// MutationRetention is how long the mark of a client mutation id is kept; zero means
	// domain.DefaultMutationRetention.
	MutationRetention time.Duration
}

// Store is what the resolvers ask of the data layer (dynamo.Store): the writes of the
// mutations and their marks (replay.go), the clock uploadPhoto stamps a photo with, and the photos a feed subscription
// reads as its entries come.
type Store interface {
	CreateUser(ctx context.Context, username string, p domain.Profile) (domain.User, error)
	UpdateUser(ctx context.Context, username string, c domain.ProfileChanges) (domain.User, error)
	UploadPhoto(ctx context.Context, p domain.Photo) (domain.Photo, error)
	DeletePhoto(ctx context.Context, key domain.PhotoKey) (domain.Photo, error)
	React(ctx context.Context, k domain.ReactionKey) (domain.Reaction, error)
	RemoveReaction(ctx context.Context, k domain.ReactionKey) (domain.Reaction, error)
	Follow(ctx context.Context, k domain.FriendshipKey) (domain.Friendship, error)
	Unfollow(ctx context.Context, k domain.FriendshipKey) (domain.Friendship, error)
	GetPhotos(ctx context.Context, keys []domain.PhotoKey) (map[domain.PhotoKey]domain.Photo, error)
	Marks
	// Now is the time a photo uploaded now is stamped with, as a canonical timestamp.
	Now() string
}
