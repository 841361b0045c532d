package stream_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/storetest"
	"github.com/quickphotos/quickphotos/stream"
)

// table is a table on a new embedded engine, with its store and stream client.
type table struct {
	engine *ddb.Engine
	store  *dynamo.Store
}

func newTable(t *testing.T) *table {
	t.Helper()
	store, e := storetest.New(t)
	return &table{engine: e, store: store}
}

func (tb *table) createUsers(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := tb.store.CreateUser(context.Background(), n, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
	}
}

// seen collects the usernames of the users a consumer saw added, in order.
type seen struct {
	mu    sync.Mutex
	names []string
	fail  int // how many calls to refuse before accepting
	calls int
}

func (s *seen) handle(_ context.Context, changes []domain.Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.fail > 0 {
		s.fail--
		return errors.New("refused for the test")
	}
	for _, c := range changes {
		if u, ok := c.New.(domain.User); ok && c.Op == domain.Added {
			s.names = append(s.names, u.Username)
		}
	}
	return nil
}

func (s *seen) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.names)
}

// run runs a consumer until stop is called.
func (tb *table) run(t *testing.T, name string, s *seen) (stop func()) {
	t.Helper()
	c := &stream.Consumer{Name: name, Streams: tb.engine.StreamsClient(), Store: tb.store, Handle: s.handle, Poll: 5 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	}
}

func waitFor(t *testing.T, s *seen, want []string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Equal(s.list(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the consumer saw %v, want %v", s.list(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestConsumer_ResumesAtItsCheckpoint(t *testing.T) {
	tb := newTable(t)
	tb.createUsers(t, "a1", "a2", "a3")
	first := &seen{}
	stop := tb.run(t, "c", first)
	waitFor(t, first, []string{"a1", "a2", "a3"})
	stop()

	tb.createUsers(t, "b1", "b2")
	again := &seen{}
	stop = tb.run(t, "c", again)
	defer stop()
	waitFor(t, again, []string{"b1", "b2"}) // nothing before the checkpoint comes again

	other := &seen{}
	stopOther := tb.run(t, "another", other)
	defer stopOther()
	waitFor(t, other, []string{"a1", "a2", "a3", "b1", "b2"}) // another name has its own checkpoints
}

func TestConsumer_RetriesAFailedBatch(t *testing.T) {
	tb := newTable(t)
	tb.createUsers(t, "a1", "a2")
	s := &seen{fail: 2}
	stop := tb.run(t, "c", s)
	defer stop()
	waitFor(t, s, []string{"a1", "a2"})
	if s.calls < 3 {
		t.Errorf("the handler was called %d times, want the batch again after each of 2 failures", s.calls)
	}
}

func TestConsumer_UnnamedStartsAtTheNewest(t *testing.T) {
	tb := newTable(t)
	tb.createUsers(t, "before")
	s := &seen{}
	stop := tb.run(t, "", s)
	defer stop()
	// The reader gets its LATEST iterator a moment after Run starts: write until it sees one.
	for i := 0; ; i++ {
		name := fmt.Sprintf("after%d", i)
		tb.createUsers(t, name)
		time.Sleep(20 * time.Millisecond)
		if got := s.list(); len(got) > 0 {
			if slices.Contains(got, "before") {
				t.Fatalf("an unnamed consumer saw %v, written before it started", got)
			}
			break
		}
		if i > 200 {
			t.Fatal("an unnamed consumer saw nothing written after it started")
		}
	}
	cps, err := tb.store.Checkpoints(context.Background(), "")
	if err != nil || len(cps) != 0 {
		t.Errorf("an unnamed consumer left checkpoints %v, %v", cps, err)
	}
}

func TestConsumer_TableWithoutStream(t *testing.T) {
	e := storetest.Engine(t)
	store := dynamo.New(e.Client(), "photos")
	c := &stream.Consumer{Name: "c", Streams: e.StreamsClient(), Store: store, Handle: (&seen{}).handle}
	if err := c.Run(context.Background()); err == nil {
		t.Fatal("Run on a table that does not exist succeeded")
	}
}
