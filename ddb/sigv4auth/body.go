package sigv4auth

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"golang.org/x/sync/semaphore"

	"github.com/quickphotos/quickphotos/ddb"
)

// unknownLengthReserve is what a body of unknown length (chunked) reserves while it is read:
// the limit, and as much again for the buffer growing past it.
const unknownLengthReserve = 2*ddb.MaxRequestBytes + bytes.MinRead

// bodyBudget bounds the memory of the bodies read for their signature at once, as the engine
// bounds its own (Options.RequestMemory): many large requests in parallel wait for memory
// instead of growing the process. A body is held twice while the engine handles it (here and
// in the engine's own copy), each within its budget.
type bodyBudget struct {
	sem *semaphore.Weighted
}

func newBodyBudget(bytes int64) *bodyBudget {
	if bytes <= 0 {
		bytes = ddb.DefaultRequestMemory
	}
	return &bodyBudget{sem: semaphore.NewWeighted(max(bytes, unknownLengthReserve))}
}

// errTooLarge is DynamoDB's 413 answer to a body over its limit, worded as the engine words
// it; size is -1 when the body's length was not declared.
func errTooLarge(size int64) *authError {
	if size < 0 {
		return &authError{typeRequestTooLarge, fmt.Sprintf("Request size exceeded the maximum allowed size of %d bytes", ddb.MaxRequestBytes)}
	}
	return &authError{typeRequestTooLarge, fmt.Sprintf("Request size %d exceeded the maximum allowed size of %d bytes", size, ddb.MaxRequestBytes)}
}

// read reads r's body within ddb.MaxRequestBytes and the budget, and returns it with the
// function that gives its memory back. A body of declared length over the limit is refused
// unread.
func (b *bodyBudget) read(w http.ResponseWriter, r *http.Request) (body []byte, release func(), _ *authError) {
	size := r.ContentLength
	if size > ddb.MaxRequestBytes {
		return nil, nil, errTooLarge(size)
	}
	reserve := size
	if size < 0 {
		reserve = unknownLengthReserve
	}
	if err := b.sem.Acquire(r.Context(), reserve); err != nil {
		return nil, nil, &authError{typeSerialization, "The request was canceled while waiting for memory: " + err.Error()}
	}
	var err error
	if size >= 0 {
		body = make([]byte, size)
		_, err = io.ReadFull(r.Body, body)
	} else {
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, ddb.MaxRequestBytes))
	}
	if err != nil {
		b.sem.Release(reserve)
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, nil, errTooLarge(-1)
		}
		return nil, nil, &authError{typeSerialization, "could not read request body: " + err.Error()}
	}
	if size < 0 {
		kept := int64(cap(body))
		b.sem.Release(reserve - kept)
		reserve = kept
	}
	return body, func() { b.sem.Release(reserve) }, nil
}
