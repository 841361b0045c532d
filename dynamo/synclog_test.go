package dynamo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/domain"
)

func TestSyncKeys(t *testing.T) {
	for _, l := range []domain.SyncLog{{User: "ann"}, {User: "ann", Public: true}, {User: "a.b-c_d"}} {
		got, ok := syncLogFromPK(syncPK(l))
		if !ok || got != l {
			t.Errorf("log %+v read back as %+v, %v", l, got, ok)
		}
		prev := ""
		for _, n := range []uint64{1, 2, 9, 10, 99, 100, 1 << 40} {
			k := syncEntryKey(l, n)
			if seq, ok := syncSeqFromSK(k.SK); !ok || seq != n {
				t.Errorf("entry %d of %+v read back as %d, %v", n, l, seq, ok)
			}
			if k.SK <= prev {
				t.Errorf("entry %d sorts before the one before it: %q <= %q", n, k.SK, prev)
			}
			if low, high := syncEntryRange(l, n-1); k.SK < low || k.SK > high {
				t.Errorf("entry %d outside the range after %d: %q not in [%q, %q]", n, n-1, k.SK, low, high)
			}
			prev = k.SK
		}
		if head := syncHeadKey(l).SK; head >= syncEntryKey(l, 1).SK || syncSeenKey(l, "x").SK >= syncEntryKey(l, 1).SK {
			t.Errorf("the head or a record of %+v sorts among the entries", l)
		}
	}
	for _, sk := range []string{"E#1#ann", "E#00000000000000000000#ann", "E#0000000000000000000x#ann", "E#00000000000000000001", "#HEAD#ann"} {
		if _, ok := syncSeqFromSK(sk); ok {
			t.Errorf("%q read as an entry", sk)
		}
	}
}

// TestSync_LateWritersAreNeitherSkippedNorDoubled: writers append to one log at once, each
// with a clock of its own (up to an hour behind or ahead), some delivering their changes
// twice, while a reader pages from its cursor. A writer that read the head before another
// appended is late: its append fails and takes later positions. The reader, paging to the end
// after the writers are done, has seen every change exactly once.
func TestSync_LateWritersAreNeitherSkippedNorDoubled(t *testing.T) {
	api, base := embedded(t)
	ctx := context.Background()
	const writers, changes = 6, 40
	reader := "ann"
	log := domain.SyncLog{User: reader}
	start, err := base.SyncChanges(ctx, reader, "", 10, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		store := New(api, base.table)
		skew := time.Duration(w-writers/2) * 20 * time.Minute
		store.now = func() time.Time { return time.Now().Add(skew) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(w), 1))
			for i := range changes {
				a := domain.SyncAppend{Log: log, Change: fmt.Sprintf("w%d-c%d", w, i), Entries: []domain.SyncEntry{{
					Object: domain.PhotoKey{Owner: fmt.Sprintf("w%d", w), Timestamp: apitestTimestamp(i)}, Op: domain.Upserted,
				}}}
				for range 1 + rnd.IntN(2) { // delivered once or twice
					if err := store.AppendSync(ctx, []domain.SyncAppend{a}, time.Hour); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	// Read while they write, from the cursor of each page.
	seen := map[string]int{}
	cursor := start.End
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	read := func() {
		for {
			page, err := base.SyncChanges(ctx, reader, cursor, 1+rand.IntN(10), 2*time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page.Entries {
				seen[domain.NodeID(e.Object)]++
			}
			cursor = page.End
			if !page.More {
				return
			}
		}
	}
	for writing := true; writing; {
		select {
		case <-done:
			writing = false
		default:
		}
		read()
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	read()
	if len(seen) != writers*changes {
		t.Errorf("the reader saw %d changes, want %d", len(seen), writers*changes)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", id, n)
		}
	}
	head, err := base.SyncHead(ctx, log)
	if err != nil || head != writers*changes {
		t.Errorf("the log's head is at %d (%v), want %d: a change delivered twice was added twice", head, err, writers*changes)
	}
}

func apitestTimestamp(i int) string { return fmt.Sprintf("2024-01-01T00:%02d:%02d", i/60, i%60) }

func TestFoldSync(t *testing.T) {
	f := domain.FriendshipKey{Follower: "ann", Followed: "bob"}
	p := domain.PhotoKey{Owner: "bob", Timestamp: "2024-01-01T00:00:00"}
	e := func(k domain.NodeKey, op domain.SyncOp) domain.SyncEntry { return domain.SyncEntry{Object: k, Op: op} }
	for _, tc := range []struct {
		name       string
		in, want   []domain.SyncEntry
		wantCursor []uint64
	}{
		{"an object several times: its last change",
			[]domain.SyncEntry{e(p, domain.Upserted), e(f, domain.Upserted), e(p, domain.Deleted)},
			[]domain.SyncEntry{e(f, domain.Upserted), e(p, domain.Deleted)}, []uint64{2, 3}},
		{"an unfollow then a follow: both",
			[]domain.SyncEntry{e(f, domain.Upserted), e(f, domain.Deleted), e(p, domain.Deleted), e(f, domain.Upserted)},
			[]domain.SyncEntry{e(f, domain.Deleted), e(p, domain.Deleted), e(f, domain.Upserted)}, []uint64{2, 3, 4}},
		{"a follow then an unfollow: the unfollow",
			[]domain.SyncEntry{e(f, domain.Upserted), e(f, domain.Deleted)},
			[]domain.SyncEntry{e(f, domain.Deleted)}, []uint64{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cursors := make([]syncCursor, len(tc.in))
			for i := range cursors {
				cursors[i].Own = uint64(i + 1)
			}
			got, gotCursors := foldSync(tc.in, cursors)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("folded to %v, want %v", got, tc.want)
			}
			for i, c := range gotCursors {
				if c.Own != tc.wantCursor[i] {
					t.Errorf("change %d has the cursor at %d, want %d", i, c.Own, tc.wantCursor[i])
				}
			}
		})
	}
}

// TestSync_APublicLogReadFromItsStart: a follower whose cursor holds no position in a popular
// user's public log reads it from the position its mark gives (the log's start when the user
// became popular); entries expired at that start are passed over, not taken for a lost cursor.
func TestSync_APublicLogReadFromItsStart(t *testing.T) {
	engine, s := embedded(t)
	api := engine.(interface {
		DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	})
	ctx := context.Background()
	start, err := s.SyncChanges(ctx, "ann", "", 10, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	star := domain.SyncLog{User: "star", Public: true}
	s.now = func() time.Time { return time.Now().Add(-10 * time.Minute) }
	for i := range 3 {
		a := domain.SyncAppend{Log: star, Change: fmt.Sprint(i), Entries: []domain.SyncEntry{{
			Object: domain.PhotoKey{Owner: "star", Timestamp: apitestTimestamp(i)}, Op: domain.Upserted}}}
		if err := s.AppendSync(ctx, []domain.SyncAppend{a}, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	s.now = time.Now
	gone := syncEntryKey(star, 1) // expired, and removed by the TTL
	if _, err := api.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &s.table, Key: gone.item()}); err != nil {
		t.Fatal(err)
	}
	if err := s.FollowPopular(ctx, "star", []string{"ann"}, 0); err != nil {
		t.Fatal(err)
	}
	page, err := s.SyncChanges(ctx, "ann", start.End, 10, time.Hour)
	if err != nil {
		t.Fatalf("reading a public log whose first entry expired: %v", err)
	}
	if len(page.Entries) != 2 {
		t.Errorf("%d changes, want the 2 left in star's public log", len(page.Entries))
	}
}
