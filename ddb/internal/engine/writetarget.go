package engine

import (
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Writes are evaluated twice over when they can be: once in a read-only
// snapshot, before the write queues for the write lock, and then, in the
// transaction of the group commit it joins, only checked. Writes commit in
// groups, one transaction at a time, so what each write does inside one
// delays the commit of every write in it; done in the snapshot, it
// overlaps the commit before. A write whose snapshot does not hold any
// more is evaluated again in its transaction, as if nothing had been
// prepared.

// writeTarget is the item a write acts on, read before it writes: its
// table, its key, the stored item (raw, possibly expired; its stored value
// and size), the live one (old, nil when absent or expired), and the item
// the write stores (nw, set when evaluated; nw.Item is nil for none).
type writeTarget struct {
	t        *storage.TableTx
	k        []byte
	raw, old attr.Item
	stored   []byte
	rawSize  int
	nw       storage.EncodedItem
}

// readTarget reads the item at key k of table t.
func readTarget(t *storage.TableTx, k []byte) (writeTarget, error) {
	raw, stored, err := t.GetStored(k)
	if err != nil {
		return writeTarget{}, err
	}
	tg := writeTarget{t: t, k: k, raw: raw, old: t.Live(raw), stored: stored}
	if stored != nil {
		if tg.rawSize, err = storage.StoredSize(stored); err != nil {
			return writeTarget{}, err
		}
	}
	return tg, nil
}

// holdsIn reports whether the target, read in a snapshot, holds in table t
// of a later transaction: the table has the same metadata and the item the
// same stored value and the same liveness. Whatever was evaluated from the
// target depends on nothing else, so it stands. It then moves the target
// to t.
func (tg *writeTarget) holdsIn(t *storage.TableTx) bool {
	// The metadata cache shares one TableMeta for as long as the table's
	// stored metadata is unchanged.
	if t.M != tg.t.M || !t.Unchanged(tg.k, tg.stored) || (t.Live(tg.raw) == nil) != (tg.old == nil) {
		return false
	}
	tg.t = t
	return true
}

// inSnapshot runs evaluate in a read-only snapshot and reports whether it
// passed; an error, or a write refused, is found again in the write's own
// transaction.
func (e *Engine) inSnapshot(evaluate func(tx *bolt.Tx) error) bool {
	ok := e.View(evaluate) == nil
	if hook := e.afterSnapshot; hook != nil {
		hook()
	}
	return ok
}
