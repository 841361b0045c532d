package storage

import (
	"errors"
	"fmt"
	"sync"

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

// commitQueue holds the writers waiting for the commit in progress.
type commitQueue struct {
	mu      sync.Mutex
	busy    bool // a leader is committing
	pending []*queuedWrite
}

// queuedWrite is one writer's function and the channel of its result.
type queuedWrite struct {
	fn   func(*bolt.Tx) error
	done chan error
}

// UpdateGrouped runs fn in a read-write transaction like update, sharing
// the commit with concurrent callers.
func (s *Store) UpdateGrouped(fn func(tx *bolt.Tx) error) error {
	q := &s.commits
	w := &queuedWrite{fn: fn, done: make(chan error, 1)}
	q.mu.Lock()
	if q.busy {
		q.pending = append(q.pending, w)
		q.mu.Unlock()
		switch err := <-w.done; err {
		case errRunAlone:
			return s.Update(fn)
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
	group := append([]*queuedWrite{w}, q.pending...)
	q.pending = nil
	q.mu.Unlock()
	var (
		acked  []*queuedWrite
		result error
		passed bool
	)
	func() {
		defer func() {
			if !passed {
				s.passLead() // our own write panicked
			}
		}()
		acked, result = s.commitGroup(w, group)
		// The next leader starts its transaction before we wake the
		// writers of this one: woken first, they would run ahead of it on
		// a busy machine and leave the database idle.
		passed = true
		s.passLead()
	}()
	for _, a := range acked {
		a.done <- result
	}
	err := <-w.done
	if err == errRunAlone {
		return s.Update(fn)
	}
	return err
}

// passLead hands the lead to the first writer queued during our commit,
// so that no caller keeps committing for others indefinitely.
func (s *Store) passLead() {
	q := &s.commits
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
func (s *Store) commitGroup(own *queuedWrite, group []*queuedWrite) ([]*queuedWrite, error) {
	for len(group) > 1 {
		failed := -1
		err := s.Update(func(tx *bolt.Tx) error {
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
	// One writer is left.
	if group[0] != own {
		group[0].done <- errRunAlone
		return nil, nil
	}
	return group, s.Update(own.fn)
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
