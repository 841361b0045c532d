// Package loadtest drives a running GraphQL server with a mix of the app's operations from
// many concurrent clients and reports what it sustained: operations a second, latency
// percentiles per operation, and, in subscription mode, the lag from an upload to the
// subscribers it reaches.
//
// It speaks only HTTP and graphql-ws to the server, so it measures any server that serves
// schema.graphqls the same way: quickphotos on its embedded engine or on DynamoDB, or the
// Apollo Server peer of tools/apollo-peer. Several targets are alternated round by round in one
// run, so that their ratios are taken side by side on one machine. The users and photos it
// picks come from the sample dataset (sample.Generate with the server's seed and user count),
// so it needs no read of its own to know what exists.
//
// Every run is bounded by a duration and, optionally, a count of operations.
package loadtest
