package stream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// API is the part of the DynamoDB Streams API a Consumer reads; *dynamodbstreams.Client
// implements it, and so does the embedded engine's in-process *ddb.StreamsAPI.
type API interface {
	DescribeStream(context.Context, *dynamodbstreams.DescribeStreamInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(context.Context, *dynamodbstreams.GetShardIteratorInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(context.Context, *dynamodbstreams.GetRecordsInput, ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

// Handler handles the changes of one batch of records of one shard, in the order they were
// made. It must be idempotent: a batch whose checkpoint a crash lost is delivered again. An
// error makes the consumer retry the same batch, with backoff, until it succeeds or the
// consumer stops.
type Handler func(ctx context.Context, changes []domain.Change) error

// Consumer reads the stream of a table and calls Handle with its changes.
type Consumer struct {
	// Name is the consumer's name, under which its checkpoints are kept in the table; "" keeps
	// none and starts at the newest record.
	Name string
	// Streams reads the stream.
	Streams API
	// Store finds the stream and keeps the checkpoints.
	Store *dynamo.Store
	// Handle is called with every batch of changes.
	Handle Handler
	// Poll is how long a reader waits after reading nothing from an open shard; DefaultPoll
	// when zero. Each open shard costs one GetRecords per Poll.
	Poll time.Duration
	// Rescan is how often the shards are listed again to find new ones, besides right after
	// a shard ends; 30 s when zero.
	Rescan time.Duration
	// Log gets a line for every failure the consumer retries; slog.Default() when nil.
	Log *slog.Logger
	// Ready, when set, is called once every shard open when Run started has a reader at its
	// starting position: from then on, no change is missed. An unnamed consumer starts at the
	// newest record, so a subscription taken before Ready may miss a change made meanwhile.
	Ready func()
	// Observe, when set, is told after each batch it handled how far behind the consumer is:
	// the time since the batch's newest change was made (DynamoDB Streams gives that to the
	// second).
	Observe func(lag time.Duration)
	// CaughtUp, when set, is called once the consumer has handled the stream as it was when Run
	// started: every shard it reads has been read to its end once (emptyAtEnd GetRecords in a
	// row answered no record, or one answered records made since Run started), a closed
	// shard's children included. A consumer resuming a backlog (a restart, or writes made
	// while it was stopped, as a sample loaded just before) calls it when the backlog is done.
	CaughtUp func()

	mu      sync.Mutex
	behind  map[string]bool // shards whose reader has not yet reached their end
	listed  bool            // the shards were listed, and every one to read has a reader
	settled bool            // CaughtUp was called, or is not wanted
	started time.Time       // when Run started, set before its readers start
}

// DefaultPoll is how long a reader waits after reading nothing from an open shard, unless
// Consumer.Poll says otherwise: well under the second a change may take to reach a feed or a
// subscriber, at four GetRecords a second per shard, the rate AWS Lambda polls at.
const DefaultPoll = 250 * time.Millisecond

// maxRecords is the most records one GetRecords returns (the API's limit).
const maxRecords = 1000

// emptyAtEnd is how many GetRecords in a row must answer no record before a reader counts its
// shard as read to its end. One is not enough: DynamoDB Streams may answer an empty list
// where the part of the shard the iterator points to holds no record, before records further
// on ("it might take multiple calls to get to a portion of the shard that contains stream
// records", the GetRecords reference), and each call moves the iterator on.
const emptyAtEnd = 3

// catchUpPoll bounds the wait after an empty answer while a reader has not yet reached its
// shard's end, so that the answers emptyAtEnd asks for cost little time at start.
const catchUpPoll = 100 * time.Millisecond

// backoff bounds the waits between retries of a failed request or handler.
var backoff = struct{ base, max time.Duration }{100 * time.Millisecond, 5 * time.Second}

// Run reads the stream until ctx ends, and returns ctx's error then; or an error at once when
// the table has no stream or its checkpoints cannot be read.
func (c *Consumer) Run(ctx context.Context) error {
	arn, err := c.Store.StreamARN(ctx)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	var checkpoints map[string]dynamo.Checkpoint
	if c.Name != "" {
		if checkpoints, err = c.Store.Checkpoints(ctx, c.Name); err != nil {
			return fmt.Errorf("reading the checkpoints of stream consumer %s: %w", c.Name, err)
		}
		for shard, cp := range checkpoints {
			done[shard] = cp.Done
		}
	}

	var wg sync.WaitGroup
	defer wg.Wait()
	ended := make(chan string)
	running := map[string]bool{}
	first := true
	var positioned sync.WaitGroup // the readers of the first round, until they have an iterator
	c.mu.Lock()
	c.behind, c.listed, c.settled = map[string]bool{}, false, c.CaughtUp == nil
	c.mu.Unlock()
	c.started = time.Now()
	var finished []string // shards read to their end, whose children start in this round
	for {
		shards, err := c.shards(ctx, arn)
		if err != nil {
			c.log().WarnContext(ctx, "stream: listing shards", "error", err)
		}
		listed := map[string]bool{}
		for _, s := range shards {
			listed[aws.ToString(s.ShardId)] = true
		}
		for _, s := range shards {
			id := aws.ToString(s.ShardId)
			if running[id] || done[id] {
				continue
			}
			if parent := aws.ToString(s.ParentShardId); parent != "" && listed[parent] && !done[parent] {
				continue // the parent's changes come first
			}
			start, ok := c.startOf(s, checkpoints[id], first)
			if !ok {
				done[id] = true
				continue
			}
			running[id] = true
			c.fallBehind(id)
			wg.Add(1)
			var onPositioned func()
			if first {
				positioned.Add(1)
				onPositioned = sync.OnceFunc(positioned.Done)
			}
			go func() {
				defer wg.Done()
				if onPositioned != nil {
					defer onPositioned()
				}
				if c.read(ctx, arn, id, start, onPositioned) {
					select {
					case ended <- id:
					case <-ctx.Done():
					}
				}
			}()
		}
		if first && c.Ready != nil {
			go func() {
				positioned.Wait()
				if ctx.Err() == nil {
					c.Ready()
				}
			}()
		}
		first = false
		// A shard that ended counts as read only once a listing has given its children
		// readers: its changes go on in them.
		if err == nil {
			c.mu.Lock()
			c.listed = true
			c.mu.Unlock()
			for _, id := range finished {
				c.reachEnd(id)
			}
			finished = finished[:0]
			c.reachEnd("")
		}

		select {
		case <-ctx.Done():
			return ctx.Err()
		case id := <-ended:
			delete(running, id)
			done[id] = true
			finished = append(finished, id)
		case <-time.After(c.rescan()):
		}
	}
}

// position is where a reader starts in a shard.
type position struct {
	iterator types.ShardIteratorType
	after    string // the sequence number, for AFTER_SEQUENCE_NUMBER
}

// startOf is where to read shard s from: after the checkpoint; for a named consumer without
// one, the shard's oldest record; for an unnamed one, the newest record of the shards open
// when it started (false for those already closed: their changes are past), and the oldest of
// those that opened since.
func (c *Consumer) startOf(s types.Shard, cp dynamo.Checkpoint, atStart bool) (position, bool) {
	switch {
	case cp.SequenceNumber != "":
		return position{iterator: types.ShardIteratorTypeAfterSequenceNumber, after: cp.SequenceNumber}, true
	case c.Name != "" || !atStart:
		return position{iterator: types.ShardIteratorTypeTrimHorizon}, true
	case s.SequenceNumberRange != nil && s.SequenceNumberRange.EndingSequenceNumber != nil:
		return position{}, false
	}
	return position{iterator: types.ShardIteratorTypeLatest}, true
}

// shards lists every shard of the stream, following DescribeStream's pages.
func (c *Consumer) shards(ctx context.Context, arn string) ([]types.Shard, error) {
	var shards []types.Shard
	in := &dynamodbstreams.DescribeStreamInput{StreamArn: &arn}
	for {
		out, err := c.Streams.DescribeStream(ctx, in)
		if err != nil {
			return shards, err
		}
		shards = append(shards, out.StreamDescription.Shards...)
		if out.StreamDescription.LastEvaluatedShardId == nil {
			return shards, nil
		}
		in.ExclusiveStartShardId = out.StreamDescription.LastEvaluatedShardId
	}
}

// read reads shard id from start until the shard ends (true) or ctx does (false), handing
// every batch to Handle and checkpointing after it; positioned, when not nil, is called once
// it holds its first iterator.
func (c *Consumer) read(ctx context.Context, arn, id string, start position, positioned func()) bool {
	iterator, ok := c.iterator(ctx, arn, id, start)
	if !ok {
		return false
	}
	if positioned != nil {
		positioned()
	}
	atEnd := false // the reader has reached the shard's end once
	empties := 0   // GetRecords in a row that answered no record, until then
	for attempt := 0; ; {
		out, err := c.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iterator, Limit: aws.Int32(maxRecords)})
		var expired *types.ExpiredIteratorException
		var trimmed *types.TrimmedDataAccessException
		var gone *types.ResourceNotFoundException
		switch {
		case ctx.Err() != nil:
			return false
		case errors.As(err, &expired):
			if iterator, ok = c.iterator(ctx, arn, id, start); !ok {
				return false
			}
			continue
		case errors.As(err, &trimmed):
			c.log().WarnContext(ctx, "stream: records were trimmed before they were read; going on from the oldest left", "shard", id, "consumer", c.Name)
			start = position{iterator: types.ShardIteratorTypeTrimHorizon}
			if iterator, ok = c.iterator(ctx, arn, id, start); !ok {
				return false
			}
			continue
		case errors.As(err, &gone):
			return c.finish(ctx, id, start.after)
		case err != nil:
			attempt++
			c.log().WarnContext(ctx, "stream: reading records", "shard", id, "error", err, "attempt", attempt)
			if !sleep(ctx, delay(attempt)) {
				return false
			}
			continue
		}
		attempt = 0
		if n := len(out.Records); n > 0 {
			handled, ok := c.handle(ctx, id, out.Records)
			if !ok {
				return false
			}
			if made := out.Records[n-1].Dynamodb.ApproximateCreationDateTime; made != nil {
				if c.Observe != nil {
					c.Observe(time.Since(*made))
				}
				// On a busy stream a GetRecords may never come back empty: a batch that
				// reaches changes made since Run started has read what was there before.
				// (DynamoDB Streams gives the time to the second, rounded down, so a change
				// of Run's first second counts only from the next.)
				if !made.Before(c.started) {
					atEnd = true
					c.reachEnd(id)
				}
			}
			start = position{iterator: types.ShardIteratorTypeAfterSequenceNumber, after: aws.ToString(out.Records[n-1].Dynamodb.SequenceNumber)}
			// A checkpoint is an item of the table, so saving one writes a record: saved after
			// a batch of nothing but checkpoints, it would be read at once and saved again,
			// forever. Such a batch is left unsaved; read again after a restart, it does nothing.
			if handled && out.NextShardIterator != nil && !c.save(ctx, dynamo.Checkpoint{Shard: id, SequenceNumber: start.after}) {
				return false
			}
		}
		if out.NextShardIterator == nil {
			return c.finish(ctx, id, start.after)
		}
		iterator = out.NextShardIterator
		if len(out.Records) > 0 {
			empties = 0
			continue
		}
		wait := c.poll()
		if !atEnd {
			if empties++; empties < emptyAtEnd {
				wait = min(wait, catchUpPoll)
			} else {
				atEnd = true
				c.reachEnd(id)
			}
		}
		if !sleep(ctx, wait) {
			return false
		}
	}
}

// iterator gets an iterator at start, retrying with backoff; false when ctx ended.
func (c *Consumer) iterator(ctx context.Context, arn, id string, start position) (*string, bool) {
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: &arn, ShardId: &id, ShardIteratorType: start.iterator}
	if start.after != "" {
		in.SequenceNumber = &start.after
	}
	for attempt := 1; ; attempt++ {
		out, err := c.Streams.GetShardIterator(ctx, in)
		if err == nil {
			return out.ShardIterator, true
		}
		var trimmed *types.TrimmedDataAccessException
		if errors.As(err, &trimmed) {
			c.log().WarnContext(ctx, "stream: the checkpoint is older than the stream keeps; going on from the oldest record left", "shard", id, "consumer", c.Name)
			in.ShardIteratorType, in.SequenceNumber = types.ShardIteratorTypeTrimHorizon, nil
			continue
		}
		if ctx.Err() != nil {
			return nil, false
		}
		c.log().WarnContext(ctx, "stream: getting a shard iterator", "shard", id, "error", err, "attempt", attempt)
		if !sleep(ctx, delay(attempt)) {
			return nil, false
		}
	}
}

// handle decodes records and hands their changes to Handle until it succeeds; handled says
// whether there were any, ok is false when ctx ended. A record no change can be read from is
// logged and skipped: retrying would never succeed and would stop the shard for good.
func (c *Consumer) handle(ctx context.Context, id string, records []types.Record) (handled, ok bool) {
	changes := make([]domain.Change, 0, len(records))
	for _, r := range records {
		change, ok, err := dynamo.ChangeFromRecord(r)
		if err != nil {
			c.log().ErrorContext(ctx, "stream: skipping a record", "shard", id, "event_id", aws.ToString(r.EventID), "error", err)
			continue
		}
		if ok {
			changes = append(changes, change)
		}
	}
	if len(changes) == 0 {
		return false, true
	}
	for attempt := 1; ; attempt++ {
		err := c.Handle(ctx, changes)
		if err == nil {
			return true, true
		}
		if ctx.Err() != nil {
			return true, false
		}
		c.log().WarnContext(ctx, "stream: handling changes", "shard", id, "consumer", c.Name, "error", err, "attempt", attempt)
		if !sleep(ctx, delay(attempt)) {
			return true, false
		}
	}
}

// fallBehind notes that shard id has a reader that has not yet reached its end.
func (c *Consumer) fallBehind(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.settled {
		c.behind[id] = true
	}
}

// reachEnd notes that shard id ("" for none) was read to its end, and calls CaughtUp when no
// shard is behind any more, once Run has listed the shards and started their readers (before,
// a shard without a reader yet may still be to read).
func (c *Consumer) reachEnd(id string) {
	c.mu.Lock()
	delete(c.behind, id)
	call := !c.settled && c.listed && len(c.behind) == 0
	if call {
		c.settled = true
	}
	c.mu.Unlock()
	if call {
		c.CaughtUp()
	}
}

// finish records that shard id was read to its end.
func (c *Consumer) finish(ctx context.Context, id, last string) bool {
	return c.save(ctx, dynamo.Checkpoint{Shard: id, SequenceNumber: last, Done: true})
}

// save stores a checkpoint of a named consumer, retrying with backoff; false when ctx ended.
func (c *Consumer) save(ctx context.Context, cp dynamo.Checkpoint) bool {
	if c.Name == "" {
		return true
	}
	for attempt := 1; ; attempt++ {
		err := c.Store.SaveCheckpoint(ctx, c.Name, cp)
		if err == nil {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		c.log().WarnContext(ctx, "stream: saving a checkpoint", "shard", cp.Shard, "consumer", c.Name, "error", err, "attempt", attempt)
		if !sleep(ctx, delay(attempt)) {
			return false
		}
	}
}

func (c *Consumer) poll() time.Duration {
	if c.Poll > 0 {
		return c.Poll
	}
	return DefaultPoll
}

func (c *Consumer) rescan() time.Duration {
	if c.Rescan > 0 {
		return c.Rescan
	}
	return 30 * time.Second
}

func (c *Consumer) log() *slog.Logger {
	if c.Log != nil {
		return c.Log
	}
	return slog.Default()
}

// delay is the wait before retry number attempt (1-based): doubling from backoff.base up to
// backoff.max.
func delay(attempt int) time.Duration {
	d := backoff.base << min(attempt-1, 16)
	return min(d, backoff.max)
}

// sleep waits d; false when ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
