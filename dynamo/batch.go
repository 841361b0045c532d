package dynamo

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/domain"
)

// maxBatchGetKeys is DynamoDB's limit on keys in one BatchGetItem.
const maxBatchGetKeys = 100

// batchGet reads the items with the given keys, in any order, skipping those that do not
// exist: one BatchGetItem per 100 distinct keys, sent concurrently, with unprocessed keys
// retried with backoff. attributes, when not empty, is the projection.
func (s *Store) batchGet(ctx context.Context, keys []Key, attributes []string) ([]Item, error) {
	keys = distinct(keys)
	var chunks [][]Key
	for len(keys) > 0 {
		n := min(len(keys), maxBatchGetKeys)
		chunks = append(chunks, keys[:n])
		keys = keys[n:]
	}
	results := make([][]Item, len(chunks))
	g, ctx := errgroup.WithContext(ctx)
	for i, chunk := range chunks {
		g.Go(func() error {
			items, err := s.batchGetChunk(ctx, chunk, attributes)
			results[i] = items
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var all []Item
	for _, r := range results {
		all = append(all, r...)
	}
	return all, nil
}

func (s *Store) batchGetChunk(ctx context.Context, keys []Key, attributes []string) ([]Item, error) {
	ka := types.KeysAndAttributes{Keys: make([]Item, len(keys))}
	for i, k := range keys {
		ka.Keys[i] = k.item()
	}
	if len(attributes) > 0 {
		ka.ProjectionExpression, ka.ExpressionAttributeNames = projection(attributes)
	}
	request := map[string]types.KeysAndAttributes{s.table: ka}
	var items []Item
	for attempt := 1; ; attempt++ {
		out, err := s.batchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: request})
		if err != nil {
			return nil, err
		}
		items = append(items, out.Responses[s.table]...)
		request = out.UnprocessedKeys
		if len(request) == 0 || len(request[s.table].Keys) == 0 {
			return items, nil
		}
		if attempt >= s.retry.attempts {
			return nil, domain.Errorf(domain.Unavailable, "the database is busy: %d keys stayed unprocessed; retry later", len(request[s.table].Keys))
		}
		if !s.retry.wait(ctx, attempt) {
			return nil, ctx.Err()
		}
	}
}

// projection returns a ProjectionExpression for attribute names, through placeholders because
// several of ours (name, status, timestamp, location) are DynamoDB reserved words.
func projection(attributes []string) (*string, map[string]string) {
	names := make(map[string]string, len(attributes))
	parts := make([]string, 0, len(attributes))
	seen := map[string]bool{}
	for _, a := range attributes {
		if seen[a] {
			continue
		}
		seen[a] = true
		n := fmt.Sprintf("#p%d", len(parts))
		names[n] = a
		parts = append(parts, n)
	}
	expr := strings.Join(parts, ", ")
	return &expr, names
}

func distinct(keys []Key) []Key {
	seen := make(map[Key]bool, len(keys))
	out := make([]Key, 0, len(keys))
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// maxBatchWriteRequests is DynamoDB's limit on requests in one BatchWriteItem.
const maxBatchWriteRequests = 25

// batchDelete deletes the items with these keys, 25 a request, retrying unprocessed ones.
func (s *Store) batchDelete(ctx context.Context, keys []Key) error {
	for len(keys) > 0 {
		n := min(len(keys), maxBatchWriteRequests)
		writes := make([]types.WriteRequest, n)
		for i, k := range keys[:n] {
			writes[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k.item()}}
		}
		keys = keys[n:]
		request := map[string][]types.WriteRequest{s.table: writes}
		for attempt := 1; len(request[s.table]) > 0; attempt++ {
			if attempt > 1 && (attempt > s.retry.attempts || !s.retry.wait(ctx, attempt-1)) {
				return domain.Errorf(domain.Unavailable, "the database is busy: %d deletes stayed unprocessed; retry later", len(request[s.table]))
			}
			out, err := s.api.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
				RequestItems:           request,
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
			})
			var cc []types.ConsumedCapacity
			if err == nil {
				cc = out.ConsumedCapacity
			}
			s.record(ctx, "BatchWriteItem", cc, err)
			if err != nil {
				return storeError("BatchWriteItem", err)
			}
			request = out.UnprocessedItems
		}
	}
	return nil
}
