package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/internal/testkit/dynamodblocal"
)

// earlierRelease is a table as an earlier release left it: keys and timestamps with a Z.
type earlierRelease struct {
	small, large, deleting domain.PhotoKey // the photos, under their old keys
	largeReactions         int
}

// Old-form timestamps and the canonical ones they become.
const (
	oldSmall, newSmall       = "2019-03-03T18:20:10Z", "2019-03-03T18:20:10"
	oldLarge, newLarge       = "2019-03-04T09:00:00Z", "2019-03-04T09:00:00"
	oldDeleting              = "2019-03-05T00:00:00Z"
	feedExpiry               = "1900000000"
	largeReactionsToOneStore = 2*maxMovedWithPhoto + 3 // three steps
)

// backend gives a test a fresh table: the API that reaches it, and a store over it.
type backend func(t *testing.T) (API, *Store)

// embedded is a new in-memory engine.
func embedded(t *testing.T) (API, *Store) {
	t.Helper()
	engine, err := ddb.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	return engine.API(), newTable(t, engine.API(), DefaultTable)
}

// onDynamoDBLocal is a new table of DynamoDB Local instance in.
func onDynamoDBLocal(in *dynamodblocal.Instance) backend {
	var tables atomic.Int64
	return func(t *testing.T) (API, *Store) {
		api := in.Client()
		return api, newTable(t, api, fmt.Sprintf("migrate-%d", tables.Add(1)))
	}
}

func newTable(t *testing.T, api API, table string) *Store {
	t.Helper()
	store := New(api, table)
	if err := store.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	return store
}

// writeEarlierRelease writes, past the store, what an earlier release would have: users, a
// photo with a few reactions, one with more reactions than a transaction moves, one being
// deleted in steps, a friendship, and feed entries, every timestamp with a Z.
func writeEarlierRelease(t *testing.T, api API, table string) earlierRelease {
	t.Helper()
	e := earlierRelease{
		small:          domain.PhotoKey{Owner: "ada", Timestamp: oldSmall},
		large:          domain.PhotoKey{Owner: "ada", Timestamp: oldLarge},
		deleting:       domain.PhotoKey{Owner: "ada", Timestamp: oldDeleting},
		largeReactions: largeReactionsToOneStore,
	}
	var items []Item
	users := []string{"ada", "bob", "cat"}
	for i := range e.largeReactions {
		users = append(users, fmt.Sprintf("fan%03d", i))
	}
	for _, u := range users {
		followers := 0
		if u == "ada" {
			followers = 1
		}
		following := 0
		if u == "bob" {
			following = 1
		}
		items = append(items, userItem(domain.User{Username: u, FollowerCount: followers, FollowingCount: following}))
	}
	react := func(user string, tp domain.ReactionType, photo domain.PhotoKey) {
		items = append(items, reactionItem(domain.Reaction{Username: user, Type: tp, Photo: photo, Timestamp: "2020-01-01T00:00:00Z"}))
	}
	items = append(items, photoItem(domain.Photo{Owner: "ada", Timestamp: oldSmall, URL: "https://cdn.example.com/small.jpg",
		Reactions: domain.ReactionCounts{domain.ReactionHeart: 1, domain.ReactionSmiley: 1}}))
	react("bob", domain.ReactionHeart, e.small)
	react("cat", domain.ReactionSmiley, e.small)
	items = append(items, photoItem(domain.Photo{Owner: "ada", Timestamp: oldLarge, URL: "https://cdn.example.com/large.jpg",
		Reactions: domain.ReactionCounts{domain.ReactionHeart: e.largeReactions, domain.ReactionThumbsUp: 1}}))
	for i := range e.largeReactions {
		react(fmt.Sprintf("fan%03d", i), domain.ReactionHeart, e.large)
	}
	react("bob", domain.ReactionThumbsUp, e.large)
	deleting := photoItem(domain.Photo{Owner: "ada", Timestamp: oldDeleting, URL: "https://cdn.example.com/gone.jpg"})
	deleting[attrDeletion] = str("d1")
	items = append(items, deleting, photoDeletionItem(e.deleting, "d1", "2020-01-01T00:00:00Z"))
	items = append(items, friendshipItem(domain.Friendship{Follower: "bob", Followed: "ada", Timestamp: "2020-01-01T00:00:00Z"}))
	for _, p := range []domain.PhotoKey{e.small, e.large} {
		entry := feedEntryItem(domain.FeedEntry{Reader: "bob", Photo: p}, time.Unix(1900000000, 0))
		items = append(items, entry)
	}
	for _, item := range items {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func canonical(k domain.PhotoKey) domain.PhotoKey { return mustCanonicalPhotoKey(k) }

// checkMigrated checks that every item of e sits under its canonical key with its counters,
// except the photo being deleted, and that Check finds nothing else.
func checkMigrated(t *testing.T, s *Store, e earlierRelease) {
	t.Helper()
	ctx := context.Background()
	small, err := s.GetPhotos(ctx, []domain.PhotoKey{canonical(e.small), canonical(e.large)})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := small[canonical(e.small)]; !ok || p.Reactions[domain.ReactionHeart] != 1 || p.Reactions[domain.ReactionSmiley] != 1 || p.URL != "https://cdn.example.com/small.jpg" {
		t.Errorf("small photo after the migration: %+v", p)
	}
	if p, ok := small[canonical(e.large)]; !ok || p.Reactions[domain.ReactionHeart] != e.largeReactions || p.Reactions[domain.ReactionThumbsUp] != 1 {
		t.Errorf("large photo after the migration: %+v", p)
	}
	reactions := 0
	for after := ""; ; {
		page, err := s.PhotoReactions(ctx, canonical(e.large), domain.PageRequest{First: 100, After: after})
		if err != nil {
			t.Fatal(err)
		}
		reactions += len(page.Items)
		if !page.HasNextPage {
			break
		}
		after = page.EndCursor()
	}
	if reactions != e.largeReactions+1 {
		t.Errorf("the large photo has %d reactions, want %d", reactions, e.largeReactions+1)
	}
	for _, k := range []domain.PhotoKey{e.small, e.large} {
		entry, err := s.getItem(ctx, feedEntryKey(domain.FeedEntry{Reader: "bob", Photo: canonical(k)}))
		if err != nil || entry == nil {
			t.Fatalf("feed entry of %v: %v, %v", k, entry, err)
		}
		if got := getInt(entry, attrExpiresAt); fmt.Sprint(got) != feedExpiry {
			t.Errorf("feed entry of %v expires at %d, want %s as before", k, got, feedExpiry)
		}
	}
	f, err := s.getItem(ctx, friendshipKey(domain.FriendshipKey{Follower: "bob", Followed: "ada"}))
	if ts, _ := getString(f, attrTimestamp); err != nil || ts != "2020-01-01T00:00:00" {
		t.Errorf("friendship timestamp %q, %v", ts, err)
	}
	report, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range report.Problems {
		if !strings.Contains(p.Key.PK+p.Key.SK, oldDeleting) {
			t.Errorf("after the migration: %s", p)
		}
	}
}

func TestMigrateTimestamps_MovesWhatEarlierReleasesWrote(t *testing.T) {
	movesWhatEarlierReleasesWrote(t, embedded)
}

func movesWhatEarlierReleasesWrote(t *testing.T, newStore backend) {
	api, s := newStore(t)
	ctx := context.Background()
	e := writeEarlierRelease(t, api, s.Table())

	before, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	notCanonical := 0
	for _, p := range before.Problems {
		if !strings.Contains(p.Reason, "canonical form") {
			t.Errorf("before: %s", p)
		}
		notCanonical++
	}
	// Three photos, their reactions, a deletion record, a friendship, two feed entries.
	if want := 3 + 2 + e.largeReactions + 1 + 1 + 1 + 2; notCanonical != want {
		t.Errorf("check reported %d items not in canonical form, want %d", notCanonical, want)
	}
	if _, err := s.GetPhotos(ctx, []domain.PhotoKey{canonical(e.small)}); err != nil {
		t.Fatal(err)
	}

	report, err := s.MigrateTimestamps(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"photos": 2, "reactions": 2 + e.largeReactions + 1, "feed entries": 2, "friendships": 1}
	if fmt.Sprint(report.Moved) != fmt.Sprint(want) {
		t.Errorf("moved %v, want %v", report.Moved, want)
	}
	if len(report.Left) != 2 || !strings.Contains(report.Left[0].Reason, "deletion under way") {
		t.Errorf("left %v, want the photo being deleted and its record", report.Left)
	}
	checkMigrated(t, s, e)

	again, err := s.MigrateTimestamps(ctx, nil)
	if err != nil || len(again.Moved) != 0 || len(again.Left) != 2 {
		t.Errorf("a second run: %+v, %v; want nothing moved", again, err)
	}

	// The deletion finishes under its old key, and then nothing is left.
	if n, err := s.FinishDeletions(ctx, 0); err != nil || n != 1 {
		t.Fatalf("finishing the deletion: %d, %v", n, err)
	}
	final, err := s.Check(ctx)
	if err != nil || len(final.Problems) != 0 {
		t.Errorf("after the deletion: %v, %v", final.Problems, err)
	}
}

// killingAPI fails every request after the first budget TransactWriteItems, as a process
// killed there would leave the table.
type killingAPI struct {
	API
	budget int64
}

var errKilled = errors.New("killed")

func (k *killingAPI) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if atomic.AddInt64(&k.budget, -1) < 0 {
		return nil, errKilled
	}
	return k.API.TransactWriteItems(ctx, in, opts...)
}

// TestMigrateTimestamps_KilledAnywhereThenRerun: killed after any number of its transactions,
// the table is consistent (every counter equals its reactions, none orphaned), and a second run
// finishes the migration. Meanwhile a fan whose heart has not moved yet gives it again to the
// photo under its new key, which the API already serves during a move in steps: the fan keeps
// one heart.
func TestMigrateTimestamps_KilledAnywhereThenRerun(t *testing.T) {
	killedAnywhereThenRerun(t, embedded)
}

func killedAnywhereThenRerun(t *testing.T, newStore backend) {
	api, s := newStore(t)
	writeEarlierRelease(t, api, s.Table())
	counting := &killingAPI{API: api, budget: 1 << 30}
	if _, err := New(counting, s.Table()).MigrateTimestamps(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	transactions := int(1<<30 - counting.budget)
	t.Logf("a whole run takes %d transactions", transactions)
	if transactions < 8 {
		t.Fatalf("a whole run took %d transactions; the test needs one that takes steps", transactions)
	}
	twins := 0
	t.Cleanup(func() {
		if twins == 0 {
			t.Error("no kill left a photo moving in steps with a heart still to move")
		}
	})
	for kill := 0; kill < transactions; kill++ {
		t.Run(fmt.Sprint(kill), func(t *testing.T) {
			api, s := newStore(t)
			e := writeEarlierRelease(t, api, s.Table())
			_, err := New(&killingAPI{API: api, budget: int64(kill)}, s.Table()).MigrateTimestamps(context.Background(), nil)
			if !errors.Is(err, errKilled) {
				t.Fatalf("killed after %d transactions: %v", kill, err)
			}
			report, err := s.Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range report.Problems {
				if !strings.Contains(p.Reason, "canonical form") {
					t.Errorf("killed after %d transactions: %s", kill, p)
				}
			}
			fan := domain.ReactionKey{Username: "fan000", Type: domain.ReactionHeart, Photo: canonical(e.large)}
			old, _ := s.getItem(context.Background(), ReactionKey(domain.ReactionKey{Username: "fan000", Type: domain.ReactionHeart, Photo: e.large}))
			if _, err := s.React(context.Background(), fan); err == nil && old != nil {
				twins++
			}
			if _, err := s.MigrateTimestamps(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			checkMigrated(t, s, e)
		})
	}
}

// TestMigrateTimestamps_WhileServing: users react, unreact and react again to the photos by
// their canonical keys while the migration moves them; no write is lost and every counter
// equals its reactions.
func TestMigrateTimestamps_WhileServing(t *testing.T) {
	whileServing(t, embedded)
}

func whileServing(t *testing.T, newStore backend) {
	api, s := newStore(t)
	ctx := context.Background()
	e := writeEarlierRelease(t, api, s.Table())
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reacted atomic.Int64
	for i, user := range []string{"bob", "cat", "fan000", "fan001"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			photo := canonical([]domain.PhotoKey{e.small, e.large}[i%2])
			for {
				select {
				case <-stop:
					return
				default:
				}
				k := domain.ReactionKey{Username: user, Type: domain.ReactionSunglasses, Photo: photo}
				if _, err := s.React(ctx, k); err == nil {
					reacted.Add(1)
					if _, err := s.RemoveReaction(ctx, k); err != nil {
						t.Errorf("remove: %v", err)
					}
				}
				if _, err := s.React(ctx, domain.ReactionKey{Username: user, Type: domain.ReactionHeart, Photo: photo}); err == nil {
					reacted.Add(1)
				}
			}
		}()
	}
	report, err := s.MigrateTimestamps(ctx, nil)
	for reacted.Load() < 10 {
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if report.Moved["photos"] != 2 {
		t.Errorf("moved %v, left %v", report.Moved, report.Left)
	}
	check, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range check.Problems {
		if !strings.Contains(p.Key.PK+p.Key.SK, oldDeleting) {
			t.Errorf("after a migration beside writers: %s", p)
		}
	}
	// Every heart is kept, once: bob's (old, or given again) and fan000's on the small photo;
	// the fans' (fan001's old, or given again) and cat's on the large.
	photos, err := s.GetPhotos(ctx, []domain.PhotoKey{canonical(e.small), canonical(e.large)})
	if err != nil {
		t.Fatal(err)
	}
	if n := photos[canonical(e.small)].Reactions[domain.ReactionHeart]; n != 2 {
		t.Errorf("small photo: %d hearts, want 2", n)
	}
	if n := photos[canonical(e.large)].Reactions[domain.ReactionHeart]; n != e.largeReactions+1 {
		t.Errorf("large photo: %d hearts, want %d", n, e.largeReactions+1)
	}
}

// TestMigrateTimestamps_PhotoTakenAtTheSameInstant: a photo uploaded at the same instant since
// the upgrade keeps its key; the old one is left and reported.
func TestMigrateTimestamps_PhotoTakenAtTheSameInstant(t *testing.T) {
	api, s := embedded(t)
	ctx := context.Background()
	e := writeEarlierRelease(t, api, s.Table())
	if _, err := s.UploadPhoto(ctx, domain.Photo{Owner: "ada", Timestamp: newSmall, URL: "https://cdn.example.com/new.jpg"}); err != nil {
		t.Fatal(err)
	}
	report, err := s.MigrateTimestamps(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var taken bool
	for _, p := range report.Left {
		taken = taken || p.Key == PhotoKey(e.small) && strings.Contains(p.Reason, "same instant")
	}
	if !taken {
		t.Errorf("left %v, want the old photo at the taken instant", report.Left)
	}
	got, err := s.GetPhotos(ctx, []domain.PhotoKey{canonical(e.small)})
	if err != nil || got[canonical(e.small)].URL != "https://cdn.example.com/new.jpg" {
		t.Errorf("the photo uploaded since: %+v, %v", got[canonical(e.small)], err)
	}
}

// TestMigrateTimestamps_OnDynamoDBLocal runs the migration's scenarios against the official
// emulator, whose index is read eventually consistent as DynamoDB's: its conditions and update
// expressions mean the same there. (Where a kill lands is the engine's business no more than
// the store's: the embedded run covers it.)
func TestMigrateTimestamps_OnDynamoDBLocal(t *testing.T) {
	local := onDynamoDBLocal(dynamodblocal.Start(t))
	t.Run("MovesWhatEarlierReleasesWrote", func(t *testing.T) { movesWhatEarlierReleasesWrote(t, local) })
	t.Run("WhileServing", func(t *testing.T) { whileServing(t, local) })
}

// TestMigrateTimestamps_ConsumersSeeNoUploadsOrDeletions: read from the table's stream, a
// migration adds no photo, reaction or feed entry and removes no photo, so the feed's fan-out
// writes nothing and no subscriber hears of a new photo, reaction or feed entry.
func TestMigrateTimestamps_ConsumersSeeNoUploadsOrDeletions(t *testing.T) {
	engine, err := ddb.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	ctx := context.Background()
	s := newTable(t, engine.API(), DefaultTable)
	writeEarlierRelease(t, engine.API(), DefaultTable)
	arn, err := s.StreamARN(ctx)
	if err != nil {
		t.Fatal(err)
	}
	streams := engine.StreamsAPI()
	desc, err := streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: &arn})
	if err != nil {
		t.Fatal(err)
	}
	// Iterators at the end of each shard: what follows is the migration's.
	iterators := map[string]*string{}
	for _, shard := range desc.StreamDescription.Shards {
		it, err := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: &arn, ShardId: shard.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeLatest,
		})
		if err != nil {
			t.Fatal(err)
		}
		iterators[*shard.ShardId] = it.ShardIterator
	}

	if _, err := s.MigrateTimestamps(ctx, nil); err != nil {
		t.Fatal(err)
	}

	seen := map[string]int{}
	for shard, it := range iterators {
		for it != nil {
			out, err := streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it})
			if err != nil {
				t.Fatalf("shard %s: %v", shard, err)
			}
			for _, r := range out.Records {
				c, ok, err := ChangeFromRecord(r)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					seen["skipped"]++
					continue
				}
				kind := fmt.Sprintf("%T %s", c.Entity(), c.Op)
				seen[kind]++
				switch {
				case c.Op == domain.Added:
					t.Errorf("a consumer sees %s: %+v", kind, c.Entity())
				case c.Op == domain.Removed && kind == "domain.Photo removed":
					t.Errorf("a consumer sees a photo removed: %+v", c.Entity())
				}
			}
			if len(out.Records) == 0 {
				break
			}
			it = out.NextShardIterator
		}
	}
	// Skipped: the two photos' insertions and old items' removals, the reactions' and feed
	// entries' insertions.
	if want := 2 + 2 + earlierReactions + 2; seen["skipped"] != want {
		t.Errorf("records seen: %v, want %d skipped", seen, want)
	}
}

// earlierReactions is how many reactions writeEarlierRelease gives the photos that move.
const earlierReactions = 2 + largeReactionsToOneStore + 1
