// Package storage is the engine's data file: one bbolt file and its
// layout. It opens the file (or the same format in memory), upgrades files
// of earlier formats, encodes items, index entries and stream records,
// and is the only code that writes them (TableTx). It knows nothing of
// requests, answers or JSON: the operations (package engine) check what
// requests hold and render what storage reads.
//
// # Files
//
//	store.go                 Store: the file opened, its transactions, Close;
//	                         StoreOptions
//	storage.go               bucket names, initialisation, table metadata
//	                         and counters as stored
//	table.go, tablecache.go  table metadata (TableMeta) and its cache
//	tabletx.go               TableTx: one table in a bbolt transaction, the
//	                         only code that writes items and index entries
//	itemcodec.go, keys.go    stored items and index entries; key encoding
//	storeditem.go            a read item as stored, handed to the front-ends
//	                         undecoded
//	ttl.go, expiry.go        whether an item is expired; the expiry bucket
//	                         that orders items by TTL value
//	streammeta.go            a stream's metadata as stored
//	streamlog.go             a stream's buckets: shards, records, appends
//	streamrecord.go          a record's stored form (StoredRecord)
//	tags.go                  a table's tags as stored
//	groupcommit.go           writes that share one commit
//	upgrade.go, formatv4.go  the upgrade of JSON storage (formats 1-3):
//	                         a new file written beside the old one in
//	                         batches, entry by entry converted, renamed
//	                         over it
//	madvise_*.go             giving back the pages an upgrade has read
//	memfile_*.go             the in-memory file of OpenMemoryStore
//	diskusage.go             where a file's bytes go (DiskUsage)
//	errors.go                the sentinel errors of Open
//
// # Durability
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
// request is one read transaction. Package ddb's crash_test.go kills a writer process and
// checks what survived; since a kill keeps the page cache, its syncorder_test.go
// checks the rest of what a power cut would keep, by tracing the system calls
// with strace: an acknowledgement follows an fdatasync of every page written
// before it, and an upgrade syncs its new file before the rename and the
// directory after it.
//
// Every item write goes through TableTx.Put or TableTx.Remove (tabletx.go),
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
// TestDiskPerItem checks it, and quickphotos dynamodb --disk-usage
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
//	                  the sweeper drops generations whole (package engine's engine/tokens.go)
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
// the entries that are due instead of the whole table (package engine's ttl.go; expiry.go);
// UpdateTimeToLive builds it from the items when it enables TTL and drops it
// when it disables TTL. Format "1" was the same layout without it: the
// upgrade of a "1" file builds the expiry bucket of every table with TTL
// enabled as it copies the table's items.
package storage
