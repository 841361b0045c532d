package floor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// heldSync replaces a log's fdatasync with one that counts, reports each call on started and
// waits for release before returning.
type heldSync struct {
	calls   atomic.Int64
	started chan []byte // the file's bytes when the sync began
	release chan struct{}
}

func holdSyncs(t *testing.T, l *writeLog) *heldSync {
	h := &heldSync{started: make(chan []byte, 16), release: make(chan struct{}, 16)}
	l.sync = func(f *os.File) error {
		h.calls.Add(1)
		got := make([]byte, 4096)
		if _, err := f.ReadAt(got, 0); err != nil {
			t.Errorf("reading the log: %v", err)
		}
		h.started <- got
		<-h.release
		return fdatasync(f)
	}
	return h
}

func newTestLog(t *testing.T) *writeLog {
	l, err := openLog(filepath.Join(t.TempDir(), "floor.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.close() })
	return l
}

// Writers arriving while a commit is on the disk share the next one: six writers, the last five
// arriving during the first's fdatasync, take two, and the log holds every record in one piece.
func TestWriteLog_SharesACommitAmongTheWritersInFlight(t *testing.T) {
	l := newTestLog(t)
	h := holdSyncs(t, l)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	appendRec := func(i int) {
		defer wg.Done()
		errs <- l.append(fmt.Appendf(nil, "record %d", i))
	}
	wg.Add(1)
	go appendRec(0)
	<-h.started
	for i := 1; i < 6; i++ {
		wg.Add(1)
		go appendRec(i)
	}
	// Wait for the five to queue behind the commit in flight.
	for deadline := time.Now().Add(10 * time.Second); ; {
		l.mu.Lock()
		queued := bytes.Count(l.next.records, []byte("\n"))
		l.mu.Unlock()
		if queued == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writers queued, want 5", queued)
		}
		time.Sleep(time.Millisecond)
	}
	h.release <- struct{}{}
	file := <-h.started // the second commit
	h.release <- struct{}{}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := h.calls.Load(); n != 2 {
		t.Errorf("%d fdatasyncs for six writers, five of them arriving during the first: want 2", n)
	}
	for i := range 6 {
		if rec := fmt.Appendf(nil, "record %d\n", i); !bytes.Contains(file, rec) {
			t.Errorf("the log does not hold %q when the second commit syncs:\n%q", rec, bytes.TrimRight(file, "\x00"))
		}
	}
}

// A lone writer commits at once, and the log wraps around at its end.
func TestWriteLog_WrapsAroundAtItsEnd(t *testing.T) {
	l := newTestLog(t)
	l.end = logSize - 3
	if err := l.append([]byte("wrapped")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 8)
	if _, err := l.file.ReadAt(got, 0); err != nil {
		t.Fatal(err)
	}
	if string(got) != "wrapped\n" || l.end != 8 {
		t.Errorf("the log starts with %q and goes on at %d, want %q and 8", got, l.end, "wrapped\n")
	}
}
