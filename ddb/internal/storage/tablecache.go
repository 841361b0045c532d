package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// metaCache keeps the decoded metadata of each table next to the stored
// bytes it was decoded from. Every data-plane request opens its table, and
// decoding the metadata JSON each time was a visible share of a GetItem.
// A cached entry is used only when the stored bytes in the request's own
// transaction are identical, so it can never be stale; the decoded
// *tableMeta it returns is shared and must not be modified (UpdateTable
// works on a copy decoded by loadTable).
type metaCache struct {
	mu      sync.RWMutex
	entries map[string]cachedMeta
}

// cachedMeta is one table's stored metadata and its decoding.
type cachedMeta struct {
	raw []byte
	m   *TableMeta
}

// LoadTableShared is loadTable through the cache: the result is shared
// and read-only.
func (s *Store) LoadTableShared(tx *bolt.Tx, name string) (*TableMeta, error) {
	raw := tx.Bucket(BucketTables).Get([]byte(name))
	if raw == nil {
		return nil, nil
	}
	c := &s.metas
	c.mu.RLock()
	hit, ok := c.entries[name]
	c.mu.RUnlock()
	if ok && bytes.Equal(hit.raw, raw) {
		return hit.m, nil
	}
	var m TableMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("ddb: corrupt metadata of table %s: %w", name, err)
	}
	m.keys = m.KeyNames()
	m.keyParts = m.TableKeyParts()
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]cachedMeta{}
	}
	// bbolt's bytes are only valid inside the transaction: keep a copy.
	c.entries[name] = cachedMeta{raw: bytes.Clone(raw), m: &m}
	c.mu.Unlock()
	return &m, nil
}
