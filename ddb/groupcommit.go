package ddb

import (
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Group commit. A durable bbolt commit costs two fsyncs, which bound a
// single writer to a few thousand commits per second whatever the CPU.
// Writers that arrive while a commit is in progress therefore queue up, and
// the next commit runs all of them in one read-write transaction, one after
// the other: each is still atomic and serializable, and each is
// acknowledged only once the shared commit is on disk. A lone writer
// commits at once, as before; bbolt's own DB.Batch would instead wait a
// fixed delay for company.
//
// A group forms by itself only from the writers that arrived during the
// previous commit. When writers come back as soon as they are acknowledged
// (a server's many clients), that leaves a leader alone or nearly so just
// after each commit, and a commit of one costs as much as a commit of
// sixteen: on a disk where a commit takes a millisecond, groups stayed
// near four writers and throughput was a third of what the writers could
// send. So a leader whose group is smaller than the previous one lingers,
// for at most a quarter of the previous commit's time (and never more than
// maxLinger), until as many writers have joined: the writers of the last
// group are on their way back. A lone writer, whose previous group was
// itself, never waits. This is commit_delay with commit_siblings in
// PostgreSQL, with the siblings counted by the last commit.
//
// A write whose function fails (a failed condition, a validation error)
// must not undo the others: as with DB.Batch, the shared transaction is
// rolled back, the failed write is re-run alone by its own goroutine, and
// the others are retried together. Write functions must therefore be safe
// to run more than once, which holds because they keep all their effects
// inside the transaction.

// errRunAlone tells a queued writer to run its function in its own
// transaction; errLead tells it to commit the writers queued behind it.
var (
	errRunAlone = errors.New("ddb: run write alone")
	errLead     = errors.New("ddb: lead the next group commit")
)

// maxLinger bounds how long a leader waits for company.
const maxLinger = 500 * time.Microsecond

// commitQueue holds the writers waiting for the commit in progress.
type commitQueue struct {
	mu      sync.Mutex
	busy    bool // a leader is committing
	pending []*queuedWrite

	// lastSize and lastTook describe the previous commit: how many writers
	// shared it and how long it took.
	lastSize int
	lastTook time.Duration
	// joined, while a leader lingers, is closed once want writers are
	// pending.
	joined chan struct{}
	want   int
}

// enqueue adds w to the writers waiting for the next commit and wakes a
// lingering leader whose group is now complete. q.mu must be held.
func (q *commitQueue) enqueue(w *queuedWrite) {
	q.pending = append(q.pending, w)
	if q.joined != nil && len(q.pending) >= q.want {
		close(q.joined)
		q.joined = nil
	}
}

// gather waits, if the last group was larger than the writers now pending
// plus the leader, for at most a quarter of the last commit's time for as
// many to join, then takes them all as the leader's group. q.mu must be
// held; it is held again on return.
func (q *commitQueue) gather(leader *queuedWrite) []*queuedWrite {
	if want := q.lastSize - 1; len(q.pending) < want {
		if linger := min(q.lastTook/4, maxLinger); linger > 0 {
			joined := make(chan struct{})
			q.joined, q.want = joined, want
			q.mu.Unlock()
			t := time.NewTimer(linger)
			select {
			case <-joined:
			case <-t.C:
			}
			t.Stop()
			q.mu.Lock()
			q.joined = nil
		}
	}
	group := append([]*queuedWrite{leader}, q.pending...)
	q.pending = nil
	return group
}

// done records the size and duration of a commit, for the next leader's
// gather.
func (q *commitQueue) done(size int, took time.Duration) {
	q.mu.Lock()
	q.lastSize, q.lastTook = size, took
	q.mu.Unlock()
}

// queuedWrite is one writer's function and the channel of its result.
type queuedWrite struct {
	fn   func(*bolt.Tx) error
	done chan error
}

// updateGrouped runs fn in a read-write transaction like update, sharing
// the commit with concurrent callers.
func (e *Engine) updateGrouped(fn func(tx *bolt.Tx) error) error {
	q := &e.commits
	w := &queuedWrite{fn: fn, done: make(chan error, 1)}
	q.mu.Lock()
	if q.busy {
		q.enqueue(w)
		q.mu.Unlock()
		switch err := <-w.done; err {
		case errRunAlone:
			return e.update(fn)
		case errLead:
			// Our write is the first of the group we now commit.
		default:
			return err
		}
	} else {
		q.busy = true
		q.mu.Unlock()
	}
	q.mu.Lock()
	group := q.gather(w)
	q.mu.Unlock()
	var (
		acked  []*queuedWrite
		result error
		passed bool
	)
	func() {
		defer func() {
			if !passed {
				e.passLead() // our own write panicked
			}
		}()
		start := time.Now()
		acked, result = e.commitGroup(w, group)
		q.done(len(group), time.Since(start))
		// The next leader starts its transaction before we wake the
		// writers of this one: woken first, they would run ahead of it on
		// a busy machine and leave the database idle.
		passed = true
		e.passLead()
	}()
	for _, a := range acked {
		a.done <- result
	}
	err := <-w.done
	if err == errRunAlone {
		return e.update(fn)
	}
	return err
}

// passLead hands the lead to the first writer queued during our commit,
// so that no caller keeps committing for others indefinitely.
func (e *Engine) passLead() {
	q := &e.commits
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) == 0 {
		q.busy = false
		return
	}
	next := q.pending[0]
	q.pending = q.pending[1:]
	next.done <- errLead
}

// commitGroup runs the writes of group in one transaction and returns the
// writers that shared it, with its result, for the caller to acknowledge.
// A write that fails is told at once to run alone (errRunAlone) and the
// others are retried without it. own is the leader's write: a write left
// alone runs in place if it is the leader's, else in its own goroutine.
func (e *Engine) commitGroup(own *queuedWrite, group []*queuedWrite) ([]*queuedWrite, error) {
	for len(group) > 1 {
		failed := -1
		err := e.update(func(tx *bolt.Tx) error {
			for i, w := range group {
				if err := callSafely(w.fn, tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed < 0 {
			return group, err
		}
		group[failed].done <- errRunAlone
		group = append(group[:failed], group[failed+1:]...)
	}
	if len(group) == 1 && group[0] != own {
		group[0].done <- errRunAlone
		return nil, nil
	}
	return group, e.update(own.fn)
}

// callSafely calls fn, turning a panic into an error so that one writer's
// bug cannot take down the goroutine committing for others (the writer
// then re-runs alone and panics in its own goroutine).
func callSafely(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("ddb: panic in write: %v", r)
		}
	}()
	return fn(tx)
}
