package storage

import (
	"bytes"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// The expiry index lets the TTL sweeper read only the items that are due,
// instead of the whole table on every sweep. A table with TTL enabled has an
// "expiry" bucket holding, for each item whose TTL attribute is a Number,
// the key AppendKey(TTL value) + table key, with an empty value. AppendKey
// is order-preserving and self-delimiting, so the entries are ordered by
// expiry time, and all entries due at time now lie between the encodings of
// now-ttlHorizon and now (see dueKeys). tableTx.put and tableTx.remove keep
// it exact, like the secondary indexes.

// ExpiryValue returns the AppendKey encoding of the value of attribute name
// (the TTL attribute) in item it, or nil when it (which may be nil) lacks
// the attribute or holds one that is not a Number: such items never
// expire, so they have no entry.
func ExpiryValue(it attr.Item, name string) []byte {
	v, ok := it[name]
	if !ok || v.Type != attr.TypeN {
		return nil
	}
	return attr.AppendKey(nil, v)
}

// ExpiryBucket returns the expiry bucket of a table with TTL enabled. Its
// absence would mean the index is no longer exact, so it is an error
// rather than something to create on the fly.
func (t *TableTx) ExpiryBucket() (*bolt.Bucket, error) {
	xb := t.B.Bucket(BucketExpiry)
	if xb == nil {
		return nil, fmt.Errorf("ddb: table %s has TTL enabled but no expiry bucket", t.M.Name)
	}
	return xb, nil
}

// updateExpiry replaces the expiry entry of the item at key k, old (may be
// nil), by that of it (may be nil). Most writes leave the TTL value alone;
// they then cost no write to the expiry bucket.
func (t *TableTx) updateExpiry(k []byte, old, it attr.Item) error {
	if !t.TTLEnabled() {
		return nil
	}
	name := t.M.TTL.AttributeName
	ov, nv := ExpiryValue(old, name), ExpiryValue(it, name)
	if bytes.Equal(ov, nv) {
		return nil
	}
	xb, err := t.ExpiryBucket()
	if err != nil {
		return err
	}
	if ov != nil {
		if err := xb.Delete(append(ov, k...)); err != nil {
			return err
		}
	}
	if nv != nil {
		return xb.Put(append(nv, k...), nil)
	}
	return nil
}

// BuildExpiry (re)creates the expiry bucket of table bucket tb from its
// stored items, for the TTL setting of m, when TTL is enabled. (The upgrade
// of a version 1 file builds it as it copies the items: upgrade.go.)
func BuildExpiry(tb *bolt.Bucket, m *TableMeta) error {
	if tb.Bucket(BucketExpiry) != nil {
		// Left from an earlier setting: entries for another attribute
		// would make the index inexact.
		if err := tb.DeleteBucket(BucketExpiry); err != nil {
			return err
		}
	}
	xb, err := tb.CreateBucket(BucketExpiry)
	if err != nil {
		return err
	}
	c := tb.Bucket(BucketItems).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		it, err := m.DecodeStored(k, v)
		if err != nil {
			return err
		}
		if ev := ExpiryValue(it, m.TTL.AttributeName); ev != nil {
			if err := xb.Put(append(ev, k...), nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// DueKeys returns the table keys of up to limit items of expiry bucket xb
// that are due at now: TTL value in [now-ttlHorizon, now], the range
// isExpired accepts. It also returns how many entries it visited, which is
// at most len(keys)+1: entries not due are never read, whatever the size of
// the table.
func DueKeys(xb *bolt.Bucket, now time.Time, limit int) (keys [][]byte, visited int, err error) {
	lo := attr.AppendKey(nil, attr.Int(now.Add(-TTLHorizon).Unix()))
	// An entry whose value equals now has the encoding of now as prefix
	// (encodings are self-delimiting); every later value sorts at or after
	// prefixEnd of it.
	end := PrefixEnd(attr.AppendKey(nil, attr.Int(now.Unix())))
	c := xb.Cursor()
	for k, _ := c.Seek(lo); k != nil && len(keys) < limit; k, _ = c.Next() {
		visited++
		if end != nil && bytes.Compare(k, end) >= 0 {
			break
		}
		_, ik, err := attr.DecodeKey(k, attr.TypeN)
		if err != nil {
			return nil, visited, fmt.Errorf("ddb: corrupt expiry entry %x: %w", k, err)
		}
		keys = append(keys, bytes.Clone(ik))
	}
	return keys, visited, nil
}
