package dynamo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"sort"
	"time"

	"github.com/aws/smithy-go"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BatchWriter is the one DynamoDB operation Load needs; *dynamodb.Client implements it, and so
// does every API.
type BatchWriter interface {
	BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// loadRetry bounds the retries of unprocessed items while loading. It is more patient than the
// store's policy: a bulk load is what fills a provisioned table's capacity. Attempts count
// only the retries in a row that wrote nothing.
var loadRetry = retryPolicy{attempts: 10, base: 50 * time.Millisecond, max: 5 * time.Second}

// Load writes every item of items into table with BatchWriteItem, 25 items a request, and
// returns how many it wrote. progress, when not nil, is called with the running total after
// every request that wrote something.
//
// Items are put whole, overwriting any item with the same key; an item whose key appears again
// later in the input is written again, so the last one wins. Items that DynamoDB leaves
// unprocessed are retried with exponential backoff and jitter until a bounded number of retries
// in a row make no progress, or ctx ends.
//
// Every item must be valid and carry the table's keys, string attributes PK and SK. At the first
// bad item, Load writes the items before it and returns an error naming the item's line and how
// many items were written; a *LineError is in its chain. Loading the same file again after
// fixing the line is safe: puts are idempotent.
func Load(ctx context.Context, client BatchWriter, table string, items *ItemReader, progress func(written int)) (written int, err error) {
	return loadItems(ctx, client, table, items, progress)
}

// itemSource is what load reads: items, each with the line that names it in errors.
type itemSource interface {
	// Next returns the next item, io.EOF after the last.
	Next() (Item, error)
	// Line is the line of the item Next returned last.
	Line() int
}

func loadItems(ctx context.Context, client BatchWriter, table string, items itemSource, progress func(written int)) (written int, err error) {
	b := &loadBatch{client: client, table: table, progress: progress, keys: map[Key]int{}}
	for {
		item, err := items.Next()
		if err == io.EOF {
			break
		}
		if err == nil {
			item, err = checkLoadItem(item, items.Line())
		}
		if err != nil {
			if ferr := b.flush(ctx); ferr != nil {
				return b.written, withWritten(ferr, b.written)
			}
			return b.written, withWritten(err, b.written)
		}
		key := keyOf(item)
		// DynamoDB refuses a batch that names a key twice: send what we have first.
		if _, dup := b.keys[key]; dup || len(b.requests) == maxBatchWriteRequests {
			if err := b.flush(ctx); err != nil {
				return b.written, withWritten(err, b.written)
			}
		}
		b.add(key, item, items.Line())
	}
	if err := b.flush(ctx); err != nil {
		return b.written, withWritten(err, b.written)
	}
	return b.written, nil
}

// withWritten adds to a bad item's error how many items before it were written; other errors
// say so themselves.
func withWritten(err error, written int) error {
	var le *LineError
	if errors.As(err, &le) {
		return fmt.Errorf("%w (%s)", err, writtenBefore(written))
	}
	return err
}

// writtenBefore says how many items before a bad one were written.
func writtenBefore(n int) string {
	if n == 1 {
		return "the 1 item before it was written"
	}
	return fmt.Sprintf("%d items before it were written", n)
}

// checkLoadItem checks that item has the table's keys, and returns it with its timestamps in
// canonical form (see canonicalTimestamps) and without the mark of a migrated item, which tells
// the stream's consumers of one move (attrMovedFrom): a loaded photo is fanned out into feeds
// like any other, wherever its items file came from.
func checkLoadItem(item Item, line int) (Item, error) {
	for _, name := range []string{attrPK, attrSK} {
		v, ok := item[name].(*types.AttributeValueMemberS)
		if !ok || v.Value == "" {
			return nil, &LineError{Line: line, Err: fmt.Errorf("item without its key: want a non-empty string attribute %s", name)}
		}
	}
	item, err := canonicalTimestamps(item)
	if err != nil {
		return nil, &LineError{Line: line, Err: err}
	}
	if _, ok := item[attrMovedFrom]; ok {
		item = maps.Clone(item)
		delete(item, attrMovedFrom)
	}
	return item, nil
}

// loadBatch is the batch Load is filling.
type loadBatch struct {
	client   BatchWriter
	table    string
	progress func(int)

	requests []types.WriteRequest
	keys     map[Key]int // the line of each item in the batch; DynamoDB refuses a key twice
	first    int         // line of the batch's first item
	last     int         // line of its last item
	written  int
}

func (b *loadBatch) add(key Key, item Item, line int) {
	if len(b.requests) == 0 {
		b.first = line
	}
	b.last = line
	b.keys[key] = line
	b.requests = append(b.requests, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
}

// flush writes the batch, retrying what stays unprocessed, and empties it. When DynamoDB
// refuses the batch as invalid (for a rule the reader does not check, such as a key of the
// wrong type for the table), it writes the unwritten items one by one, in file order, so that
// the error names the bad item's line and every item before it is written.
func (b *loadBatch) flush(ctx context.Context) error {
	pending := b.requests
	lines := b.keys
	b.requests, b.keys = nil, map[Key]int{}
	var unwritten []types.WriteRequest // what the last request sent, when it failed
	send := func(ctx context.Context, requests []types.WriteRequest) ([]types.WriteRequest, error) {
		out, err := b.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{b.table: requests},
		})
		if err != nil {
			unwritten = requests
			return nil, storeError("BatchWriteItem", err)
		}
		return out.UnprocessedItems[b.table], nil
	}
	written := func(n int) {
		b.written += n
		if b.progress != nil {
			b.progress(b.written)
		}
	}
	err := writeAll(ctx, send, pending, loadRetry, written)
	if isValidationError(err) && len(unwritten) > 1 {
		return b.writeOneByOne(ctx, unwritten, lines, written)
	}
	if isValidationError(err) {
		return &LineError{Line: lines[keyOf(unwritten[0].PutRequest.Item)], Err: refused(err)}
	}
	if err != nil {
		return fmt.Errorf("loading the items on lines %d-%d: %w (%d items written)", b.first, b.last, err, b.written)
	}
	return nil
}

// writeOneByOne writes requests one per BatchWriteItem, in file order, and stops at the first
// one DynamoDB refuses, naming its line.
func (b *loadBatch) writeOneByOne(ctx context.Context, requests []types.WriteRequest, lines map[Key]int, written func(int)) error {
	sort.SliceStable(requests, func(i, j int) bool {
		return lines[keyOf(requests[i].PutRequest.Item)] < lines[keyOf(requests[j].PutRequest.Item)]
	})
	for _, r := range requests {
		line := lines[keyOf(r.PutRequest.Item)]
		send := func(ctx context.Context, requests []types.WriteRequest) ([]types.WriteRequest, error) {
			out, err := b.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
				RequestItems: map[string][]types.WriteRequest{b.table: requests},
			})
			if err != nil {
				return nil, storeError("BatchWriteItem", err)
			}
			return out.UnprocessedItems[b.table], nil
		}
		err := writeAll(ctx, send, []types.WriteRequest{r}, loadRetry, written)
		if isValidationError(err) {
			return &LineError{Line: line, Err: refused(err)}
		}
		if err != nil {
			return fmt.Errorf("loading the item on line %d: %w (%d items written)", line, err, b.written)
		}
	}
	return nil
}

// refused is the error of an item DynamoDB refused: its message, without the SDK's framing.
func refused(err error) error {
	var apiErr smithy.APIError
	errors.As(err, &apiErr)
	return fmt.Errorf("DynamoDB refused the item: %s", apiErr.ErrorMessage())
}

// isValidationError reports whether err is DynamoDB's ValidationException: the request itself
// is bad, so sending it again cannot help.
func isValidationError(err error) bool {
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode() == "ValidationException"
}
