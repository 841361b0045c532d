package stream_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/testkit/storetest"
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

// run runs a consumer until stop is called. It reads the stream through the engine's
// in-process Streams API, as serve does; ddb's tests check it answers as the SDK's client.
func (tb *table) run(t *testing.T, name string, s *seen) (stop func()) {
	t.Helper()
	c := &stream.Consumer{Name: name, Streams: tb.engine.StreamsAPI(), Store: tb.store, Handle: s.handle, Poll: 5 * time.Millisecond}
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

// checkpointed waits for consumer name's first checkpoint and returns its checkpoints. A
// consumer saves a batch's checkpoint after handling it: a test that stopped the consumer as
// soon as the handler saw the batch could stop it before the save, however rarely.
func (tb *table) checkpointed(t *testing.T, name string) map[string]dynamo.Checkpoint {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		cps, err := tb.store.Checkpoints(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if len(cps) > 0 {
			return cps
		}
		if time.Now().After(deadline) {
			t.Fatalf("consumer %s saved no checkpoint", name)
		}
	}
}

func TestConsumer_ResumesAtItsCheckpoint(t *testing.T) {
	tb := newTable(t)
	tb.createUsers(t, "a1", "a2", "a3")
	first := &seen{}
	stop := tb.run(t, "c", first)
	waitFor(t, first, []string{"a1", "a2", "a3"})
	tb.checkpointed(t, "c") // one batch: the users were all written before the consumer started
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
	deadline := time.Now().Add(10 * time.Second)
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
		if time.Now().After(deadline) {
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

// TestConsumer_FollowsShardsInOrder: on an engine whose shards close every few milliseconds,
// the changes of one item spread over a chain of shards arrive complete and in the order they
// were made: a child shard is read only after its parent.
func TestConsumer_FollowsShardsInOrder(t *testing.T) {
	e, err := ddb.Open(t.TempDir(), &ddb.Options{StreamShardDuration: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	store := dynamo.New(e.Client(), "photos")
	if err := store.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateUser(context.Background(), "ann", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var counts []int
	handle := func(_ context.Context, changes []domain.Change) error {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range changes {
			if u, ok := c.New.(domain.User); ok && u.Username == "ann" {
				counts = append(counts, u.FollowerCount)
			}
		}
		return nil
	}
	const follows = 30
	for i := 0; i < follows; i++ {
		follower := fmt.Sprintf("f%02d", i)
		if _, err := store.CreateUser(context.Background(), follower, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Follow(context.Background(), domain.FriendshipKey{Follower: follower, Followed: "ann"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // the writes span several shards
	}
	c := &stream.Consumer{Name: "c", Streams: e.StreamsAPI(), Store: store, Handle: handle, Poll: 5 * time.Millisecond, Rescan: 10 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() { cancel(); <-done }()

	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		got := slices.Clone(counts)
		mu.Unlock()
		if len(got) >= follows+1 {
			want := make([]int, follows+1)
			for i := range want {
				want[i] = i
			}
			if !slices.Equal(got, want) {
				t.Fatalf("ann's follower counts arrived as %v, want 0 to %d in order", got, follows)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10s the consumer saw %v", got)
		}
		time.Sleep(5 * time.Millisecond)
	}
	out, err := e.StreamsClient().DescribeStream(context.Background(), describeInput(t, store))
	if err != nil || len(out.StreamDescription.Shards) < 3 {
		t.Fatalf("the writes spanned %d shards (%v); the test needs several", len(out.StreamDescription.Shards), err)
	}
}

func describeInput(t *testing.T, store *dynamo.Store) *dynamodbstreams.DescribeStreamInput {
	t.Helper()
	arn, err := store.StreamARN(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &dynamodbstreams.DescribeStreamInput{StreamArn: &arn}
}

// A checkpoint is an item of the table, so saving one writes a record to the stream. A consumer
// that checkpointed after a batch of only such records would find its own record on the next
// read, save again, and never rest: after a change, a named consumer's checkpoint must settle.
func TestConsumer_RestsAfterItsOwnCheckpoint(t *testing.T) {
	tb := newTable(t)
	var s seen
	defer tb.run(t, "feed", &s)()
	tb.createUsers(t, "ann")
	waitFor(t, &s, []string{"ann"})
	// The checkpoint of the batch with ann is saved after ann is handled; however slow the
	// machine, wait for it rather than for a fixed time.
	before := tb.checkpointed(t, "feed")
	time.Sleep(200 * time.Millisecond) // forty polls
	if after := tb.checkpointed(t, "feed"); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("with nothing written, the checkpoint moved from %v to %v: the consumer reads its own checkpoints", before, after)
	}
}

// TestConsumer_CaughtUpAfterTheBacklog: a named consumer started on a stream that already
// holds changes says it has caught up only once it has handled all of them (more than one
// GetRecords holds), and says it once.
func TestConsumer_CaughtUpAfterTheBacklog(t *testing.T) {
	tb := newTable(t)
	var backlog []string
	for i := range 1500 { // a GetRecords returns at most 1,000 records
		backlog = append(backlog, fmt.Sprintf("user%04d", i))
	}
	tb.createUsers(t, backlog...)

	var s seen
	caughtUp := make(chan []string, 2)
	c := &stream.Consumer{Name: "feed", Streams: tb.engine.StreamsAPI(), Store: tb.store, Handle: s.handle, Poll: 5 * time.Millisecond,
		CaughtUp: func() { caughtUp <- s.list() }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	stop := sync.OnceFunc(func() {
		cancel()
		<-done
	})
	defer stop()

	select {
	case handled := <-caughtUp:
		if !slices.Equal(handled, backlog) {
			t.Fatalf("caught up having handled %d changes, want the whole backlog of %d", len(handled), len(backlog))
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("not caught up after 10s; handled %d of %d", len(s.list()), len(backlog))
	}
	tb.createUsers(t, "later")
	waitFor(t, &s, append(backlog, "later"))
	stop()
	if n := len(caughtUp); n != 0 {
		t.Errorf("CaughtUp was called %d more times", n)
	}
}

// TestConsumer_CaughtUpWithNothingToRead: a consumer whose stream holds nothing new, resumed
// at its checkpoint or unnamed at the newest record, is caught up at once.
func TestConsumer_CaughtUpWithNothingToRead(t *testing.T) {
	tb := newTable(t)
	tb.createUsers(t, "ann")
	var s seen
	stop := tb.run(t, "feed", &s)
	waitFor(t, &s, []string{"ann"})
	stop()

	for _, name := range []string{"feed", ""} {
		caughtUp := make(chan struct{})
		c := &stream.Consumer{Name: name, Streams: tb.engine.StreamsAPI(), Store: tb.store, Handle: s.handle, Poll: 5 * time.Millisecond,
			CaughtUp: func() { close(caughtUp) }}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- c.Run(ctx) }()
		select {
		case <-caughtUp:
		case <-time.After(10 * time.Second):
			t.Errorf("consumer %q: not caught up after 10s with nothing to read", name)
		}
		cancel()
		<-done
	}
}

// TestConsumer_CaughtUpOnABusyStream: on a stream written to all the time, where a GetRecords
// may never come back empty, the consumer still says it has caught up once it has handled the
// backlog it started with.
func TestConsumer_CaughtUpOnABusyStream(t *testing.T) {
	tb := newTable(t)
	var backlog []string
	for i := range 1500 {
		backlog = append(backlog, fmt.Sprintf("user%04d", i))
	}
	tb.createUsers(t, backlog...)

	var s seen
	// A handler slower than the writer, as a fan-out to many followers is: by the time the
	// consumer asks for more, more has been written.
	slow := func(ctx context.Context, changes []domain.Change) error {
		time.Sleep(10 * time.Millisecond)
		return s.handle(ctx, changes)
	}
	caughtUp := make(chan []string, 1)
	c := &stream.Consumer{Name: "feed", Streams: tb.engine.StreamsAPI(), Store: tb.store, Handle: slow, Poll: 5 * time.Millisecond,
		CaughtUp: func() { caughtUp <- s.list() }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writing := make(chan struct{})
	go func() { // a writer that does not pause until the consumer has caught up
		defer close(writing)
		for i := 0; ctx.Err() == nil; i++ {
			if _, err := tb.store.CreateUser(ctx, fmt.Sprintf("busy%06d", i), domain.Profile{}); err != nil && ctx.Err() == nil {
				t.Error(err)
				return
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()

	select {
	case handled := <-caughtUp:
		if len(handled) < len(backlog) || !slices.Equal(handled[:len(backlog)], backlog) {
			t.Errorf("caught up having handled %d changes, want the whole backlog of %d first", len(handled), len(backlog))
		}
	case <-time.After(20 * time.Second):
		t.Errorf("not caught up after 20s of a busy stream; handled %d", len(s.list()))
	}
	cancel()
	<-writing
	<-done
}

// emptyPortions reads the stream as DynamoDB Streams may answer it: a GetRecords may answer no
// record where the part of the shard its iterator points to holds none, though records follow
// ("it might take multiple calls to get to a portion of the shard that contains stream
// records"). Every iterator is answered empty twice before the engine answers it.
type emptyPortions struct {
	stream.API
	mu    sync.Mutex
	asked map[string]int
}

func (e *emptyPortions) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, opts ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	e.mu.Lock()
	it := *in.ShardIterator
	e.asked[it]++
	empty := e.asked[it] <= 2
	e.mu.Unlock()
	if empty {
		return &dynamodbstreams.GetRecordsOutput{NextShardIterator: &it}, nil
	}
	return e.API.GetRecords(ctx, in, opts...)
}

// TestConsumer_CaughtUpPastEmptyAnswers: an empty answer is not the shard's end when records
// follow it; the consumer says it has caught up only once it has handled the backlog.
func TestConsumer_CaughtUpPastEmptyAnswers(t *testing.T) {
	tb := newTable(t)
	backlog := []string{"ann", "bob", "cy"}
	tb.createUsers(t, backlog...)

	var s seen
	caughtUp := make(chan []string, 1)
	c := &stream.Consumer{Name: "feed", Streams: &emptyPortions{API: tb.engine.StreamsAPI(), asked: map[string]int{}}, Store: tb.store,
		Handle: s.handle, Poll: 5 * time.Millisecond, CaughtUp: func() { caughtUp <- s.list() }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()

	select {
	case handled := <-caughtUp:
		if !slices.Equal(handled, backlog) {
			t.Fatalf("caught up having handled %v, want the backlog %v", handled, backlog)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("not caught up after 10s; handled %v", s.list())
	}
}
