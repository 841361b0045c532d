// Package loaders batches and deduplicates the data a GraphQL request needs, with one set of
// graph-gophers/dataloader/v7 loaders per operation: entities by key — profiles, photos,
// reactions, friendships, whatever their mix — by one BatchGetItem per 100 keys, and item
// collections by one Query per distinct (list, page) asked. Items a
// Query brings back for free — the profile read with its followers, the photo read with its
// reactions, the photos of a page — prime the loaders, so nothing is fetched twice.
//
// Loaders live and die with one operation: nothing cached outlives it, and a failed or
// cancelled load is forgotten at once so that it is never served from the cache.
package loaders
