package ddb

// The DynamoDB Streams API in process (StreamsAPI): the engine's stream
// operations (streamapi.go) called with the SDK's dynamodbstreams inputs,
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
	e *Engine
}

// StreamsAPI returns the engine's in-process DynamoDB Streams API, the fast
// way for code in this process to read the engine's streams: see
// StreamsAPI. StreamsClient serves the same API through the SDK over an
// in-memory HTTP transport, for code that needs a *dynamodbstreams.Client.
func (e *Engine) StreamsAPI() *StreamsAPI { return &StreamsAPI{e: e} }

// dynamoDBStreamsService is the SDK's DynamoDB Streams client's.
var dynamoDBStreamsService = sdkService{id: dynamodbstreams.ServiceID, exception: streamsException}

// ListStreams lists the streams of every table, or of one, as
// dynamodbstreams.Client.ListStreams does.
func (d *StreamsAPI) ListStreams(ctx context.Context, in *dynamodbstreams.ListStreamsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.ListStreamsOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "ListStreams", orEmpty(in), func(in *dynamodbstreams.ListStreamsInput) (*listStreamsInput, error) {
		return &listStreamsInput{TableName: deref(in.TableName), Limit: intPtr(in.Limit), ExclusiveStartStreamArn: deref(in.ExclusiveStartStreamArn)}, nil
	}, d.e.listStreams, listStreamsToSDK)
}

// DescribeStream describes a stream and its shards, as
// dynamodbstreams.Client.DescribeStream does.
func (d *StreamsAPI) DescribeStream(ctx context.Context, in *dynamodbstreams.DescribeStreamInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "DescribeStream", orEmpty(in), func(in *dynamodbstreams.DescribeStreamInput) (*describeStreamInput, error) {
		return &describeStreamInput{StreamArn: deref(in.StreamArn), Limit: intPtr(in.Limit), ExclusiveStartShardId: deref(in.ExclusiveStartShardId)}, nil
	}, d.e.describeStream, describeStreamToSDK)
}

// GetShardIterator returns an iterator at a position of a shard, as
// dynamodbstreams.Client.GetShardIterator does.
func (d *StreamsAPI) GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "GetShardIterator", orEmpty(in), func(in *dynamodbstreams.GetShardIteratorInput) (*getShardIteratorInput, error) {
		return &getShardIteratorInput{StreamArn: deref(in.StreamArn), ShardId: deref(in.ShardId),
			ShardIteratorType: string(in.ShardIteratorType), SequenceNumber: deref(in.SequenceNumber)}, nil
	}, d.e.getShardIterator, func(it *shardIterator) (*dynamodbstreams.GetShardIteratorOutput, error) {
		return &dynamodbstreams.GetShardIteratorOutput{ShardIterator: aws.String(it.String())}, nil
	})
}

// GetRecords returns the records of a shard after an iterator's position,
// as dynamodbstreams.Client.GetRecords does.
func (d *StreamsAPI) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	return invoke(ctx, dynamoDBStreamsService, "GetRecords", orEmpty(in), func(in *dynamodbstreams.GetRecordsInput) (*getRecordsInput, error) {
		return &getRecordsInput{ShardIterator: deref(in.ShardIterator), Limit: intPtr(in.Limit)}, nil
	}, d.e.getRecords, getRecordsToSDK)
}

// listStreamsToSDK converts a ListStreams answer. Streams is never nil: the
// JSON answer always has the list.
func listStreamsToSDK(l *streamList) (*dynamodbstreams.ListStreamsOutput, error) {
	out := &dynamodbstreams.ListStreamsOutput{Streams: make([]stypes.Stream, len(l.streams))}
	for i, s := range l.streams {
		out.Streams[i] = stypes.Stream{StreamArn: aws.String(s.arn), TableName: aws.String(s.table), StreamLabel: aws.String(s.label)}
	}
	if l.lastEvaluated != "" {
		out.LastEvaluatedStreamArn = aws.String(l.lastEvaluated)
	}
	return out, nil
}

// describeStreamToSDK converts a DescribeStream answer.
func describeStreamToSDK(d *streamDescription) (*dynamodbstreams.DescribeStreamOutput, error) {
	m := d.meta
	sd := &stypes.StreamDescription{
		StreamArn:               aws.String(d.arn),
		StreamLabel:             aws.String(m.Label),
		StreamStatus:            stypes.StreamStatus(m.status()),
		StreamViewType:          stypes.StreamViewType(m.ViewType),
		CreationRequestDateTime: epochSeconds(m.Created),
		TableName:               aws.String(m.Table),
		KeySchema:               make([]stypes.KeySchemaElement, len(m.KeySchema)),
		Shards:                  make([]stypes.Shard, len(d.shards)),
	}
	for i, k := range m.KeySchema {
		sd.KeySchema[i] = stypes.KeySchemaElement{AttributeName: aws.String(k.AttributeName), KeyType: stypes.KeyType(k.KeyType)}
	}
	for i := range d.shards {
		s := &d.shards[i]
		r := &stypes.SequenceNumberRange{StartingSequenceNumber: aws.String(formatSequenceNumber(s.Start))}
		if end, closed := s.ending(); closed {
			r.EndingSequenceNumber = aws.String(formatSequenceNumber(end))
		}
		sd.Shards[i] = stypes.Shard{ShardId: aws.String(s.ID), SequenceNumberRange: r}
		if s.Parent != "" {
			sd.Shards[i].ParentShardId = aws.String(s.Parent)
		}
	}
	if d.lastShard != "" {
		sd.LastEvaluatedShardId = aws.String(d.lastShard)
	}
	return &dynamodbstreams.DescribeStreamOutput{StreamDescription: sd}, nil
}

// getRecordsToSDK converts a GetRecords answer. Records is never nil: the
// JSON answer always has the list.
func getRecordsToSDK(p *recordPage) (*dynamodbstreams.GetRecordsOutput, error) {
	out := &dynamodbstreams.GetRecordsOutput{Records: make([]stypes.Record, len(p.records))}
	for i, r := range p.records {
		var err error
		if out.Records[i], err = recordToSDK(r); err != nil {
			return nil, err
		}
	}
	if p.next != nil {
		out.NextShardIterator = aws.String(p.next.String())
	}
	return out, nil
}

// recordToSDK builds the SDK's record from a stored one, the values
// straight from their binary form: what the SDK would read from the JSON
// that appendJSON writes.
func recordToSDK(r *storedRecord) (stypes.Record, error) {
	keys, err := r.keysToSDK()
	if err != nil {
		return stypes.Record{}, err
	}
	sr := &stypes.StreamRecord{
		// Whole seconds, as the JSON answer has them.
		ApproximateCreationDateTime: epochSeconds(float64(r.millis / 1000)),
		Keys:                        keys,
		SequenceNumber:              aws.String(formatSequenceNumber(r.seq)),
		SizeBytes:                   aws.Int64(int64(r.size)),
		StreamViewType:              stypes.StreamViewType(r.viewType()),
	}
	if sr.NewImage, err = r.imageToSDK(r.newImage); err != nil {
		return stypes.Record{}, err
	}
	if sr.OldImage, err = r.imageToSDK(r.oldImage); err != nil {
		return stypes.Record{}, err
	}
	out := stypes.Record{
		AwsRegion:    aws.String(r.region),
		Dynamodb:     sr,
		EventID:      aws.String(hex.EncodeToString(r.id)),
		EventName:    stypes.OperationType(r.event()),
		EventSource:  aws.String(recordEventSource),
		EventVersion: aws.String(recordEventVersion),
	}
	if r.byService() {
		out.UserIdentity = &stypes.Identity{PrincipalId: aws.String(servicePrincipal), Type: aws.String(serviceIdentityType)}
	}
	return out, nil
}

// keysToSDK builds the record's key attributes.
func (r *storedRecord) keysToSDK() (map[string]stypes.AttributeValue, error) {
	keys, err := attr.DecodeBinaryAs[stypes.AttributeValue](r.keys, streamsBuilder{})
	if err != nil {
		return nil, r.corrupt(errBadRecord)
	}
	return keys, nil
}

// imageToSDK builds an image of the record from its stored form, adding
// the key attributes it leaves out; nil stays nil (no such image). The keys
// are built again for each map, so that no two of the record's maps share
// a value, as none of the SDK's do.
func (r *storedRecord) imageToSDK(image []byte) (map[string]stypes.AttributeValue, error) {
	if image == nil {
		return nil, nil
	}
	m, err := attr.DecodeBinaryAs[stypes.AttributeValue](image, streamsBuilder{})
	if err != nil {
		return nil, r.corrupt(err)
	}
	keys, err := r.keysToSDK()
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
