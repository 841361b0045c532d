package engine

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// maxPageBytes is the most item data one Query or Scan page reads (1 MB).
const maxPageBytes = 1 << 20

// CtxCheckEvery is how many entries a page read visits between checks of
// its request's context. A page holds at most 1 MB of items, but a
// segment's Scan, or a read past many expired items, may visit the whole
// table to fill it; a client that went away should not keep it reading.
// Checking every entry would cost more than the reading it saves.
const CtxCheckEvery = 256

// source is what a Query or Scan reads: the table's items or one index's
// entries (projected items).
type source struct {
	t  *storage.TableTx
	ix *storage.IndexMeta // nil for the table
	b  *bolt.Bucket
	// parts are the attributes held by the source's entry keys, tableParts
	// the table's (storage/itemcodec.go).
	parts, tableParts []storage.KeyPart
	tk                []byte // scratch: the table key of an index entry
}

// openSource returns the table or the named index, validating IndexName and
// ConsistentRead.
func openSource(t *storage.TableTx, indexName string, consistent bool) (*source, error) {
	tableParts := t.M.TableKeyParts()
	if indexName == "" {
		return &source{t: t, b: t.Items, parts: tableParts, tableParts: tableParts}, nil
	}
	ix := t.M.Index(indexName)
	if ix == nil {
		return nil, Validationf("The table does not have the specified index: %s", indexName)
	}
	if ix.Global && consistent {
		return nil, Validationf("Consistent reads are not supported on global secondary indexes")
	}
	return &source{t: t, ix: ix, b: t.B.Bucket(storage.IndexBucketName(ix.Name)), parts: t.M.IndexKeyParts(ix), tableParts: tableParts}, nil
}

// KeyNames returns the attributes of a LastEvaluatedKey from this source:
// the table keys, plus the index keys.
func (s *source) KeyNames() []string {
	names := s.t.M.KeyNames()
	if s.ix != nil {
		for _, n := range s.ix.KeyNamesList() {
			if n != names[0] && (len(names) < 2 || n != names[1]) {
				names = append(names, n)
			}
		}
	}
	return names
}

// entryKey returns the position of an item in this source.
func (s *source) entryKey(it attr.Item) []byte {
	if s.ix == nil {
		return s.t.M.TableKeyBytes(it)
	}
	return s.t.M.IndexKeyBytes(s.ix, it)
}

// startKey validates an ExclusiveStartKey and returns its position.
func (s *source) startKey(esk attr.Item) ([]byte, error) {
	if esk == nil {
		return nil, nil
	}
	names := s.KeyNames()
	if len(esk) != len(names) {
		return nil, Validationf("The provided starting key is invalid: The provided key element does not match the schema")
	}
	for _, n := range names {
		v, ok := esk[n]
		if !ok || v.Type.String() != s.t.M.AttrType(n) || storage.IsEmptyKey(v) {
			return nil, Validationf("The provided starting key is invalid: The provided key element does not match the schema")
		}
	}
	return s.entryKey(esk), nil
}

// lastKey returns the LastEvaluatedKey of an item read from this source.
func (s *source) lastKey(it attr.Item) attr.Item {
	out := attr.Item{}
	for _, n := range s.KeyNames() {
		out[n] = it[n]
	}
	return out
}

// pageSpec describes one page of reading.
type pageSpec struct {
	lo, hi  []byte // inclusive lower, exclusive upper bound; nil = open
	forward bool
	start   []byte // ExclusiveStartKey position, or nil
	limit   int    // 0 = none
	keep    func(k []byte) bool
	rawOnly bool // the response needs only the items' stored bytes (see source.rawOnly)
}

// page is what one Query or Scan page read.
type page struct {
	items []attr.Item // every live item read, before filter; nil entries when read rawOnly
	// raws are the items as stored when read rawOnly, else nil entries:
	// the response encodes the items themselves.
	raws    []*storage.StoredItem
	bytes   int       // total size of the items read
	lastKey attr.Item // LastEvaluatedKey, nil when the range is exhausted
	// last is the entry key of the last item read (a copy).
	last []byte
}

// Read reads one page: live items in [lo, hi) after start, in order, until
// the range ends, limit items were read or the next item would take the
// page past maxPageBytes (a first item is always read). It returns ctx's
// error, and no page, once ctx has ended.
func (s *source) Read(ctx context.Context, p pageSpec) (*page, error) {
	c := s.b.Cursor()
	var k, v []byte
	switch {
	case p.forward && p.start != nil:
		k, v = c.Seek(p.start)
		if k != nil && bytes.Equal(k, p.start) {
			k, v = c.Next()
		}
		if k != nil && p.lo != nil && bytes.Compare(k, p.lo) < 0 {
			k, v = c.Seek(p.lo)
		}
	case p.forward && p.lo != nil:
		k, v = c.Seek(p.lo)
	case p.forward:
		k, v = c.First()
	default:
		end := p.hi
		if p.start != nil && (end == nil || bytes.Compare(p.start, end) < 0) {
			end = p.start
		}
		if end == nil {
			k, v = c.Last()
		} else {
			if k, _ = c.Seek(end); k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
		}
	}
	out := &page{}
	// An item the response returns as stored needs no decoding: its size is
	// read off the stored bytes, its JSON written straight from them, and a
	// TTL check reads the TTL attribute alone.
	rawOnly := p.rawOnly
	for visited := 0; k != nil; visited++ {
		if visited%CtxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if p.forward && p.hi != nil && bytes.Compare(k, p.hi) >= 0 {
			break
		}
		if !p.forward && p.lo != nil && bytes.Compare(k, p.lo) < 0 {
			break
		}
		if p.keep == nil || p.keep(k) {
			var it attr.Item
			var raw *storage.StoredItem
			var size int
			live := true
			var err error
			if rawOnly {
				raw, size, live, err = s.storedEntry(k, v)
			} else {
				it, size, live, err = s.entry(k, v)
			}
			if err != nil {
				return nil, err
			}
			if live {
				if len(out.items) > 0 && out.bytes+size > maxPageBytes {
					return out, out.setLastKey(s)
				}
				out.items = append(out.items, it)
				out.raws = append(out.raws, raw)
				out.last = append(out.last[:0], k...)
				out.bytes += size
				if p.limit > 0 && len(out.items) >= p.limit {
					return out, out.setLastKey(s)
				}
			}
		}
		if p.forward {
			k, v = c.Next()
		} else {
			k, v = c.Prev()
		}
	}
	return out, nil
}

// entry decodes the stored entry k, v and returns the item, its size and
// whether it is live.
func (s *source) entry(k, v []byte) (attr.Item, int, bool, error) {
	it, size, err := s.entryItem(k, v)
	if err != nil {
		return nil, 0, false, err
	}
	live, err := s.isLive(it)
	if err != nil || !live {
		return nil, 0, false, err
	}
	return it, size, true, nil
}

// storedEntry returns the item of entry k, v as storage holds it (see
// storage/itemcodec.go for the stored forms), copied out of the transaction, its
// size, and whether it is live: an index entry's item is the table's, whose
// TTL attribute decides, read once for both.
func (s *source) storedEntry(k, v []byte) (item *storage.StoredItem, size int, live bool, err error) {
	tk, base := k, v
	if s.ix != nil && (s.ix.Projection.ProjectionType == storage.ProjectionAll || s.t.TTLEnabled()) {
		if base, err = s.base(k); err != nil {
			return nil, 0, false, err
		}
		tk = s.tk
	}
	if live, err = s.t.StoredLive(tk, base); err != nil || !live {
		return nil, 0, false, err
	}
	switch {
	case s.ix == nil, s.ix.Projection.ProjectionType == storage.ProjectionAll:
		item, size, err = s.t.M.Stored(tk, base)
		return item, size, err == nil, err
	}
	keys, err := storage.KeyAttrs(k, s.parts)
	if err != nil {
		return nil, 0, false, err
	}
	if s.ix.Projection.ProjectionType == storage.ProjectionInclude {
		if size, err = storage.StoredSize(v); err != nil {
			return nil, 0, false, err
		}
		return storage.NewStoredItem(keys, v), size, true, nil
	}
	return storage.NewStoredItem(keys, nil), attr.Size(storage.ItemOf(keys)), true, nil
}

// entryItem decodes entry k, v and returns its size.
func (s *source) entryItem(k, v []byte) (attr.Item, int, error) {
	switch {
	case s.ix == nil:
		it, err := s.t.M.DecodeStored(k, v)
		if err != nil {
			return nil, 0, err
		}
		size, err := storage.StoredSize(v)
		return it, size, err
	case s.ix.Projection.ProjectionType == storage.ProjectionAll:
		base, err := s.base(k)
		if err != nil {
			return nil, 0, err
		}
		it, err := s.t.M.DecodeStored(s.tk, base)
		if err != nil {
			return nil, 0, err
		}
		size, err := storage.StoredSize(base)
		return it, size, err
	}
	keys, err := storage.KeyAttrs(k, s.parts)
	if err != nil {
		return nil, 0, err
	}
	if s.ix.Projection.ProjectionType == storage.ProjectionInclude {
		it, err := storage.DecodeWithKeys(keys, v)
		if err != nil {
			return nil, 0, err
		}
		size, err := storage.StoredSize(v)
		return it, size, err
	}
	it := storage.ItemOf(keys)
	return it, attr.Size(it), nil
}

// base returns the stored item of the ALL-projection index entry k, whose
// item is the table's, leaving its table key in s.tk.
func (s *source) base(k []byte) ([]byte, error) {
	var err error
	if s.tk, err = s.t.M.TableKeyOf(s.tk[:0], s.parts, k); err != nil {
		return nil, err
	}
	v := s.t.Items.Get(s.tk)
	if v == nil {
		return nil, fmt.Errorf("ddb: index %s entry %x has no item", s.ix.Name, k)
	}
	return v, nil
}

// setLastKey sets the LastEvaluatedKey from the entry key of the last item
// of the page, which holds every key attribute of the item.
func (pg *page) setLastKey(s *source) error {
	keys, err := storage.KeyAttrs(pg.last, s.parts)
	if err != nil {
		return err
	}
	pg.lastKey = s.lastKey(storage.ItemOf(keys))
	return nil
}

// isLive reports whether an item read from the source is not expired. For
// an index whose projection lacks the TTL attribute, the table item decides.
func (s *source) isLive(it attr.Item) (bool, error) {
	ttl := s.t.M.TTL
	if ttl == nil || !ttl.Enabled {
		return true, nil
	}
	if _, ok := it[ttl.AttributeName]; ok || s.ix == nil {
		return !s.t.Expired(it), nil
	}
	base, err := s.t.GetRaw(s.t.M.TableKeyBytes(it))
	if err != nil || base == nil {
		return false, err
	}
	return !s.t.Expired(base), nil
}
