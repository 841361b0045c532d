// Package live delivers the table's changes to GraphQL subscribers. A Hub is a stream.Handler:
// an unnamed stream consumer in every server instance hands it every change, and it passes
// each to the subscribers of the change's topic (a photo, a user's profile, a user's followers,
// a user's feed). So each instance delivers every change to its own subscribers, whoever made
// the write, with no broker between instances.
//
// Delivery never waits for a subscriber: each has a buffer of Config.Buffer changes, and one
// whose buffer is full when a change comes has fallen too far behind: its subscription ends
// with ErrLagged, and the others go on. A connection holds at most Config.PerConnection
// subscriptions (see WithConnection).
package live
