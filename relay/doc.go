// Package relay carries the table's changes from one stream consumer to any number of server
// instances through Redis pub/sub, for deployments with more instances than the stream has
// readers to spare: Amazon DynamoDB Streams serves about two concurrent readers per shard, so
// past one or two instances, one `quickphotos stream --publish-changes redis://…` reads the
// stream and publishes every change, and each `serve --changes-from redis://…` subscribes
// instead of reading the stream itself.
//
// Pub/sub delivers to the subscribers connected when a change is published, which is what
// live updates need: a subscription sees the changes made after it started. The publisher keeps
// a checkpoint (consumer "relay"), so a restart of it skips nothing, and a change may be
// published twice (subscriptions then see it twice, as after any at-least-once delivery).
package relay
