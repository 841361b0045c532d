package storage

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// TableTx is one table inside a bbolt transaction: its metadata, buckets and
// counters. It is only valid for the life of the transaction. Writers call
// Put and Remove, which maintain the index entries and counters, then Flush
// to store the counters.
type TableTx struct {
	s     *Store
	tx    *bolt.Tx
	M     *TableMeta   // shared and read-only (see metaCache)
	B     *bolt.Bucket // the table bucket
	Items *bolt.Bucket
	Stats TableStats // loaded only in read-write transactions
	Dirty bool
	// stream is the table's stream, opened by the first write that records
	// a change (streamlog.go).
	stream *StreamLog
	// ByService marks writes the service makes itself (TTL deletions),
	// which stream records attribute to it.
	ByService bool
}

// OpenTableTx returns the named table in tx, or nil when there is none.
func (s *Store) OpenTableTx(tx *bolt.Tx, name string) (*TableTx, error) {
	m, err := s.LoadTableShared(tx, name)
	if err != nil || m == nil {
		return nil, err
	}
	b := tx.Bucket(TableBucketName(name))
	if b == nil {
		return nil, fmt.Errorf("ddb: table %s has no bucket", name)
	}
	t := &TableTx{s: s, tx: tx, M: m, B: b, Items: b.Bucket(BucketItems)}
	if tx.Writable() {
		// Only writers maintain the counters; reads skip decoding them.
		if t.Stats, err = LoadStats(b); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// GetRaw returns the stored item at key k regardless of TTL, or nil.
func (t *TableTx) GetRaw(k []byte) (attr.Item, error) {
	it, _, err := t.GetSized(k)
	return it, err
}

// GetSized is GetRaw with the item's size, recorded in its stored value (0
// when there is no item): writers need it, and it spares sizing the item.
func (t *TableTx) GetSized(k []byte) (attr.Item, int, error) {
	v := t.Items.Get(k)
	if v == nil {
		return nil, 0, nil
	}
	size, err := StoredSize(v)
	if err != nil {
		return nil, 0, err
	}
	it, err := t.M.DecodeStored(k, v)
	return it, size, err
}

// Live returns it unless it is expired.
func (t *TableTx) Live(it attr.Item) attr.Item {
	if it == nil || t.Expired(it) {
		return nil
	}
	return it
}

// GetLive returns the live item at key k, its response form and its size;
// raw is nil when the item is absent or expired. Unless decode, raw is the
// item's response JSON, written straight from the stored form, and the item
// is not decoded (it is nil; a TTL check reads the TTL attribute alone).
// With decode, the caller projects the item and raw is empty. The size is
// the one recorded in the stored form.
func (t *TableTx) GetLive(k []byte, decode bool) (it attr.Item, raw *StoredItem, size int, err error) {
	v := t.Items.Get(k)
	if v == nil {
		return nil, nil, 0, nil
	}
	if decode {
		if it, err = t.M.DecodeStored(k, v); err != nil || t.Expired(it) {
			return nil, nil, 0, err
		}
		size, err = StoredSize(v)
		return it, &StoredItem{}, size, err
	}
	if live, err := t.StoredLive(k, v); err != nil || !live {
		return nil, nil, 0, err
	}
	raw, size, err = t.M.Stored(k, v)
	return nil, raw, size, err
}

// WriteUnits are the write capacity units of one item write: the table's and
// each index's.
type WriteUnits struct {
	Table   float64
	Indexes map[string]float64
}

// Put stores item it at key k, replacing the stored item (old, which may be
// expired; nil when absent), and maintains index entries, the expiry entry
// and counters. The returned units follow DynamoDB: the larger of the old
// and new item sizes, plus per index one write per entry removed or added
// (an entry whose key is unchanged counts once).
func (t *TableTx) Put(k []byte, old, it attr.Item) (WriteUnits, error) {
	return t.PutSized(k, old, SizeOf(old), it, attr.Size(it))
}

// KeepsReplaced reports whether Put and Remove read the item they replace
// for more than its size: for the table's stream records, its expiry index
// or its secondary indexes. When they do not, a write may build its new
// item out of the old one.
func (t *TableTx) KeepsReplaced() bool {
	return t.M.Stream != nil || t.TTLEnabled() || len(t.M.Indexes) > 0
}

// PutSized is Put with the sizes of old (0 when nil) and it known: a write
// has sized its new item to check it, and read the old one's size with it
// (GetSized).
func (t *TableTx) PutSized(k []byte, old attr.Item, oldSize int, it attr.Item, size int) (WriteUnits, error) {
	raw := t.M.encodeStored(it, size)
	if err := t.Items.Put(k, raw); err != nil {
		return WriteUnits{}, err
	}
	if err := t.recordChange(itemChange{old: old, new: it, newRaw: raw, oldSize: oldSize, newSize: size}); err != nil {
		return WriteUnits{}, err
	}
	if err := t.updateExpiry(k, old, it); err != nil {
		return WriteUnits{}, err
	}
	if old != nil {
		t.Stats.SizeBytes -= int64(oldSize)
	} else {
		t.Stats.ItemCount++
	}
	t.Stats.SizeBytes += int64(size)
	// Most updates keep an item's size (a counter's next value, a flag
	// turned): the counters are then stored again only if an index's
	// counters change.
	t.Dirty = t.Dirty || old == nil || size != oldSize
	u := WriteUnits{Table: float64(attr.WriteUnits(max(size, oldSize)))}
	if err := t.updateIndexes(old, it, &u); err != nil {
		return WriteUnits{}, err
	}
	return u, nil
}

// Remove deletes the stored item old at key k, its index entries and its
// expiry entry. Deleting an absent item (old == nil) costs one unit and
// changes nothing.
func (t *TableTx) Remove(k []byte, old attr.Item) (WriteUnits, error) {
	if old == nil {
		return WriteUnits{Table: 1}, nil
	}
	if err := t.Items.Delete(k); err != nil {
		return WriteUnits{}, err
	}
	size := attr.Size(old)
	if err := t.recordChange(itemChange{old: old, oldSize: size}); err != nil {
		return WriteUnits{}, err
	}
	if err := t.updateExpiry(k, old, nil); err != nil {
		return WriteUnits{}, err
	}
	t.Stats.ItemCount--
	t.Stats.SizeBytes -= int64(size)
	t.Dirty = true
	u := WriteUnits{Table: float64(attr.WriteUnits(size))}
	if err := t.updateIndexes(old, nil, &u); err != nil {
		return WriteUnits{}, err
	}
	return u, nil
}

// updateIndexes replaces the index entries of old (may be nil) by those of it
// (may be nil), adding their write units to u.
func (t *TableTx) updateIndexes(old, it attr.Item, u *WriteUnits) error {
	for i := range t.M.Indexes {
		ix := &t.M.Indexes[i]
		ib := t.B.Bucket(IndexBucketName(ix.Name))
		st := t.Stats.Indexes[ix.Name]
		var oldKey, newKey []byte
		if old != nil {
			oldKey = t.M.IndexKeyBytes(ix, old)
		}
		if it != nil {
			newKey = t.M.IndexKeyBytes(ix, it)
		}
		units := 0
		sameKey := oldKey != nil && newKey != nil && string(newKey) == string(oldKey)
		if oldKey != nil {
			p := attr.Size(t.M.Project(ix, old))
			if !sameKey { // else the Put below replaces the entry
				if err := ib.Delete(oldKey); err != nil {
					return err
				}
				units += attr.WriteUnits(p)
			}
			st.ItemCount--
			st.SizeBytes -= int64(p)
		}
		if newKey != nil {
			proj := t.M.Project(ix, it)
			p := attr.Size(proj)
			v := t.M.IndexEntryValue(ix, proj, p)
			// An entry whose key and (empty) value stay the same is left
			// alone: an ALL index entry changes only with its key.
			if !sameKey || v != nil {
				if err := ib.Put(newKey, v); err != nil {
					return err
				}
			}
			st.ItemCount++
			st.SizeBytes += int64(p)
			units += attr.WriteUnits(p)
		}
		if st != t.Stats.Indexes[ix.Name] {
			t.Stats.Indexes[ix.Name] = st
			t.Dirty = true
		}
		if units > 0 {
			if u.Indexes == nil {
				u.Indexes = map[string]float64{}
			}
			u.Indexes[ix.Name] += float64(units)
		}
	}
	return nil
}

// Flush stores the counters if they changed.
func (t *TableTx) Flush() error {
	if !t.Dirty {
		return nil
	}
	t.Dirty = false
	return SaveStats(t.B, t.Stats)
}

// Backfill builds the entries of index ix (newly added to t.M) from every
// stored item, in the current transaction.
func (t *TableTx) Backfill(ix *IndexMeta) error {
	ib, err := t.B.CreateBucketIfNotExists(IndexBucketName(ix.Name))
	if err != nil {
		return err
	}
	var st IndexStats
	c := t.Items.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		it, err := t.M.DecodeStored(k, v)
		if err != nil {
			return err
		}
		ik := t.M.IndexKeyBytes(ix, it)
		if ik == nil {
			continue
		}
		proj := t.M.Project(ix, it)
		size := attr.Size(proj)
		if err := ib.Put(ik, t.M.IndexEntryValue(ix, proj, size)); err != nil {
			return err
		}
		st.ItemCount++
		st.SizeBytes += int64(size)
	}
	t.Stats.Indexes[ix.Name] = st
	t.Dirty = true
	return nil
}
