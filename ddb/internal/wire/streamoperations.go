package wire

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// streamOperations maps Streams API operation names to handlers.
var streamOperations = map[string]Operation{
	"ListStreams":      opListStreams,
	"DescribeStream":   opDescribeStream,
	"GetShardIterator": opGetShardIterator,
	"GetRecords":       opGetRecords,
}

// opListStreams decodes a ListStreams request and runs it.
func opListStreams(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.ListStreamsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	l, err := e.ListStreams(ctx, &in)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// opDescribeStream decodes a DescribeStream request and runs it.
func opDescribeStream(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.DescribeStreamInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	d, err := e.DescribeStream(ctx, &in)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// opGetShardIterator decodes a GetShardIterator request and runs it.
func opGetShardIterator(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.GetShardIteratorInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	it, err := e.GetShardIterator(ctx, &in)
	if err != nil {
		return nil, err
	}
	return &engine.ShardIteratorOutput{Iterator: it.String()}, nil
}

// opGetRecords decodes a GetRecords request and runs it.
func opGetRecords(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.GetRecordsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	p, err := e.GetRecords(ctx, &in)
	if err != nil {
		return nil, err
	}
	return p, nil
}
