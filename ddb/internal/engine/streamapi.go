package engine

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// The DynamoDB Streams API, served on the engine's own endpoint under the
// X-Amz-Target prefix DynamoDBStreams_20120810 (as DynamoDB Local serves it):
// what the SDKs' dynamodbstreams clients speak, over HTTP or in-process
// through the facade's Engine.HTTPClient. The operations answer in typed
// form (StreamList, StreamDescription, RecordPage), which this file renders
// as JSON and StreamsAPI (sdkapi/sdkstreams.go) as the SDK's types. Messages
// follow DynamoDB Local's where it has them.

// StreamsTargetPrefix is the X-Amz-Target prefix of the Streams API.
const StreamsTargetPrefix = "DynamoDBStreams_20120810."

// Exceptions of the Streams API.
const (
	TypeExpiredIterator   = "ExpiredIteratorException"
	TypeTrimmedDataAccess = "TrimmedDataAccessException"
)

// Limits of the Streams API.
const (
	maxListLimit       = 100
	maxGetRecordsLimit = 1000
	// maxGetRecordsBytes is GetRecords' response limit: 1 MB of records.
	maxGetRecordsBytes = 1 << 20
)

// checkLimit validates an optional Limit parameter against 1..most; over
// says it in the words of the operation at hand.
func checkLimit(limit *int, most int, over string) *Error {
	switch {
	case limit == nil:
		return nil
	case *limit < 1:
		return Validationf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1", *limit)
	case *limit > most:
		return invalidParamf("%s", over)
	}
	return nil
}

// ListStreamsInput is the ListStreams request.
type ListStreamsInput struct {
	TableName               string `json:"TableName"`
	Limit                   *int   `json:"Limit"`
	ExclusiveStartStreamArn string `json:"ExclusiveStartStreamArn"`
}

// StreamList is ListStreams' answer, which each path renders (appendJSON,
// listStreamsToSDK).
type StreamList struct {
	Streams []streamName
	// LastEvaluated is the LastEvaluatedStreamArn, the last stream listed
	// when the list stopped at Limit, else "".
	LastEvaluated string
}

// streamName names one stream of ListStreams.
type streamName struct{ Arn, Table, Label string }

// ListStreams lists the streams of every table, or of one, including
// those switched off in the last StreamRetention: ordered by table, then
// newest first.
func (e *Engine) ListStreams(_ context.Context, in *ListStreamsInput) (*StreamList, error) {
	if in.TableName != "" {
		// TableName is optional; an empty one is taken as left out.
		var v Violations
		v.tableNameRule("tableName", in.TableName)
		if err := v.Err(); err != nil {
			return nil, err
		}
	}
	if err := checkLimit(in.Limit, maxListLimit, "Limit cannot be greater than the maximum allowed size: 100"); err != nil {
		return nil, err
	}
	limit := maxListLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	var all []streamName
	err := e.View(func(tx *bolt.Tx) error {
		return tx.Bucket(storage.BucketStreams).ForEach(func(k, _ []byte) error {
			table, label, _ := strings.Cut(string(k), "/")
			if in.TableName == "" || table == in.TableName {
				all = append(all, streamName{e.streamARN(table, label), table, label})
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Table != all[j].Table {
			return all[i].Table < all[j].Table
		}
		return all[i].Label > all[j].Label
	})
	start := 0
	if in.ExclusiveStartStreamArn != "" {
		start = len(all)
		for i, s := range all {
			if s.Arn == in.ExclusiveStartStreamArn {
				start = i + 1
				break
			}
		}
	}
	l := &StreamList{Streams: all[start:]}
	if len(l.Streams) > limit {
		l.Streams = l.Streams[:limit]
		l.LastEvaluated = l.Streams[limit-1].Arn
	}
	return l, nil
}

// viewStream opens the stream arn names in a read transaction; the error
// is ResourceNotFoundException with notFound's message when there is none.
// The log comes without its meta, which DescribeStream reads, and
// GetRecords only when it has records to return (lazyRegions): a
// consumer's idle poll need not decode it.
func (e *Engine) viewStream(arn string, notFound string, fn func(log *storage.StreamLog) error) error {
	table, label, ok := e.parseStreamARN(arn)
	return e.View(func(tx *bolt.Tx) error {
		var sb *bolt.Bucket
		if ok {
			sb = tx.Bucket(storage.BucketStreams).Bucket(storage.StreamBucketName(table, label))
		}
		if sb == nil {
			return &Error{Type: TypeResourceNotFound, Message: notFound}
		}
		log, err := storage.StreamBuckets(sb)
		if err != nil {
			return err
		}
		return fn(log)
	})
}

// DescribeStreamInput is the DescribeStream request.
type DescribeStreamInput struct {
	StreamArn             string `json:"StreamArn"`
	Limit                 *int   `json:"Limit"`
	ExclusiveStartShardId string `json:"ExclusiveStartShardId"`
}

// StreamDescription is DescribeStream's answer, which each path renders
// (appendJSON, describeStreamToSDK).
type StreamDescription struct {
	Arn    string
	Meta   *storage.StreamMeta
	Shards []storage.ShardMeta // the shards listed, oldest first
	// LastShard is the LastEvaluatedShardId: the last shard listed when
	// the list stopped at Limit, "" otherwise.
	LastShard string
}

// DescribeStream describes a stream and its shards, oldest first.
func (e *Engine) DescribeStream(_ context.Context, in *DescribeStreamInput) (*StreamDescription, error) {
	if in.StreamArn == "" {
		return nil, Validationf("Invalid StreamArn")
	}
	if err := checkLimit(in.Limit, maxListLimit, "Limit cannot be greater than the maximum: 100"); err != nil {
		return nil, err
	}
	limit := maxListLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	d := &StreamDescription{Arn: in.StreamArn}
	err := e.viewStream(in.StreamArn, "Requested resource not found: Stream: "+in.StreamArn+" not found", func(log *storage.StreamLog) error {
		meta, err := storage.LoadStreamMeta(log.B)
		if err != nil {
			return err
		}
		shards, err := log.AllShards()
		if err != nil {
			return err
		}
		d.Meta = meta
		if in.ExclusiveStartShardId != "" {
			// Those after the start; after an unknown shard, none.
			if i := slices.IndexFunc(shards, func(s storage.ShardMeta) bool { return s.ID == in.ExclusiveStartShardId }); i < 0 {
				shards = nil
			} else {
				shards = shards[i+1:]
			}
		}
		if len(shards) > limit {
			shards = shards[:limit]
			d.LastShard = shards[limit-1].ID
		}
		d.Shards = shards
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// ending is the EndingSequenceNumber of a closed shard; closed is false for
// the open one, which has none. A shard closed before its first record ends
// where it starts, as DynamoDB Local reports it.
func ShardEnding(s *storage.ShardMeta) (end uint64, closed bool) {
	return max(s.End, s.Start), s.Closed
}

// GetShardIteratorInput is the GetShardIterator request.
type GetShardIteratorInput struct {
	StreamArn         string `json:"StreamArn"`
	ShardId           string `json:"ShardId"`
	ShardIteratorType string `json:"ShardIteratorType"`
	SequenceNumber    string `json:"SequenceNumber"`
}

// ShardIteratorOutput is GetShardIterator's answer over HTTP: the
// iterator in its string form.
type ShardIteratorOutput struct{ Iterator string }

// GetShardIterator returns an iterator at a position of a shard.
func (e *Engine) GetShardIterator(_ context.Context, in *GetShardIteratorInput) (*ShardIterator, error) {
	if in.StreamArn == "" {
		return nil, invalidParamf("streamArn cannot be empty or null.")
	}
	if in.ShardId == "" {
		return nil, Validationf("No ShardId specified.")
	}
	var seq uint64
	switch in.ShardIteratorType {
	case iteratorTrimHorizon, iteratorLatest:
		if in.SequenceNumber != "" {
			return nil, invalidParamf("SequenceNumber should not be passed for this iterator type")
		}
	case iteratorAtSequenceNumber, iteratorAfterSequenceNumber:
		if in.SequenceNumber == "" {
			return nil, invalidParamf("Invalid SequenceNumber")
		}
		if len(in.SequenceNumber) < 21 {
			return nil, Validationf("1 validation error detected: Value '%s' at 'sequenceNumber' failed to satisfy constraint: Member must have length greater than or equal to 21", in.SequenceNumber)
		}
		var ok bool
		if seq, ok = ParseSequenceNumber(in.SequenceNumber); !ok {
			return nil, invalidParamf("Invalid SequenceNumber")
		}
	default:
		return nil, Validationf("1 validation error detected: Value '%s' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, AT_SEQUENCE_NUMBER, TRIM_HORIZON]", in.ShardIteratorType)
	}
	var it ShardIterator
	err := e.viewStream(in.StreamArn, "Stream does not exist", func(log *storage.StreamLog) error {
		s, err := log.Shard(in.ShardId)
		if err != nil {
			return err
		}
		if s == nil {
			return &Error{Type: TypeResourceNotFound, Message: "Shard does not exist"}
		}
		kept := keptFrom(log)
		var after uint64
		switch in.ShardIteratorType {
		case iteratorTrimHorizon:
			after = max(s.Start, kept) - 1
		case iteratorLatest:
			after = log.Records.Sequence()
			if s.Closed {
				after = max(s.End, s.Start-1)
			}
		case iteratorAtSequenceNumber, iteratorAfterSequenceNumber:
			if !s.Holds(seq) || seq > log.Records.Sequence() {
				return invalidParamf("Invalid SequenceNumber %s for shard %s", in.SequenceNumber, in.ShardId)
			}
			if seq < kept {
				return &Error{Type: TypeTrimmedDataAccess, Message: "Attempted to access data beyond the trim horizon: sequence number " + in.SequenceNumber + " has been trimmed"}
			}
			after = seq
			if in.ShardIteratorType == iteratorAtSequenceNumber {
				after = seq - 1
			}
		}
		it = ShardIterator{StreamARN: in.StreamArn, ShardID: s.ID, After: after, Issued: e.Now()}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &it, nil
}

// keptFrom is the sequence number of the oldest record kept: records
// before it were trimmed. With none kept, it is the next number to come.
func keptFrom(l *storage.StreamLog) uint64 {
	k, _ := l.Records.Cursor().First()
	if k == nil {
		return l.Records.Sequence() + 1
	}
	return storage.BytesToSeq(k)
}

// GetRecordsInput is the GetRecords request.
type GetRecordsInput struct {
	ShardIterator string `json:"ShardIterator"`
	Limit         *int   `json:"Limit"`
}

// RecordPage is GetRecords' answer, which each path renders (appendJSON,
// getRecordsToSDK).
type RecordPage struct {
	Records []*storage.StoredRecord
	// Next is the iterator to continue from; nil at the end of a closed
	// shard.
	Next *ShardIterator
}

// GetRecords returns the records of a shard after an iterator's position,
// up to Limit (at most 1,000) and 1 MB, with the iterator to continue
// from. At the end of a closed shard there is no next iterator: a reader
// goes on with the shard's children (DescribeStream).
//
// The 1 MB counts the records' SizeBytes, the size of their data as
// DynamoDB measures it, so that it is the same figure on both paths; the
// response is larger by the keys and fields around the data (and, in JSON,
// the encoding). A record over the limit alone is still returned, as the
// first of its page.
func (e *Engine) GetRecords(_ context.Context, in *GetRecordsInput) (*RecordPage, error) {
	if err := checkLimit(in.Limit, maxGetRecordsLimit, "Limit should be less than or equal to 1000"); err != nil {
		return nil, err
	}
	it, err := ParseShardIterator(in.ShardIterator)
	if err != nil {
		return nil, err
	}
	now := e.Now()
	if err := it.checkAge(now); err != nil {
		return nil, err
	}
	limit := maxGetRecordsLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	p := &RecordPage{Records: []*storage.StoredRecord{}}
	regions := lazyRegions{engine: e.Opts.Region}
	err = e.viewStream(it.StreamARN, "Stream does not exist", func(log *storage.StreamLog) error {
		s, err := log.Shard(it.ShardID)
		if err != nil {
			return err
		}
		if s == nil {
			return &Error{Type: TypeResourceNotFound, Message: "Shard does not exist"}
		}
		// Records after the position were trimmed since the iterator was issued.
		if it.After+1 < keptFrom(log) && s.Holds(it.After+1) {
			return &Error{Type: TypeTrimmedDataAccess, Message: "Attempted to access data beyond the trim horizon"}
		}
		after, size := it.After, uint64(0)
		c := log.Records.Cursor()
		for k, v := c.Seek(storage.SeqKey(it.After + 1)); k != nil && len(p.Records) < limit; k, v = c.Next() {
			seq := storage.BytesToSeq(k)
			if !s.Holds(seq) {
				break
			}
			// A copy: the record is rendered after the transaction.
			region, err := regions.of(log, seq)
			if err != nil {
				return err
			}
			r, err := storage.ParseStoredRecord(seq, bytes.Clone(v), region)
			if err != nil {
				return storage.CorruptRecord(err, seq)
			}
			if size > 0 && size+r.Size > maxGetRecordsBytes {
				break
			}
			size += r.Size
			p.Records = append(p.Records, r)
			after = seq
		}
		if !s.Closed || after < s.End {
			p.Next = &ShardIterator{StreamARN: it.StreamARN, ShardID: s.ID, After: after, Issued: now}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// BytesToSeq reads an 8-byte sequence number key.
func BytesToSeq(k []byte) uint64 {
	var n uint64
	for _, b := range k {
		n = n<<8 | uint64(b)
	}
	return n
}
