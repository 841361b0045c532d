package sdkapi

// The DynamoDB Streams API in process (StreamsAPI): the engine's stream
// operations (engine/streamapi.go) called with the SDK's dynamodbstreams inputs,
// their answers converted to its outputs. Records are built from their
// stored form (storedRecord) straight into the SDK's types, as unprojected
// items are on API (sdkvalue.go).

import (
	"context"
	"encoding/hex"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// StreamsAPI is the engine's DynamoDB Streams API for callers in the
// same process: the methods of the aws-sdk-go-v2 dynamodbstreams client
// (ListStreams, DescribeStream, GetShardIterator, GetRecords; what package
// stream's consumers use), taking the SDK's typed inputs and returning its
// typed outputs and errors, with no JSON, HTTP or request signing on the
// way. Get it with Engine.StreamsAPI.
//
// It runs the same code as a request over HTTP, so it answers as
// Engine.StreamsClient does (ddb/conformance compares them on every Streams
// step whose request the SDK's types can carry); what differs is what the
// SDK does around a request, as for API: no retries, no client-side
// checks of required parameters (the engine answers the ValidationException
// DynamoDB would), and the per-call option functions are ignored. A
// DescribeStream's ShardFilter is ignored, as the engine ignores it over
// HTTP. Errors have the SDK's shape (sdkerror.go), those of package
// dynamodbstreams/types: *ResourceNotFoundException,
// *ExpiredIteratorException, *TrimmedDataAccessException and the others it
// models, a *smithy.GenericAPIError for ValidationException.
//
// StreamsAPI is safe for concurrent use. Its outputs share no memory
// with the engine's storage.
type StreamsAPI struct {
	e *engine.Engine
}

// dynamoDBStreamsService is the SDK's DynamoDB Streams client's.
var dynamoDBStreamsService = sdkService{id: dynamodbstreams.ServiceID, exception: streamsException}

// ListStreams lists the streams of every table, or of one, as
// dynamodbstreams.Client.ListStreams does.
func (d *StreamsAPI) ListStreams(ctx context.Context, in *dynamodbstreams.ListStreamsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "ListStreams", orEmpty(in), func(in *dynamodbstreams.ListStreamsInput) (*engine.ListStreamsInput, error) {
		return &engine.ListStreamsInput{TableName: engine.Deref(in.TableName), Limit: intPtr(in.Limit), ExclusiveStartStreamArn: engine.Deref(in.ExclusiveStartStreamArn)}, nil
	}, d.e.ListStreams, listStreamsToSDK)
}

// DescribeStream describes a stream and its shards, as
// dynamodbstreams.Client.DescribeStream does.
func (d *StreamsAPI) DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "DescribeStream", orEmpty(in), func(in *dynamodbstreams.DescribeStreamInput) (*engine.DescribeStreamInput, error) {
		return &engine.DescribeStreamInput{StreamArn: engine.Deref(in.StreamArn), Limit: intPtr(in.Limit), ExclusiveStartShardId: engine.Deref(in.ExclusiveStartShardId)}, nil
	}, d.e.DescribeStream, describeStreamToSDK)
}

// GetShardIterator returns an iterator at a position of a shard, as
// dynamodbstreams.Client.GetShardIterator does.
func (d *StreamsAPI) GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "GetShardIterator", orEmpty(in), func(in *dynamodbstreams.GetShardIteratorInput) (*engine.GetShardIteratorInput, error) {
		return &engine.GetShardIteratorInput{StreamArn: engine.Deref(in.StreamArn), ShardId: engine.Deref(in.ShardId),
			ShardIteratorType: string(in.ShardIteratorType), SequenceNumber: engine.Deref(in.SequenceNumber)}, nil
	}, d.e.GetShardIterator, func(it *engine.ShardIterator) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return &dynamodbstreams.GetShardIteratorOutput{ShardIterator: aws.String(it.String())}, nil
	})
}

// GetRecords returns the records of a shard after an iterator's position,
// as dynamodbstreams.Client.GetRecords does.
func (d *StreamsAPI) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "GetRecords", orEmpty(in), func(in *dynamodbstreams.GetRecordsInput) (*engine.GetRecordsInput, error) {
		return &engine.GetRecordsInput{ShardIterator: engine.Deref(in.ShardIterator), Limit: intPtr(in.Limit)}, nil
	}, d.e.GetRecords, getRecordsToSDK)
}

// listStreamsToSDK converts a ListStreams answer. Streams is never nil: the
// JSON answer always has the list.
func listStreamsToSDK(l *engine.StreamList) (*dynamodbstreams.ListStreamsOutput, error) {
	out := &dynamodbstreams.ListStreamsOutput{Streams: make([]stypes.Stream, len(l.Streams))}
	for i, s := range l.Streams {
		out.Streams[i] = stypes.Stream{StreamArn: aws.String(s.Arn), TableName: aws.String(s.Table), StreamLabel: aws.String(s.Label)}
	}
	if l.LastEvaluated != "" {
		out.LastEvaluatedStreamArn = aws.String(l.LastEvaluated)
	}
	return out, nil
}

// describeStreamToSDK converts a DescribeStream answer.
func describeStreamToSDK(d *engine.StreamDescription) (*dynamodbstreams.DescribeStreamOutput, error) {
	m := d.Meta
	sd := &stypes.StreamDescription{
		StreamArn:               aws.String(d.Arn),
		StreamLabel:             aws.String(m.Label),
		StreamStatus:            stypes.StreamStatus(engine.StreamStatus(m)),
		StreamViewType:          stypes.StreamViewType(m.ViewType),
		CreationRequestDateTime: epochSeconds(m.Created),
		TableName:               aws.String(m.Table),
		KeySchema:               make([]stypes.KeySchemaElement, len(m.KeySchema)),
		Shards:                  make([]stypes.Shard, len(d.Shards)),
	}
	for i, k := range m.KeySchema {
		sd.KeySchema[i] = stypes.KeySchemaElement{AttributeName: aws.String(k.AttributeName), KeyType: stypes.KeyType(k.KeyType)}
	}
	for i := range d.Shards {
		s := &d.Shards[i]
		r := &stypes.SequenceNumberRange{StartingSequenceNumber: aws.String(storage.FormatSequenceNumber(s.Start))}
		if end, closed := engine.ShardEnding(s); closed {
			r.EndingSequenceNumber = aws.String(storage.FormatSequenceNumber(end))
		}
		sd.Shards[i] = stypes.Shard{ShardId: aws.String(s.ID), SequenceNumberRange: r}
		if s.Parent != "" {
			sd.Shards[i].ParentShardId = aws.String(s.Parent)
		}
	}
	if d.LastShard != "" {
		sd.LastEvaluatedShardId = aws.String(d.LastShard)
	}
	return &dynamodbstreams.DescribeStreamOutput{StreamDescription: sd}, nil
}

// getRecordsToSDK converts a GetRecords answer. Records is never nil: the
// JSON answer always has the list.
func getRecordsToSDK(p *engine.RecordPage) (*dynamodbstreams.GetRecordsOutput, error) {
	out := &dynamodbstreams.GetRecordsOutput{Records: make([]stypes.Record, len(p.Records))}
	b := newRecordsBuilder(len(p.Records))
	for i, r := range p.Records {
		var err error
		if out.Records[i], err = recordToSDK(r, b); err != nil {
			return nil, err
		}
	}
	if p.Next != nil {
		out.NextShardIterator = aws.String(p.Next.String())
	}
	return out, nil
}

// recordToSDK builds the SDK's record from a stored one, the values
// straight from their binary form: what the SDK would read from the JSON
// that appendJSON writes.
func recordToSDK(r *storage.StoredRecord, b *recordsBuilder) (stypes.Record, error) {
	// Copied once for the three maps that hold the keys, which cut their names and values
	// from it.
	keysText := string(r.Keys)
	keys, err := storedRecordKeysToSDK(r, keysText, b)
	if err != nil {
		return stypes.Record{}, err
	}
	sr := &stypes.StreamRecord{
		// Whole seconds, as the JSON answer has them.
		ApproximateCreationDateTime: epochSeconds(float64(r.Millis / 1000)),
		Keys:                        keys,
		SequenceNumber:              aws.String(storage.FormatSequenceNumber(r.Seq)),
		SizeBytes:                   aws.Int64(int64(r.Size)),
		StreamViewType:              stypes.StreamViewType(r.ViewType()),
	}
	if sr.NewImage, err = storedRecordImageToSDK(r, r.NewImage, keysText, b); err != nil {
		return stypes.Record{}, err
	}
	if sr.OldImage, err = storedRecordImageToSDK(r, r.OldImage, keysText, b); err != nil {
		return stypes.Record{}, err
	}
	out := stypes.Record{
		AwsRegion:    aws.String(r.Region),
		Dynamodb:     sr,
		EventID:      aws.String(hex.EncodeToString(r.ID)),
		EventName:    stypes.OperationType(r.Event()),
		EventSource:  aws.String(storage.RecordEventSource),
		EventVersion: aws.String(storage.RecordEventVersion),
	}
	if r.ByService() {
		out.UserIdentity = &stypes.Identity{PrincipalId: aws.String(storage.ServicePrincipal), Type: aws.String(storage.ServiceIdentityType)}
	}
	return out, nil
}

// storedRecordKeysToSDK builds the record's key attributes from keysText, its stored keys.
func storedRecordKeysToSDK(r *storage.StoredRecord, keysText string, b *recordsBuilder) (map[string]stypes.AttributeValue, error) {
	keys, err := attr.DecodeBinaryTextAs[stypes.AttributeValue](keysText, b)
	if err != nil {
		return nil, r.Corrupt(storage.ErrBadRecord)
	}
	return keys, nil
}

// storedRecordImageToSDK builds an image of the record from its stored form, adding
// the key attributes it leaves out; nil stays nil (no such image). The keys
// are built again for each map, so that no two of the record's maps share
// a value, as none of the SDK's do.
func storedRecordImageToSDK(r *storage.StoredRecord, image []byte, keysText string, b *recordsBuilder) (map[string]stypes.AttributeValue, error) {
	if image == nil {
		return nil, nil
	}
	m, err := attr.DecodeBinaryAs[stypes.AttributeValue](image, b)
	if err != nil {
		return nil, r.Corrupt(err)
	}
	keys, err := storedRecordKeysToSDK(r, keysText, b)
	if err != nil {
		return nil, err
	}
	maps.Copy(m, keys)
	return m, nil
}

// streamsBuilder builds the dynamodbstreams SDK's attribute values (a type
// set of their own, apart from the dynamodb SDK's) for attr.DecodeBinaryAs.
type streamsBuilder struct{}

func (streamsBuilder) S(s string) stypes.AttributeValue {
	return &stypes.AttributeValueMemberS{Value: s}
}
func (streamsBuilder) N(n string) stypes.AttributeValue {
	return &stypes.AttributeValueMemberN{Value: n}
}
func (streamsBuilder) B(b []byte) stypes.AttributeValue {
	return &stypes.AttributeValueMemberB{Value: b}
}
func (streamsBuilder) BOOL(b bool) stypes.AttributeValue {
	return &stypes.AttributeValueMemberBOOL{Value: b}
}
func (streamsBuilder) NULL() stypes.AttributeValue {
	return &stypes.AttributeValueMemberNULL{Value: true}
}
func (streamsBuilder) SS(ss []string) stypes.AttributeValue {
	return &stypes.AttributeValueMemberSS{Value: ss}
}
func (streamsBuilder) NS(ns []string) stypes.AttributeValue {
	return &stypes.AttributeValueMemberNS{Value: ns}
}
func (streamsBuilder) BS(bs [][]byte) stypes.AttributeValue {
	return &stypes.AttributeValueMemberBS{Value: bs}
}
func (streamsBuilder) L(l []stypes.AttributeValue) stypes.AttributeValue {
	return &stypes.AttributeValueMemberL{Value: l}
}
func (streamsBuilder) M(m map[string]stypes.AttributeValue) stypes.AttributeValue {
	return &stypes.AttributeValueMemberM{Value: m}
}

// recordsBuilder is streamsBuilder for the records of one GetRecords answer, as
// sdkItemBuilder is for the items of a read: the string and number members, most of a
// record's values (its keys three times, its images), come from slabs shared by the
// answer's records (up to a kilobyte each).
type recordsBuilder struct {
	streamsBuilder
	s slab[stypes.AttributeValueMemberS]
	n slab[stypes.AttributeValueMemberN]
}

// newRecordsBuilder returns the builder of an answer of records records: slabs of sixteen
// members for one record (its keys and two images), more for more, up to 64.
func newRecordsBuilder(records int) *recordsBuilder {
	size := min(max(records, 1)*16, 64)
	return &recordsBuilder{s: slab[stypes.AttributeValueMemberS]{size: size}, n: slab[stypes.AttributeValueMemberN]{size: size}}
}

func (b *recordsBuilder) S(s string) stypes.AttributeValue {
	return b.s.take(stypes.AttributeValueMemberS{Value: s})
}

func (b *recordsBuilder) N(n string) stypes.AttributeValue {
	return b.n.take(stypes.AttributeValueMemberN{Value: n})
}

// NewStreams returns the typed DynamoDB Streams API of e.
func NewStreams(e *engine.Engine) *StreamsAPI { return &StreamsAPI{e: e} }
