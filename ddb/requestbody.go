package ddb

import (
	"fmt"
	"io"
	"net/http"

	"golang.org/x/sync/semaphore"
)

// MaxRequestBytes is DynamoDB's limit on a request body: 16 MiB. A larger body is refused
// with HTTP 413 before it is read, as DynamoDB and DynamoDB Local refuse it.
const MaxRequestBytes = 16 << 20

// DefaultRequestMemory is the default of Options.RequestMemory: four bodies of the largest
// size at once.
const DefaultRequestMemory = 4 * MaxRequestBytes

// typeRequestTooLarge is the exception of a body over MaxRequestBytes. DynamoDB Local answers
// 413 with an empty message; a name and a message tell a client what went wrong.
const typeRequestTooLarge = "RequestEntityTooLargeException"

// bodyBudget bounds the memory that request bodies being read and handled hold at once, so
// that many large requests in parallel queue for memory instead of growing the process: each
// request reserves its body's size before reading it and gives it back when answered.
type bodyBudget struct {
	sem *semaphore.Weighted
}

func newBodyBudget(bytes int64) *bodyBudget {
	return &bodyBudget{sem: semaphore.NewWeighted(max(bytes, MaxRequestBytes))}
}

// errTooLarge is the 413 answer.
func errTooLarge(size int64) *Error {
	msg := fmt.Sprintf("Request body of %d bytes exceeds the limit of %d bytes", size, MaxRequestBytes)
	if size < 0 {
		msg = fmt.Sprintf("Request body exceeds the limit of %d bytes", MaxRequestBytes)
	}
	return &Error{Type: typeRequestTooLarge, Message: msg}
}

// read reads r's body within the limit and the budget, and returns it with the function that
// gives its memory back. A body of known length is read into a buffer of exactly that size;
// one of unknown length (chunked) reserves the limit while it is read, then keeps only what
// it used.
func (b *bodyBudget) read(r *http.Request) (body []byte, release func(), err error) {
	size := r.ContentLength
	if size > MaxRequestBytes {
		return nil, nil, errTooLarge(size)
	}
	reserve := size
	if size < 0 {
		reserve = MaxRequestBytes + 1
	}
	if err := b.sem.Acquire(r.Context(), reserve); err != nil {
		return nil, nil, &Error{Type: typeSerialization, Message: "request cancelled while waiting for memory: " + err.Error()}
	}
	if size >= 0 {
		body = make([]byte, size)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			b.sem.Release(reserve)
			return nil, nil, &Error{Type: typeSerialization, Message: "could not read request body: " + err.Error()}
		}
		return body, func() { b.sem.Release(reserve) }, nil
	}
	body, err = io.ReadAll(io.LimitReader(r.Body, MaxRequestBytes+1))
	if err != nil || len(body) > MaxRequestBytes {
		b.sem.Release(reserve)
		if err != nil {
			return nil, nil, &Error{Type: typeSerialization, Message: "could not read request body: " + err.Error()}
		}
		return nil, nil, errTooLarge(-1)
	}
	// Keep only what the body holds: io.ReadAll's slack is garbage once body is copied.
	body = append([]byte(nil), body...)
	kept := int64(len(body))
	b.sem.Release(reserve - kept)
	return body, func() { b.sem.Release(kept) }, nil
}

// tryReserve reports whether n more bytes could be reserved now, for tests of the accounting.
func (b *bodyBudget) tryReserve(n int64) bool {
	if !b.sem.TryAcquire(n) {
		return false
	}
	b.sem.Release(n)
	return true
}
