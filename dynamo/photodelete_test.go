package dynamo

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/domain"
)

// laggingIndex is DynamoDB a moment after a write: a Query on InvertedIndex (a global
// secondary index, eventually consistent only) answers what lag leaves of the table's items,
// while the table itself is up to date.
type laggingIndex struct {
	API
	lag func([]Item) []Item
}

func (l laggingIndex) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	out, err := l.API.Query(ctx, in, opts...)
	if err == nil && aws.ToString(in.IndexName) == InvertedIndexName {
		out.Items = l.lag(out.Items)
	}
	return out, err
}

// The ways the index lags in these tests.
var (
	// notYetIndexed: nothing written lately is in the index, the photo and its reactions.
	notYetIndexed = func([]Item) []Item { return nil }
	// markNotYetIndexed: the index has the photo, but not the deletion id just set on it.
	markNotYetIndexed = func(items []Item) []Item {
		for _, item := range items {
			delete(item, attrDeletion)
		}
		return items
	}
)

// photoWithReactions writes a photo of ada's with n reactions (n a multiple of 4) on s.
func photoWithReactions(t *testing.T, s *Store, n int) domain.PhotoKey {
	t.Helper()
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, "ada", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	p := domain.Photo{Owner: "ada", Timestamp: "2024-01-01T00:00:00", URL: "https://example.com/p.jpg"}
	if _, err := s.UploadPhoto(ctx, p); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n/4; i++ {
		fan := fmt.Sprintf("fan%03d", i)
		if _, err := s.CreateUser(ctx, fan, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
		for _, typ := range domain.ReactionTypes {
			if _, err := s.React(ctx, domain.ReactionKey{Username: fan, Type: typ, Photo: p.Key()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return p.Key()
}

// photoItems counts the items of the photo at key in the table: the photo, its reactions and
// its deletion record, read from the table (a Scan), not the index.
func photoItems(t *testing.T, api API, key domain.PhotoKey) (photo, reactions, records int) {
	t.Helper()
	out, err := api.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(DefaultTable), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range out.Items {
		k := keyOf(item)
		switch {
		case k == PhotoKey(key):
			photo++
		case k == photoDeletionKey(key):
			records++
		case k.SK == photoSK(key):
			reactions++
		}
	}
	return photo, reactions, records
}

// TestDeletePhoto_IndexLagging: a delete decides from InvertedIndex only what to try. Where
// the index does not show the photo or its mark yet, the table decides: a photo written a
// moment ago is deleted, not refused as missing (a refusal a client mutation id's mark would
// keep), and a mark not yet indexed is not taken for another delete having finished.
func TestDeletePhoto_IndexLagging(t *testing.T) {
	for _, c := range []struct {
		name      string
		reactions int
		lag       func([]Item) []Item
	}{
		{"a new photo not in the index yet", 0, notYetIndexed},
		{"a photo in one transaction, its mark never needed", 40, markNotYetIndexed},
		{"a photo in steps, its mark not in the index yet", 120, markNotYetIndexed},
	} {
		t.Run(c.name, func(t *testing.T) {
			api, store := embedded(t)
			key := photoWithReactions(t, store, c.reactions)
			lagging := New(laggingIndex{api, c.lag}, DefaultTable)
			deleted, err := lagging.DeletePhoto(context.Background(), key)
			if err != nil {
				t.Fatalf("DeletePhoto: %v", err)
			}
			if deleted.Key() != key || deleted.Reactions.Total() != c.reactions {
				t.Fatalf("deleted %+v, want the photo with its %d reactions", deleted, c.reactions)
			}
			if p, r, d := photoItems(t, api, key); p+r+d != 0 {
				t.Fatalf("left %d photo, %d reactions, %d deletion records", p, r, d)
			}
		})
	}

	t.Run("a photo whose reactions the index does not show yet", func(t *testing.T) {
		// The delete cannot know them: its conditions on the counters refuse every step,
		// and it answers Unavailable, the photo marked and its record kept for the sweep,
		// which finishes it once the index has caught up.
		api, store := embedded(t)
		key := photoWithReactions(t, store, 8)
		lagging := New(laggingIndex{api, notYetIndexed}, DefaultTable)
		lagging.retry = retryPolicy{attempts: 3, base: time.Millisecond, max: time.Millisecond}
		_, err := lagging.DeletePhoto(context.Background(), key)
		if domain.ErrorCode(err) != domain.Unavailable {
			t.Fatalf("DeletePhoto: %v, want Unavailable", err)
		}
		if p, r, d := photoItems(t, api, key); p != 1 || r != 8 || d != 1 {
			t.Fatalf("after the refusal: %d photo, %d reactions, %d deletion records, want 1, 8 and 1", p, r, d)
		}
		if n, err := store.FinishDeletions(context.Background(), 0); err != nil || n != 1 {
			t.Fatalf("FinishDeletions: %d, %v; want 1 finished", n, err)
		}
		if p, r, d := photoItems(t, api, key); p+r+d != 0 {
			t.Fatalf("after the sweep: %d photo, %d reactions, %d deletion records", p, r, d)
		}
	})

	t.Run("no photo", func(t *testing.T) {
		api, store := embedded(t)
		key := photoWithReactions(t, store, 0)
		if _, err := store.DeletePhoto(context.Background(), key); err != nil {
			t.Fatal(err)
		}
		lagging := New(laggingIndex{api, func(items []Item) []Item { return items }}, DefaultTable)
		if _, err := lagging.DeletePhoto(context.Background(), key); domain.ErrorCode(err) != domain.NotFound {
			t.Fatalf("DeletePhoto of a deleted photo: %v, want NotFound", err)
		}
	})
}

// TestDeletePhoto_OneTransactionsWorth: a photo with as many reactions as one transaction
// holds beside it (99) goes in that one transaction, after one Query.
func TestDeletePhoto_OneTransactionsWorth(t *testing.T) {
	api, store := embedded(t)
	key := photoWithReactions(t, store, 96)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		fan := fmt.Sprintf("late%d", i)
		if _, err := store.CreateUser(ctx, fan, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
		if _, err := store.React(ctx, domain.ReactionKey{Username: fan, Type: domain.ReactionHeart, Photo: key}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cost := WithCost(ctx)
	if _, err := store.DeletePhoto(ctx, key); err != nil {
		t.Fatal(err)
	}
	if ops := cost.Snapshot().Operations; len(ops) != 2 || ops["Query"] != 1 || ops["TransactWriteItems"] != 1 {
		t.Fatalf("requests %v, want one Query and one TransactWriteItems", ops)
	}
	if p, r, d := photoItems(t, api, key); p+r+d != 0 {
		t.Fatalf("left %d photo, %d reactions, %d deletion records", p, r, d)
	}
}
