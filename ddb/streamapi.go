package ddb

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The DynamoDB Streams API, served on the engine's own endpoint under the
// X-Amz-Target prefix DynamoDBStreams_20120810 (as DynamoDB Local serves it):
// what the SDKs' dynamodbstreams clients speak, over HTTP or in-process
// through Engine.HTTPClient. The operations answer in typed form
// (streamList, streamDescription, recordPage), which this file renders as
// JSON and StreamsAPI (sdkstreams.go) as the SDK's types. Messages
// follow DynamoDB Local's where it has them.

// streamsTargetPrefix is the X-Amz-Target prefix of the Streams API.
const streamsTargetPrefix = "DynamoDBStreams_20120810."

// Exceptions of the Streams API.
const (
	typeExpiredIterator   = "ExpiredIteratorException"
	typeTrimmedDataAccess = "TrimmedDataAccessException"
)

// Limits of the Streams API.
const (
	maxListLimit       = 100
	maxGetRecordsLimit = 1000
	// maxGetRecordsBytes is GetRecords' response limit: 1 MB of records.
	maxGetRecordsBytes = 1 << 20
)

// streamOperations maps Streams API operation names to handlers.
var streamOperations = map[string]operation{
	"ListStreams":      opListStreams,
	"DescribeStream":   opDescribeStream,
	"GetShardIterator": opGetShardIterator,
	"GetRecords":       opGetRecords,
}

// checkLimit validates an optional Limit parameter against 1..most; over
// says it in the words of the operation at hand.
func checkLimit(limit *int, most int, over string) *Error {
	switch {
	case limit == nil:
		return nil
	case *limit < 1:
		return validationf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1", *limit)
	case *limit > most:
		return invalidParamf("%s", over)
	}
	return nil
}

// listStreamsInput is the ListStreams request.
type listStreamsInput struct {
	TableName               string `json:"TableName"`
	Limit                   *int   `json:"Limit"`
	ExclusiveStartStreamArn string `json:"ExclusiveStartStreamArn"`
}

// streamList is ListStreams' answer, which each path renders (appendJSON,
// listStreamsToSDK).
type streamList struct {
	streams []streamName
	// lastEvaluated is the LastEvaluatedStreamArn, the last stream listed
	// when the list stopped at Limit, else "".
	lastEvaluated string
}

// streamName names one stream of ListStreams.
type streamName struct{ arn, table, label string }

// opListStreams decodes a ListStreams request and runs it.
func opListStreams(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in listStreamsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	l, err := e.listStreams(ctx, &in)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// listStreams lists the streams of every table, or of one, including
// those switched off in the last StreamRetention: ordered by table, then
// newest first.
func (e *Engine) listStreams(_ context.Context, in *listStreamsInput) (*streamList, error) {
	if in.TableName != "" {
		// TableName is optional; an empty one is taken as left out.
		var v violations
		v.tableNameRule("tableName", in.TableName)
		if err := v.err(); err != nil {
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
	err := e.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketStreams).ForEach(func(k, _ []byte) error {
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
		if all[i].table != all[j].table {
			return all[i].table < all[j].table
		}
		return all[i].label > all[j].label
	})
	start := 0
	if in.ExclusiveStartStreamArn != "" {
		start = len(all)
		for i, s := range all {
			if s.arn == in.ExclusiveStartStreamArn {
				start = i + 1
				break
			}
		}
	}
	l := &streamList{streams: all[start:]}
	if len(l.streams) > limit {
		l.streams = l.streams[:limit]
		l.lastEvaluated = l.streams[limit-1].arn
	}
	return l, nil
}

// viewStream opens the stream arn names in a read transaction; the error
// is ResourceNotFoundException with notFound's message when there is none.
// The log comes without its meta, which DescribeStream reads, and
// GetRecords only when it has records to return (lazyRegions): a
// consumer's idle poll need not decode it.
func (e *Engine) viewStream(arn string, notFound string, fn func(log *streamLog) error) error {
	table, label, ok := e.parseStreamARN(arn)
	return e.view(func(tx *bolt.Tx) error {
		var sb *bolt.Bucket
		if ok {
			sb = tx.Bucket(bucketStreams).Bucket(streamBucketName(table, label))
		}
		if sb == nil {
			return &Error{Type: typeResourceNotFound, Message: notFound}
		}
		log, err := streamBuckets(sb)
		if err != nil {
			return err
		}
		return fn(log)
	})
}

// describeStreamInput is the DescribeStream request.
type describeStreamInput struct {
	StreamArn             string `json:"StreamArn"`
	Limit                 *int   `json:"Limit"`
	ExclusiveStartShardId string `json:"ExclusiveStartShardId"`
}

// streamDescription is DescribeStream's answer, which each path renders
// (appendJSON, describeStreamToSDK).
type streamDescription struct {
	arn    string
	meta   *streamMeta
	shards []shardMeta // the shards listed, oldest first
	// lastShard is the LastEvaluatedShardId: the last shard listed when
	// the list stopped at Limit, "" otherwise.
	lastShard string
}

// opDescribeStream decodes a DescribeStream request and runs it.
func opDescribeStream(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in describeStreamInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	d, err := e.describeStream(ctx, &in)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// describeStream describes a stream and its shards, oldest first.
func (e *Engine) describeStream(_ context.Context, in *describeStreamInput) (*streamDescription, error) {
	if in.StreamArn == "" {
		return nil, validationf("Invalid StreamArn")
	}
	if err := checkLimit(in.Limit, maxListLimit, "Limit cannot be greater than the maximum: 100"); err != nil {
		return nil, err
	}
	limit := maxListLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	d := &streamDescription{arn: in.StreamArn}
	err := e.viewStream(in.StreamArn, "Requested resource not found: Stream: "+in.StreamArn+" not found", func(log *streamLog) error {
		meta, err := loadStreamMeta(log.b)
		if err != nil {
			return err
		}
		shards, err := log.allShards()
		if err != nil {
			return err
		}
		d.meta = meta
		if in.ExclusiveStartShardId != "" {
			// Those after the start; after an unknown shard, none.
			if i := slices.IndexFunc(shards, func(s shardMeta) bool { return s.ID == in.ExclusiveStartShardId }); i < 0 {
				shards = nil
			} else {
				shards = shards[i+1:]
			}
		}
		if len(shards) > limit {
			shards = shards[:limit]
			d.lastShard = shards[limit-1].ID
		}
		d.shards = shards
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
func (s *shardMeta) ending() (end uint64, closed bool) {
	return max(s.End, s.Start), s.Closed
}

// getShardIteratorInput is the GetShardIterator request.
type getShardIteratorInput struct {
	StreamArn         string `json:"StreamArn"`
	ShardId           string `json:"ShardId"`
	ShardIteratorType string `json:"ShardIteratorType"`
	SequenceNumber    string `json:"SequenceNumber"`
}

// opGetShardIterator decodes a GetShardIterator request and runs it.
func opGetShardIterator(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in getShardIteratorInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	it, err := e.getShardIterator(ctx, &in)
	if err != nil {
		return nil, err
	}
	return &shardIteratorOutput{iterator: it.String()}, nil
}

// shardIteratorOutput is GetShardIterator's answer over HTTP: the
// iterator in its string form.
type shardIteratorOutput struct{ iterator string }

// getShardIterator returns an iterator at a position of a shard.
func (e *Engine) getShardIterator(_ context.Context, in *getShardIteratorInput) (*shardIterator, error) {
	if in.StreamArn == "" {
		return nil, invalidParamf("streamArn cannot be empty or null.")
	}
	if in.ShardId == "" {
		return nil, validationf("No ShardId specified.")
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
			return nil, validationf("1 validation error detected: Value '%s' at 'sequenceNumber' failed to satisfy constraint: Member must have length greater than or equal to 21", in.SequenceNumber)
		}
		var ok bool
		if seq, ok = parseSequenceNumber(in.SequenceNumber); !ok {
			return nil, invalidParamf("Invalid SequenceNumber")
		}
	default:
		return nil, validationf("1 validation error detected: Value '%s' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, AT_SEQUENCE_NUMBER, TRIM_HORIZON]", in.ShardIteratorType)
	}
	var it shardIterator
	err := e.viewStream(in.StreamArn, "Stream does not exist", func(log *streamLog) error {
		s, err := log.shard(in.ShardId)
		if err != nil {
			return err
		}
		if s == nil {
			return &Error{Type: typeResourceNotFound, Message: "Shard does not exist"}
		}
		kept := log.keptFrom()
		var after uint64
		switch in.ShardIteratorType {
		case iteratorTrimHorizon:
			after = max(s.Start, kept) - 1
		case iteratorLatest:
			after = log.records.Sequence()
			if s.Closed {
				after = max(s.End, s.Start-1)
			}
		case iteratorAtSequenceNumber, iteratorAfterSequenceNumber:
			if !s.holds(seq) || seq > log.records.Sequence() {
				return invalidParamf("Invalid SequenceNumber %s for shard %s", in.SequenceNumber, in.ShardId)
			}
			if seq < kept {
				return &Error{Type: typeTrimmedDataAccess, Message: "Attempted to access data beyond the trim horizon: sequence number " + in.SequenceNumber + " has been trimmed"}
			}
			after = seq
			if in.ShardIteratorType == iteratorAtSequenceNumber {
				after = seq - 1
			}
		}
		it = shardIterator{StreamARN: in.StreamArn, ShardID: s.ID, After: after, Issued: e.now()}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &it, nil
}

// keptFrom is the sequence number of the oldest record kept: records
// before it were trimmed. With none kept, it is the next number to come.
func (l *streamLog) keptFrom() uint64 {
	k, _ := l.records.Cursor().First()
	if k == nil {
		return l.records.Sequence() + 1
	}
	return bytesToSeq(k)
}

// getRecordsInput is the GetRecords request.
type getRecordsInput struct {
	ShardIterator string `json:"ShardIterator"`
	Limit         *int   `json:"Limit"`
}

// recordPage is GetRecords' answer, which each path renders (appendJSON,
// getRecordsToSDK).
type recordPage struct {
	records []*storedRecord
	// next is the iterator to continue from; nil at the end of a closed
	// shard.
	next *shardIterator
}

// opGetRecords decodes a GetRecords request and runs it.
func opGetRecords(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in getRecordsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	p, err := e.getRecords(ctx, &in)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// getRecords returns the records of a shard after an iterator's position,
// up to Limit (at most 1,000) and 1 MB, with the iterator to continue
// from. At the end of a closed shard there is no next iterator: a reader
// goes on with the shard's children (DescribeStream).
//
// The 1 MB counts the records' SizeBytes, the size of their data as
// DynamoDB measures it, so that it is the same figure on both paths; the
// response is larger by the keys and fields around the data (and, in JSON,
// the encoding). A record over the limit alone is still returned, as the
// first of its page.
func (e *Engine) getRecords(_ context.Context, in *getRecordsInput) (*recordPage, error) {
	if err := checkLimit(in.Limit, maxGetRecordsLimit, "Limit should be less than or equal to 1000"); err != nil {
		return nil, err
	}
	it, err := parseShardIterator(in.ShardIterator)
	if err != nil {
		return nil, err
	}
	now := e.now()
	if err := it.checkAge(now); err != nil {
		return nil, err
	}
	limit := maxGetRecordsLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	p := &recordPage{records: []*storedRecord{}}
	regions := lazyRegions{engine: e.opts.Region}
	err = e.viewStream(it.StreamARN, "Stream does not exist", func(log *streamLog) error {
		s, err := log.shard(it.ShardID)
		if err != nil {
			return err
		}
		if s == nil {
			return &Error{Type: typeResourceNotFound, Message: "Shard does not exist"}
		}
		// Records after the position were trimmed since the iterator was issued.
		if it.After+1 < log.keptFrom() && s.holds(it.After+1) {
			return &Error{Type: typeTrimmedDataAccess, Message: "Attempted to access data beyond the trim horizon"}
		}
		after, size := it.After, uint64(0)
		c := log.records.Cursor()
		for k, v := c.Seek(seqKey(it.After + 1)); k != nil && len(p.records) < limit; k, v = c.Next() {
			seq := bytesToSeq(k)
			if !s.holds(seq) {
				break
			}
			// A copy: the record is rendered after the transaction.
			region, err := regions.of(log, seq)
			if err != nil {
				return err
			}
			r, err := parseStoredRecord(seq, bytes.Clone(v), region)
			if err != nil {
				return corruptRecord(err, seq)
			}
			if size > 0 && size+r.size > maxGetRecordsBytes {
				break
			}
			size += r.size
			p.records = append(p.records, r)
			after = seq
		}
		if !s.Closed || after < s.End {
			p.next = &shardIterator{StreamARN: it.StreamARN, ShardID: s.ID, After: after, Issued: now}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// bytesToSeq reads an 8-byte sequence number key.
func bytesToSeq(k []byte) uint64 {
	var n uint64
	for _, b := range k {
		n = n<<8 | uint64(b)
	}
	return n
}
