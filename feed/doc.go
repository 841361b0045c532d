// Package feed fills every user's feed: the photos of the users they follow, newest first.
// It fans out on write, but not in the request that wrote: FanOut handles the table's changes
// (package stream), whoever made them, and writes one feed entry per follower when a photo is
// uploaded (dynamo.Store.AddToFeeds, in batches), removes them when it is deleted, brings the
// followed user's recent photos into the follower's feed when a friendship starts and takes
// them out when it ends. Every effect is a put or a delete of a whole entry, so handling a
// change twice, as a stream consumer resuming after a crash does, changes nothing. Entries
// expire (the table's TTL) after Config.Retention, so feeds do not grow without bound.
package feed
