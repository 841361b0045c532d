package itemfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/dynamo"
)

// loadRetry bounds the retries of unprocessed items while loading. It is more patient than the
// store's policy: a bulk load is what fills a provisioned table's capacity. Attempts count
// only the retries in a row that wrote nothing.
var loadRetry = dynamo.Backoff{Attempts: 10, Base: 50 * time.Millisecond, Max: 5 * time.Second}

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
func Load(ctx context.Context, client dynamo.BatchWriter, table string, items *ItemReader, progress func(written int)) (written int, err error) {
	return loadItems(ctx, client, table, items, progress)
}

// itemSource is what load reads: items, each with the line that names it in errors.
type itemSource interface {
	// Next returns the next item, io.EOF after the last.
	Next() (Item, error)
	// Line is the line of the item Next returned last.
	Line() int
}

func loadItems(ctx context.Context, client dynamo.BatchWriter, table string, items itemSource, progress func(written int)) (written int, err error) {
	b := &loadBatch{client: client, table: table, progress: progress, keys: map[dynamo.Key]int{}}
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
		key := dynamo.KeyOf(item)
		// DynamoDB refuses a batch that names a key twice: send what we have first.
		if _, dup := b.keys[key]; dup || len(b.items) == dynamo.MaxBatchWrite {
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

// checkLoadItem returns item as the table stores it (see dynamo.LoadableItem), or why it
// cannot be loaded, naming its line.
func checkLoadItem(item Item, line int) (Item, error) {
	item, err := dynamo.LoadableItem(item)
	if err != nil {
		return nil, &LineError{Line: line, Err: err}
	}
	return item, nil
}

// loadBatch is the batch Load is filling.
type loadBatch struct {
	client   dynamo.BatchWriter
	table    string
	progress func(int)

	items   []Item
	keys    map[dynamo.Key]int // the line of each item in the batch; DynamoDB refuses a key twice
	first   int                // line of the batch's first item
	last    int                // line of its last item
	written int
}

func (b *loadBatch) add(key dynamo.Key, item Item, line int) {
	if len(b.items) == 0 {
		b.first = line
	}
	b.last = line
	b.keys[key] = line
	b.items = append(b.items, item)
}

// flush writes the batch, retrying what stays unprocessed, and empties it. When DynamoDB
// refuses the batch as invalid (for a rule the reader does not check, such as a key of the
// wrong type for the table), it writes the unwritten items one by one, in file order, so that
// the error names the bad item's line and every item before it is written.
func (b *loadBatch) flush(ctx context.Context) error {
	if len(b.items) == 0 {
		return nil
	}
	pending := b.items
	lines := b.keys
	b.items, b.keys = nil, map[dynamo.Key]int{}
	unwritten, err := loadRetry.PutItems(ctx, b.client, b.table, pending, b.wrote)
	if isValidationError(err) && len(unwritten) > 1 {
		return b.writeOneByOne(ctx, unwritten, lines)
	}
	if isValidationError(err) {
		return &LineError{Line: lines[dynamo.KeyOf(unwritten[0])], Err: refused(err)}
	}
	if err != nil {
		return fmt.Errorf("loading the items on lines %d-%d: %w (%d items written)", b.first, b.last, err, b.written)
	}
	return nil
}

// wrote counts n more items written.
func (b *loadBatch) wrote(n int) {
	b.written += n
	if b.progress != nil {
		b.progress(b.written)
	}
}

// writeOneByOne writes items one per BatchWriteItem, in file order, and stops at the first
// one DynamoDB refuses, naming its line.
func (b *loadBatch) writeOneByOne(ctx context.Context, items []Item, lines map[dynamo.Key]int) error {
	sort.SliceStable(items, func(i, j int) bool {
		return lines[dynamo.KeyOf(items[i])] < lines[dynamo.KeyOf(items[j])]
	})
	for _, item := range items {
		line := lines[dynamo.KeyOf(item)]
		_, err := loadRetry.PutItems(ctx, b.client, b.table, []Item{item}, b.wrote)
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
