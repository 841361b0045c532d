package wire

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"golang.org/x/sync/semaphore"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// coralServiceNamespace prefixes the __type of the errors the AWS service framework answers
// before an operation runs (InvalidSignatureException, RequestEntityTooLargeException).
const coralServiceNamespace = "com.amazon.coral.service#"

// Reading a body of unknown length (chunked) goes by blocks that double up to maxBlock, so a
// small body costs little; then the blocks are copied into one buffer of the body's size.
const (
	firstBlock = 32 << 10
	maxBlock   = 1 << 20
)

// unknownLengthReserve is what a body of unknown length reserves while it is read: the blocks,
// up to the limit plus the last block's slack, and the buffer they are copied into.
const unknownLengthReserve = 2*(engine.MaxRequestBytes+1) + maxBlock

// BodyBudget bounds the memory that request bodies being read and handled hold at once, so
// that many large requests in parallel queue for memory instead of growing the process: each
// request reserves its body's size before reading it and gives it back when answered. The
// Handler has one; sigv4auth, which reads a body to check its signature before the Handler
// reads it again, has its own.
type BodyBudget struct {
	sem *semaphore.Weighted
}

// DefaultRequestMemory is the default budget of the request bodies in
// flight: four bodies of the largest size at once.
const DefaultRequestMemory = 4 * engine.MaxRequestBytes

// NewBodyBudget returns a budget of bytes (zero means DefaultRequestMemory), raised to what one
// body of unknown length reserves (a smaller budget could never admit it).
func NewBodyBudget(bytes int64) *BodyBudget {
	if bytes <= 0 {
		bytes = DefaultRequestMemory
	}
	return &BodyBudget{sem: semaphore.NewWeighted(max(bytes, unknownLengthReserve))}
}

// errTooLarge is the 413 answer; size is -1 when the body's length was not declared.
func errTooLarge(size int64) *engine.Error {
	msg := fmt.Sprintf("Request size %d exceeded the maximum allowed size of %d bytes", size, engine.MaxRequestBytes)
	if size < 0 {
		msg = fmt.Sprintf("Request size exceeded the maximum allowed size of %d bytes", engine.MaxRequestBytes)
	}
	return &engine.Error{Type: engine.TypeRequestTooLarge, Message: msg}
}

// Read reads r's body within the limit and the budget, and returns it with the function that
// gives its memory back. A body of declared length is refused unread when over the limit, and
// otherwise read into a buffer of exactly that size. One of unknown length (chunked) is cut
// once it passes the limit (http.MaxBytesReader, which also closes the connection after the
// answer), and keeps only its own size reserved once read.
func (b *BodyBudget) Read(w http.ResponseWriter, r *http.Request) (body []byte, release func(), err error) {
	size := r.ContentLength
	if size > engine.MaxRequestBytes {
		return nil, nil, errTooLarge(size)
	}
	reserve := size
	if size < 0 {
		reserve = unknownLengthReserve
	}
	if err := b.sem.Acquire(r.Context(), reserve); err != nil {
		return nil, nil, &engine.Error{Type: engine.TypeRequestCanceled, Message: "The request was canceled while waiting for memory: " + err.Error()}
	}
	if size >= 0 {
		body = make([]byte, size)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			b.sem.Release(reserve)
			return nil, nil, &engine.Error{Type: engine.TypeSerialization, Message: "could not read request body: " + err.Error()}
		}
		return body, func() { b.sem.Release(reserve) }, nil
	}
	body, err = readBlocks(http.MaxBytesReader(w, r.Body, engine.MaxRequestBytes))
	if err != nil {
		b.sem.Release(reserve)
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, nil, errTooLarge(-1)
		}
		return nil, nil, &engine.Error{Type: engine.TypeSerialization, Message: "could not read request body: " + err.Error()}
	}
	kept := int64(len(body))
	b.sem.Release(reserve - kept)
	return body, func() { b.sem.Release(kept) }, nil
}

// readBlocks reads r to its end into doubling blocks, then copies them into one buffer of the
// length read: unlike io.ReadAll, which grows one buffer, it never holds more than the body
// twice over plus one block, which unknownLengthReserve accounts for.
func readBlocks(r io.Reader) ([]byte, error) {
	var blocks [][]byte
	total := 0
	for size, eof := firstBlock, false; !eof; size = min(2*size, maxBlock) {
		block := make([]byte, size)
		n := 0
		for n < size && !eof {
			m, err := r.Read(block[n:])
			n += m
			switch {
			case errors.Is(err, io.EOF):
				eof = true
			case err != nil:
				return nil, err
			}
		}
		blocks = append(blocks, block[:n])
		total += n
	}
	body := make([]byte, 0, total)
	for _, block := range blocks {
		body = append(body, block...)
	}
	return body, nil
}

// tryReserve reports whether n more bytes could be reserved now, for tests of the accounting.
func (b *BodyBudget) tryReserve(n int64) bool {
	if !b.sem.TryAcquire(n) {
		return false
	}
	b.sem.Release(n)
	return true
}
