package wire

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// streamOperations maps Streams API operation names to handlers.
var streamOperations = map[string]Operation{
	"ListStreams":      op((*engine.Engine).ListStreams),
	"DescribeStream":   op((*engine.Engine).DescribeStream),
	"GetShardIterator": op(getShardIterator),
	"GetRecords":       op((*engine.Engine).GetRecords),
}

// getShardIterator runs GetShardIterator and answers the iterator in its
// string form, the one clients hand back to GetRecords.
func getShardIterator(e *engine.Engine, ctx context.Context, in *engine.GetShardIteratorInput) (*engine.ShardIteratorOutput, error) {
	it, err := e.GetShardIterator(ctx, in)
	if err != nil {
		return nil, err
	}
	return &engine.ShardIteratorOutput{Iterator: it.String()}, nil
}
