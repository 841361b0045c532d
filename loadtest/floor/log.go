package floor

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

// logSize is the log file's size: it is written through once when opened, and appends wrap
// around at its end, so that no append allocates blocks or changes the file's size and an
// fdatasync flushes the data alone (as the engine's log floor, ddb/bench, does).
const logSize = 64 << 20

// writeLog is the floor's write-ahead log: each mutation's request is appended to it, and
// answered only once the disk holds it. Commits are shared by the writers in flight, as the
// engine's group commit shares them: a lone writer commits at once; writers arriving meanwhile
// gather in the next batch, whose first writer commits all of it in one write and one
// fdatasync as soon as the commit before is done.
type writeLog struct {
	file *os.File
	// sync makes what was written durable: fdatasync, or a test's slower one.
	sync func(*os.File) error

	mu sync.Mutex
	// committing: a batch is being written and synced.
	committing bool
	// next gathers the writers that arrive meanwhile.
	next *batch
	// end is where the next commit writes; only the committing writer touches it.
	end int64
}

// batch is the records of one commit and what their writers wait on.
type batch struct {
	records []byte
	// turn is closed when the batch's first writer may commit it.
	turn chan struct{}
	// done is closed once it is committed, err then holding the outcome.
	done chan struct{}
	err  error
}

func newBatch() *batch { return &batch{turn: make(chan struct{}), done: make(chan struct{})} }

// openLog creates the log file at path, written through to its full size.
func openLog(path string) (*writeLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err = f.Write(make([]byte, logSize)); err == nil {
		err = f.Sync()
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("writing the log %s through: %w", path, err)
	}
	return &writeLog{file: f, sync: fdatasync, next: newBatch()}, nil
}

func fdatasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }

// append adds rec and a newline to the log and returns once the disk holds them.
func (l *writeLog) append(rec []byte) error {
	l.mu.Lock()
	b := l.next
	first := len(b.records) == 0
	b.records = append(append(b.records, rec...), '\n')
	if !l.committing {
		// Nothing in flight: this writer commits its batch now.
		l.committing = true
		close(b.turn)
	}
	l.mu.Unlock()
	if !first {
		<-b.done
		return b.err
	}
	<-b.turn
	l.mu.Lock()
	l.next = newBatch()
	l.mu.Unlock()
	b.err = l.write(b.records)
	close(b.done)
	l.mu.Lock()
	if len(l.next.records) > 0 {
		close(l.next.turn) // its first writer commits next
	} else {
		l.committing = false
	}
	l.mu.Unlock()
	return b.err
}

// write puts records at the end of the log, wrapping around at its end, in one write, and
// waits for the disk to hold them.
func (l *writeLog) write(records []byte) error {
	if int64(len(records)) > logSize {
		return fmt.Errorf("a commit of %d bytes does not fit the log's %d", len(records), logSize)
	}
	if l.end+int64(len(records)) > logSize {
		l.end = 0
	}
	if _, err := l.file.WriteAt(records, l.end); err != nil {
		return err
	}
	l.end += int64(len(records))
	return l.sync(l.file)
}

func (l *writeLog) close() error { return l.file.Close() }
