package dynamo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
			if low, high := syncEntryRange(l, n-1, 0); k.SK < low || k.SK > high {
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
	var objects atomic.Int64
	errs := make(chan error, writers)
	for w := range writers {
		store := New(api, base.table)
		skew := time.Duration(w-writers/2) * 20 * time.Minute
		store.now = func() time.Time { return time.Now().Add(skew) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(w), 1))
			// Changes of one to three entries (an item holds a transaction's entries to a
			// log, so a reader's cursor falls within items), one or two to an append.
			var pending []domain.SyncAppend
			for i := range changes {
				a := domain.SyncAppend{Log: log, Change: fmt.Sprintf("w%d-c%d", w, i)}
				for j := range 1 + rnd.IntN(3) {
					a.Entries = append(a.Entries, domain.SyncEntry{
						Object: domain.PhotoKey{Owner: fmt.Sprintf("w%d", w), Timestamp: apitestTimestamp(i*3 + j)}, Op: domain.Upserted,
					})
					objects.Add(1)
				}
				if pending = append(pending, a); len(pending) < 2 && rnd.IntN(2) == 0 && i < changes-1 {
					continue
				}
				for range 1 + rnd.IntN(2) { // delivered once or twice
					if err := store.AppendSync(ctx, pending, time.Hour); err != nil {
						errs <- err
						return
					}
				}
				pending = nil
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
	if int64(len(seen)) != objects.Load() {
		t.Errorf("the reader saw %d changes, want %d", len(seen), objects.Load())
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", id, n)
		}
	}
	head, err := base.SyncHead(ctx, log)
	if err != nil || int64(head) != objects.Load() {
		t.Errorf("the log's head is at %d (%v), want %d: a change delivered twice was added twice", head, err, objects.Load())
	}
}

func apitestTimestamp(i int) string {
	return fmt.Sprintf("2024-01-01T%02d:%02d:%02d", i/3600, i/60%60, i%60)
}

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

// TestSyncGroups: whatever the appends, every group fits one transaction as syncWrites spells
// it and leaves no room for the next group's first append, every append is in one group in
// its order, and a log's entries share items.
func TestSyncGroups(t *testing.T) {
	entries := func(n int) []domain.SyncEntry {
		es := make([]domain.SyncEntry, n)
		for i := range es {
			es[i] = domain.SyncEntry{Object: domain.UserKey{Username: fmt.Sprintf("u%d", i)}, Op: domain.Upserted}
		}
		return es
	}
	for seed := range uint64(300) {
		rnd := rand.New(rand.NewPCG(seed, 2))
		var appends []domain.SyncAppend
		for i := range rnd.IntN(120) {
			l := domain.SyncLog{User: fmt.Sprintf("u%d", rnd.IntN(1+rnd.IntN(40)))}
			n := 1 + rnd.IntN(3)
			if rnd.IntN(10) == 0 {
				n = 1 + rnd.IntN(MaxSyncAppend)
			}
			appends = append(appends, domain.SyncAppend{Log: l, Change: fmt.Sprint(i), Entries: entries(n)})
		}
		slices.SortStableFunc(appends, func(a, b domain.SyncAppend) int { return strings.Compare(syncLogName(a.Log), syncLogName(b.Log)) })
		var flat []domain.SyncAppend
		groups := syncGroups(appends)
		for i, g := range groups {
			// Greedy: the next group's first append would not have fitted.
			if i+1 < len(groups) {
				more := append(slices.Clone(g), groups[i+1][0])
				heads := map[domain.SyncLog]uint64{}
				if writes, _ := syncWrites(more, heads, time.Now(), time.Hour); len(writes) <= maxTransactItems {
					t.Fatalf("seed %d: group %d of %d ends with room for the next append (%d actions with it)", seed, i, len(groups), len(writes))
				}
			}
			heads := map[domain.SyncLog]uint64{}
			for _, a := range g {
				heads[a.Log] = 7
			}
			writes, seenAt := syncWrites(g, heads, time.Now(), time.Hour)
			if len(writes) > maxTransactItems || len(writes) == 0 || len(seenAt) != len(g) {
				t.Fatalf("seed %d: a group of %d appends is %d actions, %d records", seed, len(g), len(writes), len(seenAt))
			}
			items, perLog := 0, map[domain.SyncLog]int{}
			for _, a := range g {
				perLog[a.Log] += len(a.Entries)
			}
			for _, n := range perLog {
				items += 1 + (n+maxItemEntries-1)/maxItemEntries
			}
			if want := len(g) + items; len(writes) != want {
				t.Fatalf("seed %d: %d actions, want %d (a record per change, a head per log, the fewest entry items)", seed, len(writes), want)
			}
			flat = append(flat, g...)
		}
		if len(flat) != len(appends) {
			t.Fatalf("seed %d: %d appends grouped, want %d", seed, len(flat), len(appends))
		}
		for i := range flat {
			if flat[i].Change != appends[i].Change {
				t.Fatalf("seed %d: append %d is %s, want %s", seed, i, flat[i].Change, appends[i].Change)
			}
		}
	}
}

// TestSyncWrites_Expiry: entries live the retention and a day; the records of changes, which
// only a redelivery reads, a stream's 24 hours and a day, whatever the retention.
func TestSyncWrites_Expiry(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := domain.SyncLog{User: "ann"}
	group := []domain.SyncAppend{{Log: l, Change: "c1", Entries: []domain.SyncEntry{
		{Object: domain.UserKey{Username: "bob"}, Op: domain.Upserted, Version: 3},
		{Object: domain.UserKey{Username: "cat"}, Op: domain.Deleted},
	}}}
	for _, retention := range []time.Duration{time.Hour, 7 * 24 * time.Hour, 365 * 24 * time.Hour} {
		writes, seenAt := syncWrites(group, map[domain.SyncLog]uint64{l: 4}, now, retention)
		if len(writes) != 3 {
			t.Fatalf("%d actions, want a record, one item of both entries and the head", len(writes))
		}
		expiry := func(i int) time.Duration {
			return time.Duration(getInt(writes[i].Put.Item, attrExpiresAt)-int(now.Unix())) * time.Second
		}
		if got, want := expiry(seenAt[0]), 48*time.Hour; got != want {
			t.Errorf("retention %s: the record of the change expires after %s, want %s", retention, got, want)
		}
		if got, want := expiry(1), retention+24*time.Hour; got != want {
			t.Errorf("retention %s: the entries expire after %s, want %s", retention, got, want)
		}
		es, last, err := syncEntriesFromItem(writes[1].Put.Item)
		if err != nil || last != 6 || len(es) != 2 || es[0].Object != (domain.UserKey{Username: "bob"}) || es[0].Version != 3 || es[1].Op != domain.Deleted {
			t.Errorf("the entries read back as %+v at %d (%v)", es, last, err)
		}
	}
}

func TestSyncEntriesFromItem_Malformed(t *testing.T) {
	good := func() Item {
		return syncEntryItem(domain.SyncLog{User: "ann"}, 2, []domain.SyncEntry{
			{Object: domain.UserKey{Username: "bob"}, Op: domain.Upserted},
			{Object: domain.UserKey{Username: "cat"}, Op: domain.Upserted},
		}, "1800000000000", unixTime(time.Unix(1_800_000_000, 0)))
	}
	if _, _, err := syncEntriesFromItem(good()); err != nil {
		t.Fatalf("a well-formed item: %v", err)
	}
	for name, spoil := range map[string]func(Item){
		"entries not a list":       func(i Item) { i[attrSyncEntries] = str("x") },
		"no entries in the list":   func(i Item) { i[attrSyncEntries] = &types.AttributeValueMemberL{} },
		"more entries than before": func(i Item) { k := syncEntryKey(domain.SyncLog{User: "ann"}, 1); i[attrSK] = str(k.SK) },
		"an entry not a map":       func(i Item) { i[attrSyncEntries].(*types.AttributeValueMemberL).Value[1] = str("x") },
		"an entry with no object": func(i Item) {
			delete(i[attrSyncEntries].(*types.AttributeValueMemberL).Value[0].(*types.AttributeValueMemberM).Value, attrSyncObject)
		},
		"an entry of no operation": func(i Item) {
			i[attrSyncEntries].(*types.AttributeValueMemberL).Value[0].(*types.AttributeValueMemberM).Value[attrSyncOp] = str("moved")
		},
		"no time": func(i Item) { delete(i, attrSyncAt) },
	} {
		item := good()
		spoil(item)
		if _, _, err := syncEntriesFromItem(item); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

// TestSync_APageReadsNoMoreThanAPageAndAnItem: an item holds up to maxItemEntries entries and
// a Query's limit counts items, so the read of a page ends at the item that holds the entry
// after it: a page of one from a log of five full items reads the item that holds it, not the
// two items the limit allows.
func TestSync_APageReadsNoMoreThanAPageAndAnItem(t *testing.T) {
	_, s := embedded(t)
	ctx := context.Background()
	l := domain.SyncLog{User: "ann"}
	for i := range 5 {
		entries := make([]domain.SyncEntry, maxItemEntries)
		for j := range entries {
			entries[j] = domain.SyncEntry{Object: domain.PhotoKey{Owner: "bob", Timestamp: apitestTimestamp(i*maxItemEntries + j)}, Op: domain.Upserted}
		}
		if err := s.AppendSync(ctx, []domain.SyncAppend{{Log: l, Change: fmt.Sprint(i), Entries: entries}}, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	read := func(after uint64, want int) (int, float64) {
		ctx, cost := WithCost(ctx)
		entries, more, err := s.readSyncLog(ctx, l, after, want, time.Now(), false)
		if err != nil || !more || len(entries) != want || entries[0].seq != after+1 {
			t.Fatalf("after %d, %d: %d entries from %+v, more %v, %v", after, want, len(entries), entries[:min(1, len(entries))], more, err)
		}
		return cost.Snapshot().Requests, cost.Snapshot().ReadCapacityUnits
	}
	_, all := read(0, 4*maxItemEntries) // the five items
	perItem := all / 5
	for _, c := range []struct {
		after uint64
		items float64 // that hold the page and the entry after it
	}{{0, 1}, {50, 1}, {99, 2}, {100, 1}, {250, 1}} {
		requests, units := read(c.after, 1)
		if requests != 1 || units > (c.items+0.5)*perItem {
			t.Errorf("a page of one after %d: %d requests, %.1f read units, want one of %.0f items' %.1f", c.after, requests, units, c.items, c.items*perItem)
		}
	}
}
