package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// startServer serves env's engine on a free loopback port with opts until the test ends.
// TestBodyBudget: bodies in flight never hold more than the budget; a request waits for its
// share, gives up when its context ends, and every request gives its share back.
func TestBodyBudget(t *testing.T) {
	const budget = unknownLengthReserve // the smallest budget there is
	b := NewBodyBudget(1)
	req := func(ctx context.Context, size int64) *http.Request {
		r, _ := http.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader(make([]byte, size)))
		return r
	}
	var releases []func()
	for _, size := range []int64{engine.MaxRequestBytes, engine.MaxRequestBytes, budget - 2*engine.MaxRequestBytes} {
		_, release, err := b.Read(httptest.NewRecorder(), req(context.Background(), size))
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	if b.tryReserve(1) {
		t.Fatal("bodies filling the budget left room")
	}

	// Another waits, and gives up with its context.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := b.Read(httptest.NewRecorder(), req(ctx, 1)); err == nil {
		t.Fatal("a body was read beyond the budget")
	}

	// Once one is released, the waiting one gets its share.
	done := make(chan error, 1)
	go func() {
		_, release, err := b.Read(httptest.NewRecorder(), req(context.Background(), engine.MaxRequestBytes))
		if err == nil {
			release()
		}
		done <- err
	}()
	releases[0]()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	releases[1]()
	releases[2]()
	if !b.tryReserve(budget) {
		t.Fatal("shares were not given back")
	}
}

// TestBodyBudget_UnknownLength: a body of unknown length reserves what reading it may take,
// keeps only its own size once read, and is cut past the limit with everything given back.
func TestBodyBudget_UnknownLength(t *testing.T) {
	const budget = 2 * unknownLengthReserve
	b := NewBodyBudget(budget)
	chunked := func(size int) *http.Request {
		r, _ := http.NewRequest(http.MethodPost, "/", io.MultiReader(bytes.NewReader(bytes.Repeat([]byte("a"), size))))
		r.ContentLength = -1
		return r
	}
	for _, size := range []int{0, 1, firstBlock, firstBlock + 1, 3*maxBlock + 7, engine.MaxRequestBytes} {
		body, release, err := b.Read(httptest.NewRecorder(), chunked(size))
		if err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		if len(body) != size || bytes.Count(body, []byte("a")) != size {
			t.Fatalf("%d bytes: read %d", size, len(body))
		}
		if held := int64(size); !b.tryReserve(budget-held) || b.tryReserve(budget-held+1) {
			t.Fatalf("%d bytes read: the budget does not hold exactly the body", size)
		}
		release()
	}
	_, _, err := b.Read(httptest.NewRecorder(), chunked(engine.MaxRequestBytes+1))
	var de *engine.Error
	if !errors.As(err, &de) || de.Type != engine.TypeRequestTooLarge {
		t.Fatalf("a chunked body over the limit: %v, want %s", err, engine.TypeRequestTooLarge)
	}
	if !b.tryReserve(budget) {
		t.Fatal("the refused body still holds memory")
	}
}
