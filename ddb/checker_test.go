package ddb

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// checkInvariants verifies the storage invariants of every table:
//
//   - every item is stored under the encoding of its own key;
//   - every index entry points at an existing item whose attributes produce
//     exactly that entry (key and projected value), and every item has the
//     entries its attributes produce;
//   - the stored counters (items and bytes, per table and per index) match
//     the data;
//   - every table bucket has metadata and every index a bucket;
//   - every stream is well formed, and agrees with its table (checkStream).
//
// It returns the first violation found.
func checkInvariants(e *Engine) error {
	return e.core.View(func(tx *bolt.Tx) error {
		tables := map[string]bool{}
		err := tx.Bucket(storage.BucketTables).ForEach(func(name, _ []byte) error {
			tables[string(name)] = true
			return checkTable(e, tx, string(name))
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(storage.BucketStreams).ForEach(func(name, _ []byte) error {
			if err := checkStream(e, tx, name); err != nil {
				return fmt.Errorf("stream %s: %w", name, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			if bytes.HasPrefix(name, []byte("t:")) && !tables[string(name[2:])] {
				return fmt.Errorf("bucket %q has no table metadata", name)
			}
			return nil
		})
	})
}

// checkTable verifies one table.
func checkTable(e *Engine, tx *bolt.Tx, name string) error {
	t, err := e.core.OpenTable(tx, name)
	if err != nil {
		return fmt.Errorf("table %s: %w", name, err)
	}
	if t.Stats, err = storage.LoadStats(t.B); err != nil { // read transactions skip them
		return fmt.Errorf("table %s: %w", name, err)
	}
	want := map[string]map[string][]byte{} // index -> entry key -> value
	wantStats := map[string]storage.IndexStats{}
	for _, ix := range t.M.Indexes {
		want[ix.Name] = map[string][]byte{}
		if t.B.Bucket(storage.IndexBucketName(ix.Name)) == nil {
			return fmt.Errorf("table %s: index %s has no bucket", name, ix.Name)
		}
	}
	var count, size int64
	err = t.Items.ForEach(func(k, v []byte) error {
		it, err := t.M.DecodeStored(k, v)
		if err != nil {
			return fmt.Errorf("table %s: item %x: %w", name, k, err)
		}
		if size, err := storage.StoredSize(v); err != nil || size != attr.Size(it) {
			return fmt.Errorf("table %s: item %x records size %d (%v), is %d", name, k, size, err, attr.Size(it))
		}
		stored := attr.Item{}
		if _, err := attr.DecodeBinary(v, stored); err != nil {
			return fmt.Errorf("table %s: item %x: %w", name, k, err)
		}
		for _, key := range t.M.KeyNames() {
			if _, ok := stored[key]; ok {
				return fmt.Errorf("table %s: item %x stores its key attribute %s again", name, k, key)
			}
		}
		if _, err := engine.ItemKey(t.M, it); err != nil {
			return fmt.Errorf("table %s: item %x has invalid key: %w", name, k, err)
		}
		if !bytes.Equal(t.M.TableKeyBytes(it), k) {
			return fmt.Errorf("table %s: item stored under %x, its key encodes to %x", name, k, t.M.TableKeyBytes(it))
		}
		count++
		size += int64(attr.Size(it))
		for i := range t.M.Indexes {
			ix := &t.M.Indexes[i]
			ik := t.M.IndexKeyBytes(ix, it)
			if ik == nil {
				continue
			}
			proj := t.M.Project(ix, it)
			want[ix.Name][string(ik)] = t.M.IndexEntryValue(ix, proj, attr.Size(proj))
			st := wantStats[ix.Name]
			st.ItemCount++
			st.SizeBytes += int64(attr.Size(proj))
			wantStats[ix.Name] = st
		}
		return nil
	})
	if err != nil {
		return err
	}
	if count != t.Stats.ItemCount || size != t.Stats.SizeBytes {
		return fmt.Errorf("table %s: stats say %d items %d bytes, data has %d items %d bytes", name, t.Stats.ItemCount, t.Stats.SizeBytes, count, size)
	}
	for _, ix := range t.M.Indexes {
		got := 0
		err := t.B.Bucket(storage.IndexBucketName(ix.Name)).ForEach(func(k, v []byte) error {
			got++
			w, ok := want[ix.Name][string(k)]
			if !ok {
				return fmt.Errorf("table %s index %s: entry %x matches no item", name, ix.Name, k)
			}
			if !bytes.Equal(w, v) {
				return fmt.Errorf("table %s index %s: entry %x holds %x, item projects %x", name, ix.Name, k, v, w)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if got != len(want[ix.Name]) {
			return fmt.Errorf("table %s index %s: %d entries, items produce %d", name, ix.Name, got, len(want[ix.Name]))
		}
		if t.Stats.Indexes[ix.Name] != wantStats[ix.Name] {
			return fmt.Errorf("table %s index %s: stats %+v, data %+v", name, ix.Name, t.Stats.Indexes[ix.Name], wantStats[ix.Name])
		}
	}
	if err := checkExpiry(t); err != nil {
		return fmt.Errorf("table %s: expiry index: %w", name, err)
	}
	return nil
}

// checkExpiry verifies the expiry bucket of a table: absent when TTL is
// disabled; else one entry, with an empty value, per item whose TTL
// attribute is a Number, and nothing else.
func checkExpiry(t *storage.TableTx) error {
	xb := t.B.Bucket(storage.BucketExpiry)
	if !t.TTLEnabled() {
		if xb != nil {
			return fmt.Errorf("TTL disabled, yet an expiry bucket")
		}
		return nil
	}
	if xb == nil {
		return fmt.Errorf("TTL enabled, no expiry bucket")
	}
	want := map[string]bool{}
	err := t.Items.ForEach(func(k, v []byte) error {
		it, err := t.M.DecodeStored(k, v)
		if err != nil {
			return err
		}
		if ev := storage.ExpiryValue(it, t.M.TTL.AttributeName); ev != nil {
			want[string(append(ev, k...))] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = xb.ForEach(func(k, v []byte) error {
		if len(v) != 0 {
			return fmt.Errorf("entry %x has value %x", k, v)
		}
		if !want[string(k)] {
			return fmt.Errorf("entry %x matches no item", k)
		}
		delete(want, string(k))
		return nil
	})
	if err != nil {
		return err
	}
	for k := range want {
		return fmt.Errorf("no entry %x", k)
	}
	return nil
}
