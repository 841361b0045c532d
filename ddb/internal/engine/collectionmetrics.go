package engine

import (
	"bytes"
	"math"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Item collection metrics. A table with a local secondary index keeps each
// partition key's items and their LSI entries together, an item
// collection, limited to 10 GB; ReturnItemCollectionMetrics SIZE asks a
// write for the estimated size of the collection it wrote to. DynamoDB
// Local never returns them.

// hasLocalIndex reports whether the table has a local secondary index, the
// only tables with item collections.
func hasLocalIndex(m *storage.TableMeta) bool {
	for _, ix := range m.Indexes {
		if !ix.Global {
			return true
		}
	}
	return false
}

// itemCollectionMetrics returns the ItemCollectionMetrics of a write to the
// collection of item it (only its key attributes are read) when mode is
// SIZE and the table has one, else nil. The size is what the collection
// stores, its items and its LSI entries, read in the write's transaction;
// like DynamoDB it is given as a range of whole gigabytes around the size.
func itemCollectionMetrics(t *storage.TableTx, mode string, it attr.Item) *collectionMetrics {
	if mode != "SIZE" || !hasLocalIndex(t.M) {
		return nil
	}
	hash := storage.HashKey(t.M.KeySchema)
	v, ok := it[hash]
	if !ok {
		return nil
	}
	prefix := attr.AppendKey(nil, v)
	size := prefixBytes(t.Items, prefix)
	for _, ix := range t.M.Indexes {
		if !ix.Global {
			size += prefixBytes(t.B.Bucket(storage.IndexBucketName(ix.Name)), prefix)
		}
	}
	low := math.Floor(float64(size) / (1 << 30))
	return &collectionMetrics{Key: attr.Item{hash: v}, Low: low, High: low + 1}
}

// prefixBytes sums the stored bytes (keys and values) of the entries of b
// whose keys start with prefix.
func prefixBytes(b *bolt.Bucket, prefix []byte) int {
	n := 0
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		n += len(k) + len(v)
	}
	return n
}
