// Package ddb is an embedded, durable, DynamoDB-compatible database engine
// in pure Go. It speaks the DynamoDB JSON 1.0 protocol as an http.Handler,
// so the unchanged aws-sdk-go-v2 DynamoDB client works against it, either
// over HTTP or in-process through Engine.HTTPClient (no socket). In the same
// process, Engine.API is faster still: it takes and returns the SDK's typed
// inputs, outputs and errors with no JSON, HTTP or signing (sdk*.go), and
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
// package ddb/expr. This package holds storage, table metadata, the
// operations and the protocol, one file per concept.
//
// # One core, three front-ends
//
// An operation decodes its request into a typed input, runs on it and
// answers with a typed output (output.go): every operation, data and table
// operations alike (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan,
// BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems,
// CreateTable, DescribeTable, UpdateTable, DeleteTable, ListTables,
// UpdateTimeToLive, DescribeTimeToLive, the tag operations, the PartiQL
// operations and the Streams API). Each front-end renders that one output
// its own way, none through another's form: the JSON protocol writes it
// (appendJSON, responsejson.go, byte for byte what json.Marshal gives the
// response map the protocol documents); the typed SDK API (Engine.API,
// sdk*.go) converts it field by field into the SDK's output; PartiQL is
// the third front-end, over the other operations: a statement is
// translated into the equivalent request's typed input (partiqltranslate.go,
// partiqlinput.go), checked as that request's JSON decoding would check its
// values, run by the operation's run function, and its items and capacity
// read from the typed output (partiql.go). Items read from storage stay in
// their stored form (storedItem) until a front-end renders them, so neither
// path builds the other's values, and no answer is a map[string]any tree.
// Inside the process JSON is only what the wire or the file holds:
// requests decoded and responses written by the JSON front-end, error
// bodies, table metadata and ClientRequestTokens as stored, and PartiQL's
// NextToken (a key's JSON, in base64). The typed SDK API serves every
// operation but TransactGetItems.
//
// # Files
//
// Each operation has a file named for it (getitem.go, putitem.go,
// query.go, createtable.go, deletetable.go, …), which holds only what that
// operation alone uses; what several operations share lives in the file of
// its concept:
//
//	engine.go, storage.go    Open and Close; the bbolt layout and migrations
//	table.go, tablecache.go  table metadata, its validation, its cache
//	tabledescription.go      the TableDescription of every table operation
//	output.go                the typed outputs the front-ends render
//	tabletx.go               tableTx: one table in a bbolt transaction, the
//	                         only code that writes items and index entries
//	itemcodec.go, keys.go    stored items and index entries; key encoding
//	                         and Key parameters
//	storeditem.go            a read item as stored, handed to the
//	                         front-ends, which render it as JSON
//	                         (responsejson.go) or SDK values (sdkvalue.go)
//	upgrade.go, formatv4.go  the upgrade of JSON storage (formats 1-3):
//	                         a new file written beside the old one in
//	                         batches, entry by entry converted, renamed
//	                         over it
//	madvise_*.go             giving back the pages an upgrade has read
//	diskusage.go             where a file's bytes go (DiskUsage)
//	read.go                  what GetItem, Query, Scan, BatchGetItem and
//	                         TransactGetItems share
//	queryscan.go, page.go    what Query and Scan share; reading one page
//	write.go                 the write path of PutItem, UpdateItem and
//	                         DeleteItem, the checks batch and transaction
//	                         writes share with it
//	condition.go             condition evaluation and its failure
//	transaction.go           what both transactions (and PartiQL's) share
//	exprs.go, exprcache.go   expressions; parsed ones kept
//	legacyparams.go          DynamoDB's legacy (pre-expression)
//	                         parameters, translated into expressions
//	capacity.go              ConsumedCapacity
//	handler.go, errors.go    dispatch by X-Amz-Target; exceptions
//	shape.go, requestbody.go request shapes; bodies within RequestMemory
//	responsejson.go          the JSON front-end's response encoding,
//	                         including stored items and stream records
//	                         rendered from their stored form (storage
//	                         only decodes; it never encodes JSON)
//	partiql*.go              PartiQL: statements planned, translated into
//	                         typed inputs, run and answered
//	sdk*.go                  the typed SDK API (Engine.API, type API): the
//	                         SDK's typed inputs, outputs and errors,
//	                         converted without JSON to and from the
//	                         operations' shared run functions; sdkerror.go
//	                         the errors of both in-process APIs
//	sdkstreams.go            the typed Streams SDK API (Engine.StreamsAPI):
//	                         the same for the dynamodbstreams SDK, records
//	                         built from their stored form
//	stream.go                streams switched on and off; their metadata
//	streamlog.go             a stream's buckets: shards, records, appends
//	streamrecord.go          a record's stored form (storedRecord), rendered
//	                         as JSON by responsejson.go or as SDK types
//	                         by sdkstreams.go
//	streamapi.go             the Streams API's operations, each a decoder
//	                         and a run function both paths share
//	streamiterator.go        shard iterators; streamtrim.go trimming
//
// # Operations
//
// Control plane: CreateTable, DescribeTable, ListTables, DeleteTable,
// UpdateTable (billing, throughput, GSI create with backfill and delete),
// UpdateTimeToLive, DescribeTimeToLive. Data plane: GetItem, PutItem,
// UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem,
// TransactWriteItems, TransactGetItems. DynamoDB Streams (stream.go): a
// StreamSpecification on CreateTable or UpdateTable, and the Streams API
// (ListStreams, DescribeStream, GetShardIterator, GetRecords) on the same
// endpoint under the X-Amz-Target prefix DynamoDBStreams_20120810, as
// DynamoDB Local serves it; the SDKs' dynamodbstreams clients work over
// HTTP or in-process through HTTPClient, and Engine.StreamsAPI serves it in
// process with the SDK's types (sdkstreams.go). PartiQL (partiql.go):
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, parsed
// by package ddb/partiql and run as the equivalent DynamoDB requests
// (partiqltranslate.go). Tags (tags.go): TagResource,
// UntagResource, ListTagsOfResource and Tags on CreateTable. Legacy parameters (Expected,
// AttributesToGet, AttributeUpdates, KeyConditions, QueryFilter,
// ScanFilter, ConditionalOperator) are translated into the equivalent
// expressions (legacyparams.go). Elsewhere, what earlier versions of the
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
// One bbolt file, dir/ddb.bolt (OpenMemory keeps the same file in an
// anonymous in-memory file, never fsynced and gone after Close, like DynamoDB
// Local's -inMemory). bbolt gives serializable single-writer
// transactions that fsync on commit, and read transactions that see a
// consistent snapshot; pages are read from disk on demand, so tables may be
// larger than memory and Open reads almost nothing. Every write request
// (including a whole BatchWriteItem or TransactWriteItems) runs inside one
// bbolt read-write transaction, so an item, its index entries and the table
// counters change atomically, and an acknowledged write is on disk (unless
// Options.NoSync). Item writes (PutItem, UpdateItem, DeleteItem,
// BatchWriteItem, TransactWriteItems) that arrive while a commit is in
// progress share the next one (group commit, groupcommit.go): they run one
// after the other in that transaction, and each is acknowledged once it is
// durable; table operations and the TTL sweeper commit alone. Every read
// request is one read transaction. crash_test.go kills a writer process and
// checks what survived; since a kill keeps the page cache, syncorder_test.go
// checks the rest of what a power cut would keep, by tracing the system calls
// with strace: an acknowledgement follows an fdatasync of every page written
// before it, and an upgrade syncs its new file before the rename and the
// directory after it.
//
// Every item write goes through tableTx.put or tableTx.remove (tabletx.go),
// which also append the change to the table's stream, if it has one
// (streamlog.go): a record is written in its write's transaction, so it
// exists exactly when the write committed, in commit order, and a write
// that changes nothing leaves none.
//
// Items, index entries and stream records are stored compactly, holding no
// byte that a key or another entry already holds (itemcodec.go,
// streamrecord.go): items in attr's binary codec without their key
// attributes, index entries of ALL and KEYS_ONLY projections as keys alone.
// For the sample dataset the table and its index take less than DynamoDB
// bills for them (item size plus 100 bytes, per item and per index entry);
// TestDiskPerItem checks it, and `quickphotos dynamodb --disk-usage`
// (Engine.DiskUsage) shows where a file's bytes go. Reads that return
// whole items write their response JSON straight from the stored form,
// without building the item.
//
// Layout (bucket names in quotes):
//
//	"meta"            "format" -> FormatVersion ("4"); Open upgrades files
//	                  of "1" to "3" into a new file (upgrade.go) and refuses
//	                  others
//	"tables"          table name -> JSON table metadata (key schema,
//	                  attribute definitions, billing, indexes, TTL)
//	"tokengens"       one bucket per ten minutes of ClientRequestTokens
//	                  (generation number, big-endian), each holding
//	                  token -> {request hash and its form, time, response};
//	                  the sweeper drops generations whole (tokens.go)
//	"tokens"          tokens of earlier versions, in one bucket, until
//	                  they expire
//	"streams"         one bucket per stream, "<table>/<label>", holding
//	                  its "meta", its "shards" (index -> JSON) and its
//	                  "records" (sequence number -> write time, then the
//	                  record in its stored form); streamlog.go
//	"t:<table>"       one bucket per table, holding:
//	    "stats"       JSON counters: items and bytes of the table and of
//	                  each index (what DescribeTable reports)
//	    "items"       key(item) -> the item's attributes other than its
//	                  keys, binary (attr.AppendBinary), its size in front
//	    "i:<index>"   one bucket per secondary index (GSI or LSI):
//	                  key(index hash, index range, the table keys not
//	                  among them) -> nothing for ALL (the item is the
//	                  table's) and KEYS_ONLY projections, the projected
//	                  non-key attributes, binary, for INCLUDE
//	    "expiry"      only while TTL is enabled: key(TTL value, table
//	                  key) -> empty, for each item whose TTL attribute is
//	                  a Number
//
// key(…) concatenates attr.AppendKey encodings, which are order-preserving
// and self-delimiting: the entries of one partition are contiguous and
// ordered by sort key, so a Query is one cursor range and
// ExclusiveStartKey is a Seek. Appending the table keys the index key lacks
// makes index entries unique, and every entry key holds all the key
// attributes of its item. An item lacking an index key attribute (or holding
// one of another type) has no entry in that index (sparse indexes).
//
// The expiry bucket orders items by TTL value, so the TTL sweeper reads only
// the entries that are due instead of the whole table (ttl.go, expiry.go);
// UpdateTimeToLive builds it from the items when it enables TTL and drops it
// when it disables TTL. Format "1" was the same layout without it: the
// upgrade of a "1" file builds the expiry bucket of every table with TTL
// enabled as it copies the table's items.
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
//   - Expired items (see ttl.go) are never returned, where DynamoDB may
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
//
// # Errors
//
// Protocol errors are *Error values with the exception name and DynamoDB's
// message; ServeHTTP writes them as {"__type", "message"} with status 400,
// 413 for a body over the limit (its __type in the com.amazon.coral.service
// namespace, as AWS's front end answers it), or 500 for InternalServerError.
// Query and Scan stop reading once the request's context ends (its client
// went away); such a request is answered 499 RequestCanceled, which is no
// DynamoDB exception and no server error, and the in-process transport
// returns the context's error, as a network client does. Open
// returns the sentinel errors ErrFormatVersion, ErrNotDir and ErrLocked;
// operations after Close fail with ErrClosed, reported to clients as an
// InternalServerError.
package ddb
