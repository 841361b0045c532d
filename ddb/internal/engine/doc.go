// Package engine holds the engine's operations: each takes a typed input
// and returns a typed output (output.go) or one of DynamoDB's errors
// (*Error, errors.go), and runs in one transaction of the data file
// (package storage). It does not read requests or write answers: the
// front-ends (packages wire and sdkapi) decode their requests into these
// inputs and render the outputs their own way.
//
// The data operations and the table operations answer with typed
// outputs: GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan,
// BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems,
// CreateTable, DescribeTable, UpdateTable, DeleteTable (whose answers hold
// a TableDescription), UpdateTimeToLive and DescribeTimeToLive, and the
// Streams API's ListStreams, DescribeStream, GetShardIterator and
// GetRecords, ListTables and the tag operations; PartiQL's operations
// (package partiqlexec) answer with outputs defined here. Items read
// from storage stay in their stored form (storage.StoredItem) until a
// front-end renders them.
//
// The outputs also write their own response JSON (responsejson.go, byte
// for byte what json.Marshal gives the response map the protocol
// documents), rather than package wire: a ClientRequestToken stores the
// answer it replays as that JSON (tokens.go), and the JSON of stored items
// and records is written here because storage never encodes JSON.
//
// # Files
//
// Each operation has a file named for it (getitem.go, putitem.go,
// query.go, createtable.go, deletetable.go, …), which holds only what that
// operation alone uses; what several operations share lives in the file of
// its concept:
//
//	engine.go                Engine (over a storage.Store), Options, Open,
//	                         Close, the TTL sweeper's loop
//	tabledef.go              table definitions in requests, checked; opening
//	                         a table with DynamoDB's errors
//	keyparams.go             Key parameters and item keys, checked
//	tabledescription.go      the TableDescription of every table operation
//	output.go                the typed outputs the front-ends render
//	read.go                  what GetItem, Query, Scan, BatchGetItem and
//	                         TransactGetItems share
//	queryscan.go, page.go    what Query and Scan share; reading one page
//	write.go                 the write path of PutItem, UpdateItem and
//	                         DeleteItem, the checks batch and transaction
//	                         writes share with it
//	condition.go             condition evaluation and its failure
//	transaction.go           what both transactions (and PartiQL's) share
//	tokens.go                ClientRequestTokens of TransactWriteItems
//	exprs.go, exprcache.go   expressions; parsed ones kept
//	legacyparams.go          DynamoDB's legacy (pre-expression)
//	                         parameters, translated into expressions
//	shape.go                 request shape validation (the API model's
//	                         constraints), shared by both front-ends
//	capacity.go              ConsumedCapacity
//	collectionmetrics.go     ItemCollectionMetrics
//	ttl.go                   TTL settings and the sweeper
//	stream.go                streams switched on and off
//	streamapi.go             the Streams API's operations
//	streamiterator.go        shard iterators; streamtrim.go trimming
//	tags.go                  TagResource, UntagResource,
//	                         ListTagsOfResource
//	responsejson.go          the outputs' response JSON, stored items and
//	                         stream records rendered from their stored form
//	errors.go                DynamoDB's exceptions as *Error values
package engine
