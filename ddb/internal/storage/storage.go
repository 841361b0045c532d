package storage

import (
	"encoding/json"
	"fmt"

	gojson "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

// FormatVersion is the on-disk format version stored in the meta bucket.
// Open upgrades files of versions 1, 2 and 3 (upgrade.go) and refuses any
// other version (ErrFormatVersion).
const FormatVersion = "4"

// Earlier format versions. Version 1 had no expiry buckets; version 2 had no
// streams bucket. An engine that predates streams must not write to a file
// whose tables have streams, as it would leave their records out: the
// version number keeps it out. Versions 1 to 3 stored items, index entries
// and stream records as JSON (formatv4.go).
const (
	FormatV1 = "1"
	FormatV2 = "2"
	FormatV3 = "3"
)

// Bucket and key names of the on-disk layout; doc.go describes it.
var (
	BucketMeta   = []byte("meta")
	BucketTables = []byte("tables")
	KeyFormat    = []byte("format")
	keyStats     = []byte("stats")
	BucketItems  = []byte("items")
	// BucketExpiry is the expiry index of a table with TTL enabled
	// (expiry.go), nested in the table bucket like items.
	BucketExpiry = []byte("expiry")
)

// tableBucketPrefix begins the name of every table's bucket.
const tableBucketPrefix = "t:"

// TableBucketName is the top-level bucket holding one table's data.
func TableBucketName(table string) []byte { return []byte(tableBucketPrefix + table) }

// indexBucketPrefix begins the name of every index's bucket.
const indexBucketPrefix = "i:"

// IndexBucketName is the nested bucket (inside the table bucket) holding an
// index's entries.
func IndexBucketName(index string) []byte { return []byte(indexBucketPrefix + index) }

// initStorage creates the fixed buckets of a new file, and checks the format
// version of an existing one. Open has upgraded a file of an older version
// before (upgrade.go); an in-memory file is always new.
func initStorage(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(BucketMeta)
	if err != nil {
		return fmt.Errorf("ddb: init: %w", err)
	}
	switch v := meta.Get(KeyFormat); {
	case v == nil:
		if err := meta.Put(KeyFormat, []byte(FormatVersion)); err != nil {
			return fmt.Errorf("ddb: init: %w", err)
		}
	case string(v) != FormatVersion:
		return fmt.Errorf("%w: file has %q, engine reads %q", ErrFormatVersion, v, FormatVersion)
	}
	// A file upgraded from version 1 or 2 lacks the streams bucket.
	for _, name := range [][]byte{BucketTables, BucketStreams} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("ddb: init: %w", err)
		}
	}
	return nil
}

// TableStats are the counters kept per table and per index, updated in the
// transaction of every write so DescribeTable reads them without a scan.
type TableStats struct {
	ItemCount int64                 `json:"items"`
	SizeBytes int64                 `json:"bytes"`
	Indexes   map[string]IndexStats `json:"indexes,omitempty"`
}

// IndexStats are the counters of one secondary index.
type IndexStats struct {
	ItemCount int64 `json:"items"`
	SizeBytes int64 `json:"bytes"`
}

// LoadTable reads a table's metadata; nil when the table does not exist.
func LoadTable(tx *bolt.Tx, name string) (*TableMeta, error) {
	raw := tx.Bucket(BucketTables).Get([]byte(name))
	if raw == nil {
		return nil, nil
	}
	var m TableMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("ddb: corrupt metadata of table %s: %w", name, err)
	}
	return &m, nil
}

// SaveTable writes a table's metadata.
func SaveTable(tx *bolt.Tx, m *TableMeta) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return tx.Bucket(BucketTables).Put([]byte(m.Name), raw)
}

// LoadStats reads a table's counters from its bucket. Every write reads
// and writes them, hence go-json, several times faster than encoding/json
// here and writing the same JSON.
func LoadStats(tb *bolt.Bucket) (TableStats, error) {
	var s TableStats
	if raw := tb.Get(keyStats); raw != nil {
		if err := gojson.Unmarshal(raw, &s); err != nil {
			return s, fmt.Errorf("ddb: corrupt table stats: %w", err)
		}
	}
	if s.Indexes == nil {
		s.Indexes = map[string]IndexStats{}
	}
	return s, nil
}

// SaveStats writes a table's counters.
func SaveStats(tb *bolt.Bucket, s TableStats) error {
	raw, err := gojson.Marshal(s)
	if err != nil {
		return err
	}
	return tb.Put(keyStats, raw)
}

// LoadTableAndStats loads a table's metadata and counters; the metadata is
// nil when there is no such table.
func LoadTableAndStats(tx *bolt.Tx, name string) (*TableMeta, TableStats, error) {
	m, err := LoadTable(tx, name)
	if err != nil || m == nil {
		return nil, TableStats{}, err
	}
	st, err := LoadStats(tx.Bucket(TableBucketName(name)))
	return m, st, err
}
