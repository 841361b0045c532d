package engine

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Options configure an Engine: those of package ddb (ddb.Options, which
// documents them), and the hooks only tests set. The zero value is usable.
type Options struct {
	// StoreOptions are the options of the data file (package storage).
	storage.StoreOptions

	// TTLSweepInterval is how often the background sweeper deletes expired
	// items. Zero means one minute; a negative value disables the sweeper
	// (expired items are still never returned, only not deleted). A sweep
	// reads only the entries of the expiry index that are due (storage/expiry.go).
	// The same sweeper trims stream records past StreamRetention
	// (TrimStreams).
	TTLSweepInterval time.Duration

	// Region and AccountID appear in table and index ARNs. They default to
	// "local" and "000000000000".
	Region    string
	AccountID string
}

// withDefaults returns *opts (the zero Options when nil) with its zero
// fields filled in.
func withDefaults(opts *Options) Options {
	var o Options
	if opts != nil {
		o = *opts
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
	return o
}

// Engine is an embedded, durable DynamoDB-compatible database: the typed
// operations the front-ends (wire, sdkapi, partiqlexec) render. It is safe
// for concurrent use.
type Engine struct {
	*storage.Store // the data file: transactions, tables, streams
	Opts           Options

	stop     chan struct{}
	wg       sync.WaitGroup
	closeMu  sync.Once
	closeErr error
}

// Open opens (creating if needed) the engine stored in dir. It returns
// ErrFormatVersion when the file was written with another format version,
// ErrNotDir when dir is not a directory, and ErrLocked, naming the file, when
// another process has it open. The caller must Close the Engine.
//
// A file of format 1, 2 or 3 is upgraded first (storage/upgrade.go): Open writes
// the upgraded file beside it, which needs free disk space for the
// upgraded data (a third to a quarter of the old file, for the sample
// data), and reads the old file once; the heap stays bounded whatever the
// file's size, and on Linux so do the old file's mapped pages
// (releaseMapped).
func Open(dir string, opts *Options) (*Engine, error) {
	o := withDefaults(opts)
	st, err := storage.OpenStore(dir, o.StoreOptions)
	if err != nil {
		return nil, err
	}
	return start(st, o), nil
}

// OpenMemory opens an engine whose data lives only in memory, like DynamoDB
// Local's -inMemory: nothing is written to a data directory, nothing is
// fsynced, and everything is gone after Close. It is for tests and
// throwaway sessions that want the engine's behaviour without durability.
// The storage is the same bbolt file format as Open's, kept in an anonymous
// in-memory file (storage/memfile_linux.go) or, on other systems, in a temporary
// file removed on Close (storage/memfile_other.go). Options.NoSync is ignored:
// nothing is ever synced.
func OpenMemory(opts *Options) (*Engine, error) {
	o := withDefaults(opts)
	st, err := storage.OpenMemoryStore(o.StoreOptions)
	if err != nil {
		return nil, err
	}
	return start(st, o), nil
}

// start starts the TTL sweeper of an engine over st.
func start(st *storage.Store, o Options) *Engine {
	e := &Engine{Store: st, Opts: o, stop: make(chan struct{})}
	if o.TTLSweepInterval > 0 {
		e.wg.Add(1)
		go e.sweepLoop(o.TTLSweepInterval)
	}
	return e
}

// Close stops the TTL sweeper and closes the data file. It waits for
// in-flight transactions. Calling Close more than once returns the first
// result.
func (e *Engine) Close() error {
	e.closeMu.Do(func() {
		close(e.stop)
		e.wg.Wait()
		e.closeErr = e.Store.Close()
	})
	return e.closeErr
}

// NewID returns a random identifier in UUID form, used for request ids and
// table ids. Every answer carries one, so it takes its bits from the
// runtime's ChaCha8 generator (math/rand/v2: per thread, seeded from the
// system, no system call) and allocates only the string.
func NewID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	var id [36]byte
	hex.Encode(id[0:8], b[0:4])
	hex.Encode(id[9:13], b[4:6])
	hex.Encode(id[14:18], b[6:8])
	hex.Encode(id[19:23], b[8:10])
	hex.Encode(id[24:], b[10:])
	id[8], id[13], id[18], id[23] = '-', '-', '-', '-'
	return string(id[:])
}

// MaxRequestBytes is DynamoDB's limit on a request body: 16 MiB (its sizes are binary units).
// A larger body is refused with HTTP 413, before it is read when its length is declared, as
// DynamoDB and DynamoDB Local refuse it.
const MaxRequestBytes = 16 << 20
