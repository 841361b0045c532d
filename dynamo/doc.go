// Package dynamo is the single-table data layer of Quick Photos over aws-sdk-go-v2.
//
// It owns everything DynamoDB-shaped: the keys (keys.go, the only place PK and SK strings are
// built), the items and their converters to domain values (items.go), the access patterns of
// docs/design.md, each a fixed set of requests (users.go, photos.go, reactions.go, friendships.go),
// the transactions that keep counters exact (transact.go), batching (batch.go), cursors that
// never leave their partition (cursor.go), and, for every request, the accounting of its cost
// (cost.go) and its report to an Observer, both done by Store.send (observe.go), through which
// the request methods of request.go send everything.
//
// The same code runs against the embedded engine, DynamoDB Local and Amazon DynamoDB: a Store
// only needs a client with the DynamoDB API (the API interface).
//
// Bulk loads are package dynamo/itemfile's, which reads and writes items files; bulk.go holds
// the little it needs of the table (BatchWriter, LoadableItem, Backoff.PutItems, DatasetItems).
package dynamo
