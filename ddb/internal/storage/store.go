package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FileName is the name of the bbolt data file Open creates inside its
// directory.
const FileName = "ddb.bolt"

// StoreOptions configure the data file: how it is opened, synced and
// upgraded, and the clock its records are stamped with.
type StoreOptions struct {
	// Now returns the current time; nil means time.Now. Tests use it to
	// move the clock for TTL and idempotency tokens.
	Now func() time.Time
	// NoSync disables fsync on commit. Only for tests: acknowledged writes
	// may be lost on power failure.
	NoSync bool
	// StreamShardDuration is how long a stream's shard takes records before
	// it is closed and followed by a child shard. Zero means
	// DefaultStreamShardDuration (four hours, as DynamoDB).
	StreamShardDuration time.Duration
	// OpenTimeout bounds how long Open waits for the file lock held by
	// another process before it returns ErrLocked. Zero means 100 ms: long
	// enough for a process that is closing to let go, short enough that a
	// second server on the same directory is told at once.
	OpenTimeout time.Duration
	// UpgradeBatchBytes bounds the bytes of entries an upgrade puts in one
	// write transaction of the new file (upgrade.go); zero means
	// defaultUpgradeBatchBytes. Tests make it small, to see many batches.
	UpgradeBatchBytes int
	// UpgradeHook, when not nil, is called at each stage of an upgrade;
	// an error stops the upgrade there. Tests measure memory from it, or
	// kill the process to see what a crash at that stage leaves.
	UpgradeHook func(stage UpgradeStage, batches int) error
	// OpenedHook, when not nil, is called once openFile has the file of
	// its attempt open, before it waits for the lock; attempt 1 and later
	// are retries on a file another engine replaced. Tests see the retry.
	OpenedHook func(attempt int)
}

// DefaultStreamShardDuration is StoreOptions.StreamShardDuration's default:
// DynamoDB closes a stream's shard and opens its child about every four hours.
const DefaultStreamShardDuration = 4 * time.Hour

// defaultOpenTimeout is StoreOptions.OpenTimeout's default.
const defaultOpenTimeout = 100 * time.Millisecond

// withDefaults returns o with the zero fields its documentation gives a
// default for filled in.
func (o StoreOptions) withDefaults() StoreOptions {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.StreamShardDuration == 0 {
		o.StreamShardDuration = DefaultStreamShardDuration
	}
	if o.OpenTimeout == 0 {
		o.OpenTimeout = defaultOpenTimeout
	}
	return o
}

// Store is the engine's bbolt file: its transactions, the commits writers
// share (groupcommit.go) and the decoded table metadata (tablecache.go).
// It is safe for concurrent use.
type Store struct {
	DB   *bolt.DB
	opts StoreOptions

	cleanup func() // removes OpenMemory's storage after Close; nil for Open

	commits commitQueue // writers waiting to share a commit (groupcommit.go)
	metas   metaCache   // decoded table metadata (tablecache.go)
}

// OpenStore opens (creating if needed) the data file in dir, upgrading a
// file of an earlier format first (upgrade.go). o has its defaults filled
// in.
func OpenStore(dir string, o StoreOptions) (*Store, error) {
	o = o.withDefaults()
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, ErrNotDir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ddb: create data directory: %w", err)
	}
	file := filepath.Join(dir, FileName)
	db, err := openFile(file, o)
	if err != nil {
		return nil, err
	}
	if db, err = upgradeIfOld(db, file, o); err != nil {
		return nil, err
	}
	return newStore(db, o, nil)
}

// fileOptions are the bbolt options of the engine's file, wherever it is
// opened: by openFile, or as the upgraded copy (upgradeFile).
func fileOptions(o StoreOptions) *bolt.Options {
	return &bolt.Options{Timeout: o.OpenTimeout, NoSync: o.NoSync}
}

// openFile opens the bbolt file named file, holding its lock. The lock
// belongs to the file, not its name: a process that waited for it while
// another upgraded the file (upgrade.go) gets the lock of the old file
// once the other has renamed the new one over it, so such a file is let go
// and the name opened again, whose lock the upgraded engine holds.
func openFile(file string, o StoreOptions) (*bolt.DB, error) {
	for attempt := range 3 {
		var f *os.File
		opts := fileOptions(o)
		opts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
			var err error
			f, err = os.OpenFile(name, flag, perm)
			if err == nil && o.OpenedHook != nil {
				o.OpenedHook(attempt)
			}
			return f, err
		}
		db, err := bolt.Open(file, 0o600, opts)
		if errors.Is(err, bolterrors.ErrTimeout) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("ddb: open %s: %w", filepath.Dir(file), err)
		}
		held, err := f.Stat()
		if err != nil {
			db.Close()
			return nil, err
		}
		if named, err := os.Stat(file); err == nil && os.SameFile(held, named) {
			return db, nil
		}
		db.Close()
	}
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	return nil, fmt.Errorf("%w: %s is locked (is another quickphotos serve or dynamodb running on this data directory?)", ErrLocked, file)
}

// OpenMemoryStore opens a data file that lives only in memory: an
// anonymous in-memory file (memfile_linux.go) or, on other systems, a
// temporary file removed on Close (memfile_other.go). Nothing is synced.
func OpenMemoryStore(o StoreOptions) (*Store, error) {
	o = o.withDefaults()
	f, cleanup, err := memoryFile()
	if err != nil {
		return nil, fmt.Errorf("ddb: in-memory storage: %w", err)
	}
	db, err := bolt.Open(f.Name(), 0o600, &bolt.Options{
		Timeout: o.OpenTimeout,
		NoSync:  true,
		// The file is never opened again, so the free-page list need not be
		// written at every commit (one page write fewer) for a later Open.
		NoFreelistSync: true,
		// bbolt opens by name; hand it the file already made, once.
		OpenFile: func(string, int, os.FileMode) (*os.File, error) { return f, nil },
	})
	if err != nil {
		f.Close()
		cleanup()
		return nil, fmt.Errorf("ddb: in-memory storage: %w", err)
	}
	return newStore(db, o, cleanup)
}

// newStore initialises the layout of an opened bbolt file. cleanup, if not
// nil, runs after the file is closed.
func newStore(db *bolt.DB, o StoreOptions, cleanup func()) (*Store, error) {
	if err := db.Update(initStorage); err != nil {
		db.Close()
		if cleanup != nil {
			cleanup()
		}
		return nil, err
	}
	return &Store{DB: db, opts: o, cleanup: cleanup}, nil
}

// Close closes the data file, waiting for the transactions in flight.
func (s *Store) Close() error {
	err := s.DB.Close()
	if s.cleanup != nil {
		s.cleanup()
	}
	return err
}

// Now returns the store's clock.
func (s *Store) Now() time.Time { return s.opts.Now() }

// Update runs fn in a read-write bbolt transaction; an acknowledged commit is
// fsynced (unless Options.NoSync).
func (s *Store) Update(fn func(tx *bolt.Tx) error) error {
	err := s.DB.Update(fn)
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	return err
}

// View runs fn in a read-only bbolt transaction: a consistent snapshot.
func (s *Store) View(fn func(tx *bolt.Tx) error) error {
	err := s.DB.View(fn)
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	return err
}
