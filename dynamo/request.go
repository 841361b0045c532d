package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Every data-plane request goes through one of these methods, which ask DynamoDB for the
// consumed capacity and send the request through Store.send. The SDK's own retryer already
// retries throttling on single requests; conflicts and unprocessed items are retried by the
// callers above.

func (s *Store) getItem(ctx context.Context, key Key, consistent bool) (Item, error) {
	var out *dynamodb.GetItemOutput
	err := s.send(ctx, "GetItem", func(ctx context.Context) (_ []types.ConsumedCapacity, err error) {
		out, err = s.api.GetItem(ctx, &dynamodb.GetItemInput{
			TableName:              &s.table,
			Key:                    key.item(),
			ConsistentRead:         aws.Bool(consistent),
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		return capacityOf(out, err, func(o *dynamodb.GetItemOutput) *types.ConsumedCapacity { return o.ConsumedCapacity }), err
	})
	if err != nil {
		return nil, storeError("GetItem", err)
	}
	return out.Item, nil
}

func (s *Store) putItem(ctx context.Context, in *dynamodb.PutItemInput) error {
	in.TableName = &s.table
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	return s.send(ctx, "PutItem", func(ctx context.Context) ([]types.ConsumedCapacity, error) {
		out, err := s.api.PutItem(ctx, in)
		return capacityOf(out, err, func(o *dynamodb.PutItemOutput) *types.ConsumedCapacity { return o.ConsumedCapacity }), err
	})
}

func (s *Store) updateItem(ctx context.Context, in *dynamodb.UpdateItemInput) (*dynamodb.UpdateItemOutput, error) {
	in.TableName = &s.table
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	var out *dynamodb.UpdateItemOutput
	err := s.send(ctx, "UpdateItem", func(ctx context.Context) (_ []types.ConsumedCapacity, err error) {
		out, err = s.api.UpdateItem(ctx, in)
		return capacityOf(out, err, func(o *dynamodb.UpdateItemOutput) *types.ConsumedCapacity { return o.ConsumedCapacity }), err
	})
	return out, err
}

func (s *Store) query(ctx context.Context, in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
	in.TableName = &s.table
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	var out *dynamodb.QueryOutput
	err := s.send(ctx, "Query", func(ctx context.Context) (_ []types.ConsumedCapacity, err error) {
		out, err = s.api.Query(ctx, in)
		return capacityOf(out, err, func(o *dynamodb.QueryOutput) *types.ConsumedCapacity { return o.ConsumedCapacity }), err
	})
	if err != nil {
		return nil, storeError("Query", err)
	}
	return out, nil
}

func (s *Store) scan(ctx context.Context, in *dynamodb.ScanInput) (*dynamodb.ScanOutput, error) {
	in.TableName = &s.table
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	var out *dynamodb.ScanOutput
	err := s.send(ctx, "Scan", func(ctx context.Context) (_ []types.ConsumedCapacity, err error) {
		out, err = s.api.Scan(ctx, in)
		return capacityOf(out, err, func(o *dynamodb.ScanOutput) *types.ConsumedCapacity { return o.ConsumedCapacity }), err
	})
	if err != nil {
		return nil, storeError("Scan", err)
	}
	return out, nil
}

func (s *Store) batchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	var out *dynamodb.BatchGetItemOutput
	err := s.send(ctx, "BatchGetItem", func(ctx context.Context) (_ []types.ConsumedCapacity, err error) {
		out, err = s.api.BatchGetItem(ctx, in)
		if err != nil {
			return nil, err
		}
		return out.ConsumedCapacity, nil
	})
	if err != nil {
		return nil, storeError("BatchGetItem", err)
	}
	return out, nil
}

func (s *Store) transactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput) error {
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	return s.send(ctx, "TransactWriteItems", func(ctx context.Context) ([]types.ConsumedCapacity, error) {
		out, err := s.api.TransactWriteItems(ctx, in)
		if err != nil {
			return nil, err
		}
		return out.ConsumedCapacity, nil
	})
}

// capacityOf returns the consumed capacity of a single-item or query response.
func capacityOf[O any](out *O, err error, get func(*O) *types.ConsumedCapacity) []types.ConsumedCapacity {
	if err != nil || out == nil {
		return nil
	}
	if cc := get(out); cc != nil {
		return []types.ConsumedCapacity{*cc}
	}
	return nil
}

// item is the key as a DynamoDB key map.
func (k Key) item() Item { return Item{attrPK: str(k.PK), attrSK: str(k.SK)} }
