// Package ddb is an embedded, durable, DynamoDB-compatible database engine
// in pure Go. It speaks the DynamoDB JSON 1.0 protocol as an http.Handler,
// so the unchanged aws-sdk-go-v2 DynamoDB client works against it, either
// over HTTP or in-process through Engine.HTTPClient (no socket). In the same
// process, Engine.API is faster still: it takes and returns the SDK's typed
// inputs, outputs and errors with no JSON, HTTP or signing, and
// is what embedded quickphotos uses, with Engine.StreamsAPI for the DynamoDB
// Streams API; the differential conformance suite runs through both paths
// and compares them.
//
//	e, err := ddb.Open(dir, nil)
//	...
//	defer e.Close()
//	client := dynamodb.New(dynamodb.Options{
//		Region:       "local",
//		BaseEndpoint: aws.String("http://ddb.local"),
//		Credentials:  credentials.NewStaticCredentialsProvider("x", "x", ""),
//		HTTPClient:   e.HTTPClient(),
//	})
//
// Values, items, key encoding and sizes come from package ddb/attr;
// expressions (condition, filter, key condition, projection, update) from
// package ddb/expr; PartiQL statements are parsed by package ddb/partiql.
//
// # Layers
//
// The engine is five packages under ddb/internal, in layers; a package
// imports only packages of the layers below its own, and the two
// front-ends do not import each other (TestLayers checks it):
//
//	ddb                   the facade: Open, Engine, Options; wires the rest
//	internal/wire         front-end: the JSON 1.0 protocol, dispatch by
//	                      X-Amz-Target, request bodies, errors, HTTP server
//	internal/sdkapi       front-end: the SDK's typed API in process
//	                      (Engine.API, Engine.StreamsAPI)
//	internal/partiqlexec  PartiQL statements run as the operations
//	internal/engine       the operations: typed inputs in, typed outputs
//	                      and DynamoDB's errors out; tables, reads, writes,
//	                      transactions, TTL, streams, tags, capacity
//	internal/storage      the bbolt file: layout, upgrades, item codec,
//	                      table transactions, stream logs, group commit
//
// An operation takes a typed input and returns a typed output (see
// package engine); each front-end decodes its own requests into those
// inputs and renders the outputs its own way, none through another's form.
// The front-ends do not import each other, and storage knows nothing of
// requests or answers. Package ddb converts its Options into the engine's
// and puts the JSON handler and the typed APIs around one engine.
//
// The outputs write their own response JSON (internal/engine/responsejson.go)
// rather than leaving it to package wire: a ClientRequestToken stores the
// TransactWriteItems answer it replays as that JSON, so the operations
// need it themselves. PartiQL (package partiqlexec) translates a statement
// into the equivalent operation's typed input and runs it, so both
// front-ends serve it as they serve the other operations; it sits between
// them and the operations.
//
// Tests of the engine's behaviour through its public API (and the crash,
// sync-order and upgrade tests, and the invariant checker every test runs)
// are in this package; tests of one layer's internals are in that layer's
// package.
//
// # Operations
//
// Control plane: CreateTable, DescribeTable, ListTables, DeleteTable,
// UpdateTable (billing, throughput, GSI create with backfill and delete),
// UpdateTimeToLive, DescribeTimeToLive. Data plane: GetItem, PutItem,
// UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem,
// TransactWriteItems, TransactGetItems. DynamoDB Streams (package engine): a
// StreamSpecification on CreateTable or UpdateTable, and the Streams API
// (ListStreams, DescribeStream, GetShardIterator, GetRecords) on the same
// endpoint under the X-Amz-Target prefix DynamoDBStreams_20120810, as
// DynamoDB Local serves it; the SDKs' dynamodbstreams clients work over
// HTTP or in-process through HTTPClient, and Engine.StreamsAPI serves it in
// process with the SDK's types (package sdkapi). PartiQL (package partiqlexec):
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, parsed
// by package ddb/partiql and run as the equivalent DynamoDB requests.
// Tags: TagResource, UntagResource, ListTagsOfResource and Tags on
// CreateTable. Legacy parameters (Expected,
// AttributesToGet, AttributeUpdates, KeyConditions, QueryFilter,
// ScanFilter, ConditionalOperator) are translated into the equivalent
// expressions (package engine). Elsewhere, what earlier versions of the
// engine stored (JSON storage formats 1-3, tokens hashed the old way) is
// called "earlier", never "legacy".
//
// The conformance suite in ddb/conformance compares every response with
// DynamoDB Local's. Where Local and the DynamoDB documentation agree, or the
// documentation is silent, the engine answers as Local does (for example:
// ConsumedCapacity without ReadCapacityUnits/WriteCapacityUnits, a
// BillingModeSummary only for on-demand tables, an update's run-time type
// error in a transaction failing the request rather than cancelling it).
//
// # Storage
//
// One bbolt file, dir/ddb.bolt, or the same file format in memory
// (OpenMemory); package storage describes its layout, its durability (one
// bbolt transaction per write request, group commit, fsync before an
// acknowledgement) and its upgrades. crash_test.go kills a writer process
// and checks what survived; since a kill keeps the page cache,
// syncorder_test.go checks the rest of what a power cut would keep, by
// tracing the system calls with strace: an acknowledgement follows an
// fdatasync of every page written before it, and an upgrade syncs its new
// file before the rename and the directory after it.
//
// # Divergences from DynamoDB
//
//   - Tables and indexes are ACTIVE as soon as the call returns; a GSI
//     created by UpdateTable is backfilled in the same transaction.
//     Streams are ENABLED as soon as the call returns, and switched off
//     (DISABLED) at once.
//   - Stream records are numbered per stream; a shard is closed and
//     followed by a child at the first write after it has been open for
//     Options.StreamShardDuration (four hours). The sweeper trims records
//     after StreamRetention (24 hours), DynamoDB "about" then. GetRecords'
//     1 MB counts the records' SizeBytes, the same on the HTTP path and
//     in process (DynamoDB does not say what it counts).
//   - ItemCount, TableSizeBytes and IndexSizeBytes are exact at all times
//     (DynamoDB refreshes them about every six hours).
//   - Scan returns items in key order (partition key, then sort key),
//     where DynamoDB uses hash order; Segment k of TotalSegments holds the
//     partitions whose encoded partition key hashes (FNV-1a) to k.
//   - BatchWriteItem applies all its requests in one transaction and never
//     returns UnprocessedItems; BatchGetItem returns UnprocessedKeys only
//     for the 16 MB response limit.
//   - Expired items (see package engine) are never returned, where DynamoDB may
//     return them until its background deletion catches up; the engine's
//     sweeper deletes them within about Options.TTLSweepInterval (DynamoDB:
//     within a few days).
//   - Every read is strongly consistent; ConsistentRead only changes the
//     capacity reported.
//   - DeleteTable answers TableStatus DELETING, as DynamoDB documents
//     (DynamoDB Local answers ACTIVE).
//   - Request signatures are not verified.
//
// # Serving HTTP
//
// ServeHTTP refuses a body over MaxRequestBytes (16 MiB, DynamoDB's limit)
// with HTTP 413 before reading it, holds the bodies of all requests in
// flight within Options.RequestMemory (a request waits for its share), and
// refuses text that is not UTF-8 (bytes, or a lone surrogate escape) with
// SerializationException. NewServer wraps the engine in an http.Server with
// header, body, write and idle timeouts (DefaultServerOptions).
package ddb
