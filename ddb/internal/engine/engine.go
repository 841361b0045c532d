package engine

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FileName is the name of the bbolt data file Open creates inside its
// directory.
const FileName = "ddb.bolt"

// Options configure an Engine: those of package ddb (ddb.Options, which
// documents them), and the hooks only tests set. The zero value is usable.
type Options struct {
	// TTLSweepInterval is how often the background sweeper deletes expired
	// items. Zero means one minute; a negative value disables the sweeper
	// (expired items are still never returned, only not deleted). A sweep
	// reads only the entries of the expiry index that are due (expiry.go).
	// The same sweeper trims stream records past StreamRetention
	// (TrimStreams).
	TTLSweepInterval time.Duration

	// Now returns the current time; nil means time.Now. Tests use it to
	// move the clock for TTL and idempotency tokens.
	Now func() time.Time

	// NoSync disables fsync on commit. Only for tests: acknowledged writes
	// may be lost on power failure.
	NoSync bool

	// Region and AccountID appear in table and index ARNs. They default to
	// "local" and "000000000000".
	Region    string
	AccountID string

	// RequestMemory bounds the bytes of request bodies held at once by
	// ServeHTTP, across all requests; a request waits for its share before
	// its body is read. Zero means DefaultRequestMemory; a budget too small
	// for one body of unknown length (about 33 MiB: see requestbody.go) is
	// raised to it.
	RequestMemory int64

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

// withDefaults returns *opts (the zero Options when nil) with its zero
// fields filled in.
func withDefaults(opts *Options) Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Region == "" {
		o.Region = "local"
	}
	if o.AccountID == "" {
		o.AccountID = "000000000000"
	}
	if o.TTLSweepInterval == 0 {
		o.TTLSweepInterval = time.Minute
	}
	if o.RequestMemory == 0 {
		o.RequestMemory = DefaultRequestMemory
	}
	if o.StreamShardDuration == 0 {
		o.StreamShardDuration = DefaultStreamShardDuration
	}
	if o.OpenTimeout == 0 {
		o.OpenTimeout = 100 * time.Millisecond
	}
	return o
}

// Engine is an embedded, durable DynamoDB-compatible database. It is safe for
// concurrent use; its ServeHTTP speaks the DynamoDB JSON 1.0 protocol.
type Engine struct {
	Db   *bolt.DB
	Opts Options

	stop     chan struct{}
	wg       sync.WaitGroup
	closeMu  sync.Once
	closeErr error

	cleanup func() // removes OpenMemory's storage after Close; nil for Open

	commits commitQueue // writers waiting to share a commit (groupcommit.go)
	metas   metaCache   // decoded table metadata (tablecache.go)
}

// Open opens (creating if needed) the engine stored in dir. It returns
// ErrFormatVersion when the file was written with another format version,
// ErrNotDir when dir is not a directory, and ErrLocked, naming the file, when
// another process has it open. The caller must Close the Engine.
//
// A file of format 1, 2 or 3 is upgraded first (upgrade.go): Open writes
// the upgraded file beside it, which needs free disk space for the
// upgraded data (a third to a quarter of the old file, for the sample
// data), and reads the old file once; the heap stays bounded whatever the
// file's size, and on Linux so do the old file's mapped pages
// (releaseMapped).
func Open(dir string, opts *Options) (*Engine, error) {
	o := withDefaults(opts)
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
	return start(db, o, nil)
}

// fileOptions are the bbolt options of the engine's file, wherever it is
// opened: by openFile, or as the upgraded copy (upgradeFile).
func fileOptions(o Options) *bolt.Options {
	return &bolt.Options{Timeout: o.OpenTimeout, NoSync: o.NoSync}
}

// openFile opens the bbolt file named file, holding its lock. The lock
// belongs to the file, not its name: a process that waited for it while
// another upgraded the file (upgrade.go) gets the lock of the old file
// once the other has renamed the new one over it, so such a file is let go
// and the name opened again, whose lock the upgraded engine holds.
func openFile(file string, o Options) (*bolt.DB, error) {
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

// OpenMemory opens an engine whose data lives only in memory, like DynamoDB
// Local's -inMemory: nothing is written to a data directory, nothing is
// fsynced, and everything is gone after Close. It is for tests and
// throwaway sessions that want the engine's behaviour without durability.
// The storage is the same bbolt file format as Open's, kept in an anonymous
// in-memory file (memfile_linux.go) or, on other systems, in a temporary
// file removed on Close (memfile_other.go). Options.NoSync is ignored:
// nothing is ever synced.
func OpenMemory(opts *Options) (*Engine, error) {
	o := withDefaults(opts)
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
	return start(db, o, cleanup)
}

// start initialises the storage of an opened bbolt file and starts the TTL
// sweeper. cleanup, if not nil, runs after the file is closed.
func start(db *bolt.DB, o Options, cleanup func()) (*Engine, error) {
	if err := db.Update(initStorage); err != nil {
		db.Close()
		if cleanup != nil {
			cleanup()
		}
		return nil, err
	}
	e := &Engine{Db: db, Opts: o, stop: make(chan struct{}), cleanup: cleanup}
	if o.TTLSweepInterval > 0 {
		e.wg.Add(1)
		go e.sweepLoop(o.TTLSweepInterval)
	}
	return e, nil
}

// Close stops the TTL sweeper and closes the data file. It waits for
// in-flight transactions. Calling Close more than once returns the first
// result.
func (e *Engine) Close() error {
	e.closeMu.Do(func() {
		close(e.stop)
		e.wg.Wait()
		e.closeErr = e.Db.Close()
		if e.cleanup != nil {
			e.cleanup()
		}
	})
	return e.closeErr
}

// now returns the engine clock.
func (e *Engine) now() time.Time { return e.Opts.Now() }

// Update runs fn in a read-write bbolt transaction; an acknowledged commit is
// fsynced (unless Options.NoSync).
func (e *Engine) Update(fn func(tx *bolt.Tx) error) error {
	err := e.Db.Update(fn)
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	return err
}

// View runs fn in a read-only bbolt transaction: a consistent snapshot.
func (e *Engine) View(fn func(tx *bolt.Tx) error) error {
	err := e.Db.View(fn)
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	return err
}

// NewID returns a random identifier in UUID form, used for request ids and
// table ids.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
