package storage

import (
	"fmt"
	"io"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// DynamoDB bills table storage as the size of every item (attr.Size) plus
// 100 bytes of per-item overhead, and each global or local secondary index
// the same way for its projected copy of each item; stream records are not
// billed as storage. DiskUsage sets what the engine stores against that.
const billedOverhead = 100

// DiskUsage says where the bytes of the engine's file go: pages per kind of
// entry (items, index entries, stream records), how full they are, the
// stored keys and values, and free pages; and, per table, the storage
// DynamoDB would bill for the same items.
type DiskUsage struct {
	// FileBytes is the size of the data file (the highest page in use,
	// times the page size); PageSize its page size.
	FileBytes int64
	PageSize  int
	// FreePages are pages free for reuse; PendingPages are freed by recent
	// transactions and free once no reader needs them. FreelistBytes is the
	// space the freelist takes.
	FreePages, PendingPages int
	FreelistBytes           int
	Tables                  []TableUsage
	// Streams are the record buckets of every stream, named "<table>/<label>".
	Streams []NamedUsage
	// Other is every page not in a bucket above nor free: bbolt's meta
	// pages and freelist, the meta, tables, token and stream metadata
	// buckets, and the branch pages of the buckets that nest the others.
	OtherPages int
}

// TableUsage is one table's buckets and what DynamoDB would bill for it.
type TableUsage struct {
	Name    string
	Items   BucketUsage
	Indexes []NamedUsage
	Expiry  *BucketUsage // nil unless TTL is enabled
	// ItemCount and ItemBytes are the table's item count and the sum of its
	// items' DynamoDB sizes (the counters DescribeTable reports).
	ItemCount, ItemBytes int64
	// BilledBytes is DynamoDB's billed storage for the table and all its
	// indexes: per item and per index entry, its size plus 100 bytes.
	BilledBytes int64
}

// NamedUsage is a BucketUsage with the name of the index or stream it holds.
type NamedUsage struct {
	Name string
	BucketUsage
}

// BucketUsage is one bucket's entries and pages (from bolt.Bucket.Stats).
type BucketUsage struct {
	Entries              int
	KeyBytes, ValueBytes int64
	// LeafPages and OverflowPages hold the entries; LeafAlloc is their
	// bytes and LeafInuse the bytes used of them (page and element
	// headers, keys, values), so LeafInuse/LeafAlloc is how full they are.
	LeafPages, OverflowPages, BranchPages int
	LeafAlloc, LeafInuse                  int
	BranchAlloc, BranchInuse              int
}

// Pages returns every page of the bucket.
func (u BucketUsage) Pages() int { return u.LeafPages + u.OverflowPages + u.BranchPages }

// Fill returns the fraction of the leaf bytes in use.
func (u BucketUsage) Fill() float64 {
	if u.LeafAlloc == 0 {
		return 0
	}
	return float64(u.LeafInuse) / float64(u.LeafAlloc)
}

// DiskUsage measures the engine's file in one read transaction, reading
// every key and value once.
func (s *Store) DiskUsage() (*DiskUsage, error) {
	u := &DiskUsage{}
	st := s.DB.Stats()
	u.FreePages, u.PendingPages, u.FreelistBytes = st.FreePageN, st.PendingPageN, st.FreelistInuse
	err := s.View(func(tx *bolt.Tx) error {
		u.FileBytes = tx.Size()
		u.PageSize = tx.DB().Info().PageSize
		accounted := 0
		err := tx.Bucket(BucketTables).ForEach(func(name, _ []byte) error {
			tu, err := tableUsage(tx, string(name))
			if err != nil {
				return err
			}
			accounted += tu.Items.Pages()
			for _, ix := range tu.Indexes {
				accounted += ix.Pages()
			}
			if tu.Expiry != nil {
				accounted += tu.Expiry.Pages()
			}
			u.Tables = append(u.Tables, *tu)
			return nil
		})
		if err != nil {
			return err
		}
		streams := tx.Bucket(BucketStreams)
		err = streams.ForEach(func(name, _ []byte) error {
			records := streams.Bucket(name).Bucket(BucketRecords)
			if records == nil {
				return nil
			}
			bu := bucketUsage(records)
			accounted += bu.Pages()
			u.Streams = append(u.Streams, NamedUsage{Name: string(name), BucketUsage: bu})
			return nil
		})
		if err != nil {
			return err
		}
		u.OtherPages = int(u.FileBytes/int64(u.PageSize)) - accounted - u.FreePages - u.PendingPages
		return nil
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// tableUsage measures one table's buckets.
func tableUsage(tx *bolt.Tx, name string) (*TableUsage, error) {
	m, st, err := LoadTableAndStats(tx, name)
	if err == nil && m == nil {
		err = fmt.Errorf("ddb: table %s is listed but has no metadata", name)
	}
	if err != nil {
		return nil, err
	}
	tb := tx.Bucket(TableBucketName(name))
	tu := &TableUsage{Name: name, ItemCount: st.ItemCount, ItemBytes: st.SizeBytes}
	tu.Items = bucketUsage(tb.Bucket(BucketItems))
	tu.BilledBytes = st.SizeBytes + billedOverhead*st.ItemCount
	for _, ix := range m.Indexes {
		b := tb.Bucket(IndexBucketName(ix.Name))
		if b == nil {
			return nil, fmt.Errorf("ddb: index %s of table %s has no bucket", ix.Name, name)
		}
		tu.Indexes = append(tu.Indexes, NamedUsage{Name: ix.Name, BucketUsage: bucketUsage(b)})
		is := st.Indexes[ix.Name]
		tu.BilledBytes += is.SizeBytes + billedOverhead*is.ItemCount
	}
	if b := tb.Bucket(BucketExpiry); b != nil {
		bu := bucketUsage(b)
		tu.Expiry = &bu
	}
	return tu, nil
}

// bucketUsage measures a bucket without nested buckets.
func bucketUsage(b *bolt.Bucket) BucketUsage {
	s := b.Stats()
	u := BucketUsage{
		LeafPages: s.LeafPageN, OverflowPages: s.LeafOverflowN + s.BranchOverflowN, BranchPages: s.BranchPageN,
		LeafAlloc: s.LeafAlloc, LeafInuse: s.LeafInuse, BranchAlloc: s.BranchAlloc, BranchInuse: s.BranchInuse,
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		u.Entries++
		u.KeyBytes += int64(len(k))
		u.ValueBytes += int64(len(v))
	}
	return u
}

// WriteReport writes u as a table for people: per bucket its entries, stored
// bytes per entry, pages and fill, then the totals against DynamoDB's
// billed size.
func (u *DiskUsage) WriteReport(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "file: %d bytes (%s), page size %d, %d pages\n", u.FileBytes, mib(u.FileBytes), u.PageSize, u.FileBytes/int64(u.PageSize))
	fmt.Fprintf(&b, "%-44s %8s %7s %9s %7s %6s %8s %11s %6s %7s\n", "bucket", "entries", "key B/e", "value B/e", "leaf", "branch", "overflow", "MiB", "fill", "B/item")
	items := int64(0)
	for _, t := range u.Tables {
		items += t.ItemCount
	}
	row := func(name string, bu BucketUsage) {
		perEntry := func(n int64) float64 {
			if bu.Entries == 0 {
				return 0
			}
			return float64(n) / float64(bu.Entries)
		}
		bytes := int64(bu.Pages()) * int64(u.PageSize)
		fmt.Fprintf(&b, "%-44s %8d %7.1f %9.1f %7d %6d %8d %11s %5.1f%% %7.1f\n", name, bu.Entries,
			perEntry(bu.KeyBytes), perEntry(bu.ValueBytes), bu.LeafPages, bu.BranchPages, bu.OverflowPages,
			mib(bytes), 100*bu.Fill(), perItem(bytes, items))
	}
	for _, t := range u.Tables {
		row("table "+t.Name+" items", t.Items)
		for _, ix := range t.Indexes {
			row("table "+t.Name+" index "+ix.Name, ix.BucketUsage)
		}
		if t.Expiry != nil {
			row("table "+t.Name+" expiry", *t.Expiry)
		}
	}
	for _, s := range u.Streams {
		row("stream "+s.Name+" records", s.BucketUsage)
	}
	page := int64(u.PageSize)
	for _, p := range []struct {
		name  string
		pages int
	}{{"free and pending pages", u.FreePages + u.PendingPages}, {"other (meta pages, freelist, metadata)", u.OtherPages}} {
		bytes := int64(p.pages) * page
		fmt.Fprintf(&b, "%-44s %8s %7s %9s %7d %6s %8s %11s %6s %7.1f\n", p.name, "", "", "", p.pages, "", "", mib(bytes), "", perItem(bytes, items))
	}
	for _, t := range u.Tables {
		data := int64(t.Items.Pages())
		for _, ix := range t.Indexes {
			data += int64(ix.Pages())
		}
		fmt.Fprintf(&b, "table %s: %d items of %.1f B (DynamoDB size); DynamoDB bills %d bytes (%s, %.1f B/item) for the table and its %d indexes; their pages here: %d bytes (%s, %.1f B/item)\n",
			t.Name, t.ItemCount, perItem(t.ItemBytes, t.ItemCount), t.BilledBytes, mib(t.BilledBytes), perItem(t.BilledBytes, t.ItemCount),
			len(t.Indexes), data*page, mib(data*page), perItem(data*page, t.ItemCount))
	}
	fmt.Fprintf(&b, "freelist: %d bytes (in the other pages); file per item: %.1f B\n", u.FreelistBytes, perItem(u.FileBytes, items))
	_, err := io.WriteString(w, b.String())
	return err
}

// perItem divides n by items, zero when there are none.
func perItem(n, items int64) float64 {
	if items == 0 {
		return 0
	}
	return float64(n) / float64(items)
}

// mib formats a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
