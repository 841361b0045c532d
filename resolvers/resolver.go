// Package resolvers implements the GraphQL schema: thin functions that validate arguments,
// call the per-operation loaders for reads and the store for writes, and convert domain values
// to the schema's types. gqlgen regenerates schema.resolvers.go around the bodies written here.
package resolvers

import (
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/live"
	"github.com/quickphotos/quickphotos/media"
)

// Resolver holds what every resolver needs.
type Resolver struct {
	Store *dynamo.Store
	// Live delivers the table's changes to subscriptions; nil refuses subscriptions.
	Live *live.Hub
	// Media takes uploads and serves their images; nil refuses createPhotoUpload and
	// uploadPhoto's upload.
	Media *media.Service
}
