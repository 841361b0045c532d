package ddb

import (
	"context"
	"fmt"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The DynamoDB Streams API, served on the engine's own endpoint under the
// X-Amz-Target prefix DynamoDBStreams_20120810 (as DynamoDB Local serves it):
// what the SDKs' dynamodbstreams clients speak, over HTTP or in-process
// through Engine.HTTPClient. Messages follow DynamoDB Local's where it has
// them.

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

// opListStreams lists the streams of every table, or of one, including
// those switched off in the last StreamRetention: ordered by table, then
// newest first.
func opListStreams(e *Engine, _ context.Context, body []byte) (any, error) {
	var in listStreamsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := checkLimit(in.Limit, maxListLimit, "Limit cannot be greater than the maximum allowed size: 100"); err != nil {
		return nil, err
	}
	limit := maxListLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	type entry struct{ table, label string }
	var all []entry
	err := e.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketStreams).ForEach(func(k, _ []byte) error {
			table, label, _ := strings.Cut(string(k), "/")
			if in.TableName == "" || table == in.TableName {
				all = append(all, entry{table, label})
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
			if e.streamARN(s.table, s.label) == in.ExclusiveStartStreamArn {
				start = i + 1
				break
			}
		}
	}
	streams := []any{}
	out := map[string]any{}
	for _, s := range all[start:] {
		if len(streams) == limit {
			out["LastEvaluatedStreamArn"] = streams[len(streams)-1].(map[string]any)["StreamArn"]
			break
		}
		streams = append(streams, map[string]any{
			"StreamArn":   e.streamARN(s.table, s.label),
			"TableName":   s.table,
			"StreamLabel": s.label,
		})
	}
	out["Streams"] = streams
	return out, nil
}

// viewStream opens the stream arn names in a read transaction; the error
// is ResourceNotFoundException with notFound's message when there is none.
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
		log, err := openStreamLog(sb)
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

// opDescribeStream describes a stream and its shards, oldest first.
func opDescribeStream(e *Engine, _ context.Context, body []byte) (any, error) {
	var in describeStreamInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
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
	var out map[string]any
	err := e.viewStream(in.StreamArn, "Requested resource not found: Stream: "+in.StreamArn+" not found", func(log *streamLog) error {
		shards, err := log.allShards()
		if err != nil {
			return err
		}
		m := log.meta
		d := map[string]any{
			"StreamArn":               in.StreamArn,
			"StreamLabel":             m.Label,
			"StreamStatus":            m.status(),
			"StreamViewType":          m.ViewType,
			"CreationRequestDateTime": m.Created,
			"TableName":               m.Table,
			"KeySchema":               m.KeySchema,
		}
		listed := []any{}
		skipping := in.ExclusiveStartShardId != ""
		for _, s := range shards {
			if skipping {
				skipping = s.ID != in.ExclusiveStartShardId
				continue
			}
			if len(listed) == limit {
				d["LastEvaluatedShardId"] = listed[len(listed)-1].(map[string]any)["ShardId"]
				break
			}
			listed = append(listed, describeShard(&s))
		}
		d["Shards"] = listed
		out = map[string]any{"StreamDescription": d}
		return nil
	})
	return out, err
}

// describeShard renders a Shard of DescribeStream.
func describeShard(s *shardMeta) map[string]any {
	r := map[string]any{"StartingSequenceNumber": formatSequenceNumber(s.Start)}
	if s.Closed {
		// A shard closed before its first record ends where it starts, as
		// DynamoDB Local reports it.
		r["EndingSequenceNumber"] = formatSequenceNumber(max(s.End, s.Start))
	}
	d := map[string]any{"ShardId": s.ID, "SequenceNumberRange": r}
	if s.Parent != "" {
		d["ParentShardId"] = s.Parent
	}
	return d
}

// getShardIteratorInput is the GetShardIterator request.
type getShardIteratorInput struct {
	StreamArn         string `json:"StreamArn"`
	ShardId           string `json:"ShardId"`
	ShardIteratorType string `json:"ShardIteratorType"`
	SequenceNumber    string `json:"SequenceNumber"`
}

// opGetShardIterator returns an iterator at a position of a shard.
func opGetShardIterator(e *Engine, _ context.Context, body []byte) (any, error) {
	var in getShardIteratorInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
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
	return map[string]any{"ShardIterator": it.String()}, nil
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

// opGetRecords returns the records of a shard after an iterator's
// position, up to Limit (at most 1,000) and 1 MB, with the iterator to
// continue from. At the end of a closed shard there is no next iterator:
// a reader goes on with the shard's children (DescribeStream).
func opGetRecords(e *Engine, _ context.Context, body []byte) (any, error) {
	var in getRecordsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := checkLimit(in.Limit, maxGetRecordsLimit, "Limit should be less than or equal to 1000"); err != nil {
		return nil, err
	}
	it, err := parseShardIterator(in.ShardIterator)
	if err != nil {
		return nil, err
	}
	now := e.now()
	if now.Sub(it.Issued) > ShardIteratorLifetime {
		return nil, &Error{Type: typeExpiredIterator, Message: "The provided iterator exceeds the maximum age allowed."}
	}
	limit := maxGetRecordsLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	records := []any{}
	var next *shardIterator
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
		after, bytes := it.After, 0
		c := log.records.Cursor()
		for k, v := c.Seek(seqKey(it.After + 1)); k != nil && len(records) < limit; k, v = c.Next() {
			seq := bytesToSeq(k)
			if !s.holds(seq) {
				break
			}
			rec, err := appendRecordJSON(nil, seq, v, log.meta.recordRegion(seq, e.opts.Region))
			if err != nil {
				return fmt.Errorf("%w %d", err, seq)
			}
			if bytes > 0 && bytes+len(rec) > maxGetRecordsBytes {
				break
			}
			bytes += len(rec)
			records = append(records, rawItem(rec))
			after = seq
		}
		if !s.Closed || after < s.End {
			next = &shardIterator{StreamARN: it.StreamARN, ShardID: s.ID, After: after, Issued: now}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"Records": records}
	if next != nil {
		out["NextShardIterator"] = next.String()
	}
	return out, nil
}

// bytesToSeq reads an 8-byte sequence number key.
func bytesToSeq(k []byte) uint64 {
	var n uint64
	for _, b := range k {
		n = n<<8 | uint64(b)
	}
	return n
}
