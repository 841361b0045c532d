package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The upgrade of a file of format 1, 2 or 3 to format 4. Open writes the
// upgraded file beside the old one, under the name upgradeSuffix gives it,
// and renames it over the old one:
//
//  1. A file of that name left by an upgrade that crashed is removed. Only
//     the process holding the lock of ddb.bolt does so, so it is never the
//     file of an upgrade in progress.
//  2. One read transaction of the old file walks every bucket in key order,
//     converts each entry (formatv4.go) and puts it in the new file, in
//     write transactions of about Options.upgradeBatchBytes each: a bbolt
//     write transaction holds its dirty pages, and the values put in it,
//     until it commits, so memory does not grow with the file. The old
//     file's pages are read through bbolt's memory map; releaseMapped
//     hands those mapped so far back to the kernel after every
//     releaseBytes read (readOld), so they do not pile up in the process
//     either. Conversions keep the order of the keys, so the data buckets
//     (items, indexes, stream records) are written in key order with full
//     pages (FillPercent 1): the new file holds its data and hardly any
//     free page (each batch frees the few
//     pages at the end of each bucket that the next one rewrites). The
//     format version is written in the last transaction.
//  3. The new file is fsynced, renamed over the old one, and the directory
//     fsynced.
//
// Until the rename the old file is untouched, and it is what a restart
// opens and upgrades again. After it, the new file is complete. The new
// file's bbolt handle becomes the engine's: it holds the lock of the new
// file from the moment the rename gives it the name ddb.bolt, so no other
// process can open the file between the rename and the engine's start.
//
// bolt.Compact copies a file the same way, but it has no hook to convert
// an entry, nor to write a second bucket from one (a format 1 file's
// expiry index), hence this walk.

// UpgradeSuffix follows FileName in the name of the file an upgrade writes.
const UpgradeSuffix = ".upgrade"

// defaultUpgradeBatchBytes is Options.upgradeBatchBytes's default: large
// enough that commits cost little beside the conversion, small enough that
// a batch is a few tens of MB of memory at most.
const defaultUpgradeBatchBytes = 8 << 20

// releaseBytes is how many bytes of the old file's entries an upgrade
// reads between two releases of its mapped pages (readOld). It is small,
// as the pages mapped are many more than those read: at a page fault the
// kernel maps up to 16 neighbouring pages that are in the page cache
// (fault-around), and a bucket written in random key order has its pages
// scattered over the file. In the 735k-item sample, releasing only at each
// commit (8 MB written) left up to 925 MB of the old file mapped; a
// release costs a few microseconds of page table walking.
const releaseBytes = 1 << 20

// UpgradeStage is a point of an upgrade that Options.upgradeHook sees.
type UpgradeStage int

const (
	// UpgradeBatch: a batch of entries is about to commit to the new file.
	UpgradeBatch UpgradeStage = iota
	// UpgradeSynced: the new file is complete and on disk, not yet renamed.
	UpgradeSynced
	// UpgradeRenamed: the new file has the old one's name; the directory is
	// not yet synced.
	UpgradeRenamed
)

// upgradeIfOld returns db when its file has the current format (or is
// new); when it has format 1, 2 or 3, it upgrades it and returns the
// handle of the new file that took its place, having closed db. It closes
// db on failure.
func upgradeIfOld(db *bolt.DB, file string, o StoreOptions) (*bolt.DB, error) {
	tmp := file + UpgradeSuffix
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		db.Close()
		return nil, fmt.Errorf("ddb: remove an interrupted upgrade: %w", err)
	}
	var from string
	err := db.View(func(tx *bolt.Tx) error {
		if meta := tx.Bucket(BucketMeta); meta != nil {
			from = string(meta.Get(KeyFormat))
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	if from != FormatV1 && from != FormatV2 && from != FormatV3 {
		return db, nil // initStorage creates or checks it
	}
	up, err := upgradeFile(db, file, tmp, from, o)
	// Only now: until the rename, db's lock kept other processes away.
	cerr := db.Close()
	if err != nil {
		return nil, fmt.Errorf("ddb: upgrade from format %s: %w", from, err)
	}
	if cerr != nil {
		up.Close()
		return nil, cerr
	}
	return up, nil
}

// upgradeFile writes the format 4 copy of src, a file of format from, to
// tmp, and renames it to file (the name of src). It returns the copy's
// handle, open. On failure it removes tmp, and leaves src as it was unless
// the rename took place.
func upgradeFile(src *bolt.DB, file, tmp, from string, o StoreOptions) (dst *bolt.DB, err error) {
	// No fsync per batch: nothing reads the new file before the one fsync
	// below, and a crash before the rename leaves it to be removed.
	opts := fileOptions(o)
	opts.NoSync = true
	dst, err = bolt.Open(tmp, 0o600, opts)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			dst.Close()
			os.Remove(tmp)
		}
	}()
	size, err := FileSize(file)
	if err != nil {
		return nil, err
	}
	u := &upgrader{from: from, dst: dst, maxBytes: o.UpgradeBatchBytes, hook: o.UpgradeHook,
		release: func() { releaseMapped(src, size) }}
	if u.maxBytes == 0 {
		u.maxBytes = defaultUpgradeBatchBytes
	}
	if err := src.View(u.run); err != nil {
		return nil, err
	}
	if err := dst.Sync(); err != nil {
		return nil, err
	}
	if err := u.at(UpgradeSynced); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, file); err != nil {
		return nil, err
	}
	if err := u.at(UpgradeRenamed); err != nil {
		return nil, err
	}
	if err := syncDir(filepath.Dir(file)); err != nil {
		return nil, err
	}
	dst.NoSync = o.NoSync
	return dst, nil
}

// FileSize returns the size of the file named name.
func FileSize(name string) (int64, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// syncDir fsyncs directory dir, which makes a rename in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// upgrader copies an old file's buckets into the new file, converting
// their entries, in batches.
type upgrader struct {
	from     string // the old file's format
	dst      *bolt.DB
	tx       *bolt.Tx // dst's write transaction in progress
	gen      int      // counts dst's write transactions (dstBucket)
	held     int      // bytes put in tx
	batches  int      // batches committed
	maxBytes int
	hook     func(UpgradeStage, int) error
	read     int    // bytes read from the old file since the last release
	release  func() // releases the old file's mapped pages
}

// run copies every bucket of the old file, read in src, and then writes
// the format version.
func (u *upgrader) run(src *bolt.Tx) (err error) {
	if u.tx, err = u.dst.Begin(true); err != nil {
		return err
	}
	defer func() {
		if u.tx != nil {
			_ = u.tx.Rollback()
		}
	}()
	c := src.Cursor()
	for name, _ := c.First(); name != nil; name, _ = c.Next() {
		b := src.Bucket(name)
		if err := u.createBucket(nil, name, b.Sequence()); err != nil {
			return err
		}
		path := [][]byte{name}
		switch {
		case bytes.HasPrefix(name, []byte(tableBucketPrefix)):
			err = u.copyTable(src, path, b)
		case bytes.Equal(name, BucketStreams):
			err = u.copyStreams(path, b)
		default:
			err = u.copyBucket(path, b, nil)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	meta := u.bucket([][]byte{BucketMeta}, 0)
	if err := meta.Put(KeyFormat, []byte(FormatVersion)); err != nil {
		return err
	}
	return u.commit(false)
}

// at calls the upgrade hook, if any, at stage.
func (u *upgrader) at(stage UpgradeStage) error {
	if u.hook == nil {
		return nil
	}
	return u.hook(stage, u.batches)
}

// reserve makes room in the current batch for n bytes of entries,
// committing it first if they would make it too large.
func (u *upgrader) reserve(n int) error {
	if u.held > 0 && u.held+n > u.maxBytes {
		if err := u.commit(true); err != nil {
			return err
		}
	}
	u.held += n
	return nil
}

// commit commits the current batch and, if next, begins the next one.
func (u *upgrader) commit(next bool) error {
	if err := u.at(UpgradeBatch); err != nil {
		return err
	}
	tx := u.tx
	u.tx = nil
	if err := tx.Commit(); err != nil {
		return err
	}
	u.batches++
	if !next {
		return nil
	}
	var err error
	if u.tx, err = u.dst.Begin(true); err != nil {
		return err
	}
	u.gen++
	u.held = 0
	return nil
}

// readOld notes an entry of n bytes read from the old file, and releases
// the old file's mapped pages after each releaseBytes. Values read before
// stay valid (releaseMapped).
func (u *upgrader) readOld(n int) {
	if u.read += n; u.read >= releaseBytes {
		u.release()
		u.read = 0
	}
}

// lookup returns the bucket of the current transaction at path (not
// empty).
func (u *upgrader) lookup(path [][]byte) (*bolt.Bucket, error) {
	b := u.tx.Bucket(path[0])
	for _, name := range path[1:] {
		if b == nil {
			break
		}
		b = b.Bucket(name)
	}
	if b == nil {
		return nil, fmt.Errorf("ddb: upgrade lost bucket %q", path)
	}
	return b, nil
}

// createBucket creates bucket name, with sequence seq, in the bucket at
// parent (at the top level for nil).
func (u *upgrader) createBucket(parent [][]byte, name []byte, seq uint64) error {
	if err := u.reserve(len(name)); err != nil {
		return err
	}
	var b *bolt.Bucket
	var err error
	if parent == nil {
		b, err = u.tx.CreateBucket(name)
	} else {
		var p *bolt.Bucket
		if p, err = u.lookup(parent); err != nil {
			return err
		}
		b, err = p.CreateBucket(name)
	}
	if err != nil {
		return err
	}
	return b.SetSequence(seq)
}

// dstBucket is a bucket of the new file to put entries in. A bbolt bucket
// belongs to one transaction, so it is looked up again, by its path, in
// the transaction of each batch.
type dstBucket struct {
	u    *upgrader
	path [][]byte
	fill float64 // FillPercent; 0 for bbolt's default
	b    *bolt.Bucket
	gen  int // u.gen when b was looked up
}

// bucket returns the bucket of the new file at path, with FillPercent fill
// (0 for bbolt's default).
func (u *upgrader) bucket(path [][]byte, fill float64) *dstBucket {
	return &dstBucket{u: u, path: slices.Clone(path), fill: fill, gen: -1}
}

// Put puts k and v in the bucket. bbolt keeps v, not a copy, until the
// batch commits: it must not change before.
func (d *dstBucket) Put(k, v []byte) error {
	if err := d.u.reserve(len(k) + len(v)); err != nil {
		return err
	}
	if d.gen != d.u.gen {
		b, err := d.u.lookup(d.path)
		if err != nil {
			return err
		}
		if d.fill != 0 {
			b.FillPercent = d.fill
		}
		d.b, d.gen = b, d.u.gen
	}
	return d.b.Put(k, v)
}

// convertFunc converts one entry of an old bucket to the new file's.
type convertFunc func(k, v []byte) (nk, nv []byte, err error)

// copyBucket copies the entries of old bucket b, already created at path
// in the new file, converted by conv (as they are when nil), and its
// nested buckets as they are.
func (u *upgrader) copyBucket(path [][]byte, b *bolt.Bucket, conv convertFunc) error {
	dst := u.bucket(path, 1) // in key order: see indexV4 for the one key that changes
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		u.readOld(len(k) + len(v))
		if v == nil {
			if nested := b.Bucket(k); nested != nil {
				if err := u.copyNested(path, k, nested, nil); err != nil {
					return err
				}
				continue
			}
		}
		if conv != nil {
			var err error
			if k, v, err = conv(k, v); err != nil {
				return err
			}
		}
		if err := dst.Put(k, v); err != nil {
			return err
		}
	}
	return nil
}

// copyNested creates bucket name in the bucket at parent of the new file
// and copies old bucket b into it, converted by conv.
func (u *upgrader) copyNested(parent [][]byte, name []byte, b *bolt.Bucket, conv convertFunc) error {
	if err := u.createBucket(parent, name, b.Sequence()); err != nil {
		return err
	}
	return u.copyBucket(append(slices.Clone(parent), name), b, conv)
}

// copyTable copies the bucket of a table, at path, converting its items
// and index entries. A format 1 file lacks the expiry index of a table
// with TTL enabled: it is built from the items as they are copied.
func (u *upgrader) copyTable(src *bolt.Tx, path [][]byte, tb *bolt.Bucket) error {
	m, err := LoadTable(src, string(path[0][len(tableBucketPrefix):]))
	if err != nil {
		return err
	}
	if m == nil {
		return u.copyBucket(path, tb, nil) // no table owns it: left as it was
	}
	var expiry *dstBucket
	if u.from == FormatV1 && m.TTL != nil && m.TTL.Enabled {
		if err := u.createBucket(path, BucketExpiry, 0); err != nil {
			return err
		}
		// Filled in item order, not key order: bbolt's default fill.
		expiry = u.bucket(append(slices.Clone(path), BucketExpiry), 0)
	}
	dst := u.bucket(path, 0)
	c := tb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		nested := tb.Bucket(k)
		switch {
		case nested == nil:
			err = dst.Put(k, v) // the stats
		case bytes.Equal(k, BucketItems):
			err = u.copyNested(path, k, nested, func(k, v []byte) ([]byte, []byte, error) {
				it, nv, err := itemV4(m, v)
				if err != nil {
					return nil, nil, fmt.Errorf("ddb: corrupt item %x: %w", k, err)
				}
				if expiry != nil {
					if ev := ExpiryValue(it, m.TTL.AttributeName); ev != nil {
						if err := expiry.Put(append(ev, k...), nil); err != nil {
							return nil, nil, err
						}
					}
				}
				return k, nv, nil
			})
		case bytes.Equal(k, BucketExpiry) && expiry != nil:
			// Built from the items instead (there should be none).
		default:
			var conv convertFunc
			if ix := m.indexByBucket(k); ix != nil {
				conv = newIndexV4(m, ix).convert
			}
			err = u.copyNested(path, k, nested, conv)
		}
		if err != nil {
			return fmt.Errorf("table %s: %w", m.Name, err)
		}
	}
	return nil
}

// indexByBucket returns the index whose bucket is named name, or nil.
func (m *TableMeta) indexByBucket(name []byte) *IndexMeta {
	index, ok := strings.CutPrefix(string(name), indexBucketPrefix)
	if !ok {
		return nil
	}
	return m.Index(index)
}

// copyStreams copies the streams bucket, at path, and each stream in it.
func (u *upgrader) copyStreams(path [][]byte, streams *bolt.Bucket) error {
	c := streams.Cursor()
	for name, _ := c.First(); name != nil; name, _ = c.Next() {
		sb := streams.Bucket(name)
		if sb == nil {
			return fmt.Errorf("ddb: stream %s is no bucket", name)
		}
		if err := u.createBucket(path, name, sb.Sequence()); err != nil {
			return err
		}
		if err := u.copyStream(append(slices.Clone(path), name), sb); err != nil {
			return fmt.Errorf("stream %s: %w", name, err)
		}
	}
	return nil
}

// copyStream copies the bucket of a stream, at path, converting its
// records, and keeps the regions they were written in in the stream's
// meta (streamMeta.Regions).
func (u *upgrader) copyStream(path [][]byte, sb *bolt.Bucket) error {
	meta, err := LoadStreamMeta(sb)
	if err != nil {
		return err
	}
	var keyNames []string
	for _, k := range meta.KeySchema {
		keyNames = append(keyNames, k.AttributeName)
	}
	var regions recordRegions
	dst := u.bucket(path, 0)
	c := sb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		nested := sb.Bucket(k)
		switch {
		case nested == nil:
			err = dst.Put(k, v)
		case bytes.Equal(k, BucketRecords):
			err = u.copyNested(path, k, nested, func(k, v []byte) ([]byte, []byte, error) {
				nv, region, err := recordV4(k, v, keyNames)
				if err != nil {
					return nil, nil, err
				}
				regions.Add(BytesToSeq(k), region)
				return k, nv, nil
			})
		default:
			err = u.copyNested(path, k, nested, nil)
		}
		if err != nil {
			return err
		}
	}
	if len(regions.runs) == 0 {
		return nil
	}
	meta.Regions = regions.runs
	raw, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	return dst.Put(keyStreamMeta, raw) // over the meta copied as it was
}
