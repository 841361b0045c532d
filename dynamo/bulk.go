package dynamo

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// What a bulk load (package dynamo/itemfile, which reads and writes items files) needs of the
// table: the items of a dataset, an item as the table stores it, and BatchWriteItem with
// retries. The file format itself is no business of this package's.

// BatchWriter is the one DynamoDB operation a bulk load needs; *dynamodb.Client implements it,
// and so does every API.
type BatchWriter interface {
	BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// KeyOf is the key of item; empty strings where item lacks a string PK or SK.
func KeyOf(item Item) Key { return keyOf(item) }

// DatasetItems yields the items of d as the store writes them, counters as they are: the
// profiles, then the photos, the friendships and the reactions.
func DatasetItems(d *domain.Dataset) iter.Seq[Item] {
	return func(yield func(Item) bool) {
		for _, u := range d.Users {
			if !yield(userItem(u)) {
				return
			}
		}
		for _, p := range d.Photos {
			if !yield(photoItem(p)) {
				return
			}
		}
		for _, f := range d.Friendships {
			if !yield(friendshipItem(f)) {
				return
			}
		}
		for _, r := range d.Reactions {
			if !yield(reactionItem(r)) {
				return
			}
		}
	}
}

// LoadableItem checks that item has the table's keys, and returns it as a bulk load writes it:
// with its timestamps in canonical form (see canonicalTimestamps) and without the mark of a
// migrated item, which tells the stream's consumers of one move (attrMovedFrom), so that a
// loaded photo is fanned out into feeds like any other, wherever its items file came from.
// item itself is never changed.
func LoadableItem(item Item) (Item, error) {
	for _, name := range []string{attrPK, attrSK} {
		v, ok := item[name].(*types.AttributeValueMemberS)
		if !ok || v.Value == "" {
			return nil, fmt.Errorf("item without its key: want a non-empty string attribute %s", name)
		}
	}
	item, err := canonicalTimestamps(item)
	if err != nil {
		return nil, err
	}
	if _, ok := item[attrMovedFrom]; ok {
		item = maps.Clone(item)
		delete(item, attrMovedFrom)
	}
	return item, nil
}

// MaxBatchWrite is DynamoDB's limit on the items of one BatchWriteItem.
const MaxBatchWrite = maxBatchWriteRequests

// Backoff bounds the retries of the items DynamoDB leaves unprocessed: the waits grow
// exponentially from Base up to Max, with jitter, and Attempts counts only the retries in a row
// that write nothing.
type Backoff struct {
	Attempts  int
	Base, Max time.Duration
}

// PutItems puts items (at most MaxBatchWrite, of distinct keys) into table with BatchWriteItem,
// sending again what DynamoDB leaves unprocessed, as b says, until every item is written, ctx
// ends, or retries stop making progress (an Unavailable error). written, when not nil, hears
// how many items each response wrote. On error PutItems returns the items it had not written;
// when a request failed (DynamoDB's ValidationException is in the chain when
// it refused the request as invalid), those are the items that request held.
func (b Backoff) PutItems(ctx context.Context, client BatchWriter, table string, items []Item, written func(n int)) ([]Item, error) {
	requests := make([]types.WriteRequest, len(items))
	for i, item := range items {
		requests[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: item}}
	}
	unwritten := requests // what the last request sent, or left unprocessed
	send := func(ctx context.Context, requests []types.WriteRequest) ([]types.WriteRequest, error) {
		out, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{table: requests},
		})
		if err != nil {
			return nil, storeError("BatchWriteItem", err)
		}
		unwritten = out.UnprocessedItems[table]
		return unwritten, nil
	}
	err := writeAll(ctx, send, requests, retryPolicy{attempts: b.Attempts, base: b.Base, max: b.Max}, written)
	if err == nil {
		return nil, nil
	}
	left := make([]Item, len(unwritten))
	for i, r := range unwritten {
		left[i] = r.PutRequest.Item
	}
	return left, err
}
