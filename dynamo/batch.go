package dynamo

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/domain"
)

// maxBatchGetKeys is DynamoDB's limit on keys in one BatchGetItem.
const maxBatchGetKeys = 100

// batchGet reads the items with the given keys, in any order, skipping those that do not
// exist: one BatchGetItem per 100 distinct keys, sent concurrently, with unprocessed keys
// retried with backoff; one key alone is one GetItem (getOne). attributes, when not empty, is
// the projection.
func (s *Store) batchGet(ctx context.Context, keys []Key, attributes []string) ([]Item, error) {
	return s.batchGetReads(ctx, keys, attributes, false)
}

// batchGetConsistent reads keys as batchGet does, with strongly consistent reads.
func (s *Store) batchGetConsistent(ctx context.Context, keys []Key) ([]Item, error) {
	return s.batchGetReads(ctx, keys, nil, true)
}

func (s *Store) batchGetReads(ctx context.Context, keys []Key, attributes []string, consistent bool) ([]Item, error) {
	keys = distinct(keys)
	if len(keys) == 0 {
		return nil, nil
	}
	if len(keys) <= maxBatchGetKeys {
		// One request, the common case: read in this goroutine, not one of its own.
		return s.batchGetChunk(ctx, keys, attributes, consistent)
	}
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
			items, err := s.batchGetChunk(ctx, chunk, attributes, consistent)
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

func (s *Store) batchGetChunk(ctx context.Context, keys []Key, attributes []string, consistent bool) ([]Item, error) {
	if len(keys) == 1 {
		return s.getOne(ctx, keys[0], attributes, consistent)
	}
	ka := types.KeysAndAttributes{Keys: make([]Item, len(keys))}
	if consistent {
		ka.ConsistentRead = aws.Bool(true)
	}
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

// getOne reads the item with key as batchGetChunk does, by a GetItem: one key is one request
// either way, for the same capacity, and a GetItem asks less of the client and the table than a
// batch of one (no request map per table, no unprocessed keys to look for).
func (s *Store) getOne(ctx context.Context, key Key, attributes []string, consistent bool) ([]Item, error) {
	in := &dynamodb.GetItemInput{Key: key.item()}
	if consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	if len(attributes) > 0 {
		in.ProjectionExpression, in.ExpressionAttributeNames = projection(attributes)
	}
	item, err := s.getItemInput(ctx, in)
	if err != nil || item == nil {
		return nil, err
	}
	return []Item{item}, nil
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
		n := placeholder(len(parts))
		names[n] = a
		parts = append(parts, n)
	}
	expr := strings.Join(parts, ", ")
	return &expr, names
}

// placeholders are the first names projection gives, spelt once: a profile read asks for a
// dozen attributes on every request.
var placeholders = func() (names [32]string) {
	for i := range names {
		names[i] = fmt.Sprintf("#p%d", i)
	}
	return names
}()

func placeholder(i int) string {
	if i < len(placeholders) {
		return placeholders[i]
	}
	return fmt.Sprintf("#p%d", i)
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

// writeAll sends write requests (at most 25) until DynamoDB has processed them all: send is
// one BatchWriteItem returning what it left unprocessed. Unprocessed requests are retried with
// p's backoff, and p.attempts bounds the retries in a row that make no progress. done, when
// not nil, hears how many requests each response completed.
func writeAll(ctx context.Context, send func(context.Context, []types.WriteRequest) ([]types.WriteRequest, error), pending []types.WriteRequest, p retryPolicy, done func(n int)) error {
	for attempt := 0; len(pending) > 0; {
		if attempt > 0 {
			if attempt > p.attempts {
				return fmt.Errorf("%d items stayed unprocessed after %d retries: %w", len(pending), p.attempts, errUnprocessed)
			}
			if !p.wait(ctx, attempt) {
				return context.Cause(ctx)
			}
		}
		left, err := send(ctx, pending)
		if err != nil {
			return err
		}
		if n := len(pending) - len(left); n > 0 {
			attempt = 0
			if done != nil {
				done(n)
			}
		}
		if len(left) > 0 {
			attempt++
		}
		pending = left
	}
	return nil
}

// errUnprocessed is in the chain of an error when DynamoDB kept leaving writes unprocessed.
var errUnprocessed = domain.Errorf(domain.Unavailable, "the table is too busy; retry later or raise its write capacity")

// batchWrite sends writes (puts and deletes of distinct keys) as BatchWriteItem requests of
// 25, one after the other, retrying what DynamoDB leaves unprocessed with backoff.
func (s *Store) batchWrite(ctx context.Context, writes []types.WriteRequest) error {
	for len(writes) > 0 {
		n := min(len(writes), maxBatchWriteRequests)
		request := map[string][]types.WriteRequest{s.table: writes[:n]}
		writes = writes[n:]
		for attempt := 1; ; attempt++ {
			out, err := s.batchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: request})
			if err != nil {
				return err
			}
			request = out.UnprocessedItems
			if len(request[s.table]) == 0 {
				break
			}
			if attempt >= s.retry.attempts {
				return domain.Errorf(domain.Unavailable, "the database is busy: %d writes stayed unprocessed; retry later", len(request[s.table]))
			}
			if !s.retry.wait(ctx, attempt) {
				return ctx.Err()
			}
		}
	}
	return nil
}
