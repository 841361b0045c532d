// Package stream reads the table's change stream and hands each committed change to a
// handler: the feed's fan-out (package feed) and the live updates of subscriptions build on
// it. It speaks the DynamoDB Streams API with aws-sdk-go-v2's dynamodbstreams types (API), so the
// same code reads Amazon DynamoDB Streams and DynamoDB Local's streams through the SDK's client,
// and the embedded engine's through its in-process API (ddb.Engine.StreamsAPI, no HTTP) or the
// SDK over its in-memory transport (ddb.Engine.StreamsClient).
//
// A Consumer reads every shard of the stream, a shard's children only after the shard itself
// (so the changes of one item arrive in the order they were made), and follows rollovers and
// splits as they come. A named consumer keeps its position per shard in the table (see
// dynamo.Checkpoint) after each batch it handled, so after a crash or a restart it resumes
// where it stopped: a change is delivered at least once, and handlers are idempotent. An
// unnamed consumer keeps no position and starts at the newest record, as live subscribers
// want. Consumer.CaughtUp says when a consumer has handled what the stream held when it
// started (serve's readiness waits for the feed's).
package stream
