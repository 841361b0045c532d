package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Every data-plane request goes through request: it sends the call through Store.send (the
// observer and the operation's cost account see it) and maps its error once, with storeError,
// which keeps the SDK error inside (so isConditionFailed and cancellationReasons still find
// it). The SDK's own retryer already retries throttling on single requests; conflicts and
// unprocessed items are retried by the callers above. Inputs are sent with the store's table
// and ask for the consumed capacity (ReturnConsumedCapacity TOTAL), which the methods below
// set, each in one line.
func request[Out any](ctx context.Context, s *Store, operation string, call func(context.Context) (*Out, error), capacity func(*Out) []types.ConsumedCapacity) (*Out, error) {
	var out *Out
	err := s.send(ctx, operation, func(ctx context.Context) (_ []types.ConsumedCapacity, err error) {
		if out, err = call(ctx); err != nil || out == nil {
			return nil, err
		}
		return capacity(out), nil
	})
	return out, storeError(operation, err)
}

// total asks a request for its consumed capacity.
const total = types.ReturnConsumedCapacityTotal

// one is a single-table response's consumed capacity as a list.
func one(cc *types.ConsumedCapacity) []types.ConsumedCapacity {
	if cc == nil {
		return nil
	}
	return []types.ConsumedCapacity{*cc}
}

// getItem reads one item with a strongly consistent read (the writes that follow it depend
// on it); nil when there is none.
func (s *Store) getItem(ctx context.Context, key Key) (Item, error) {
	return s.getItemInput(ctx, &dynamodb.GetItemInput{Key: key.item(), ConsistentRead: aws.Bool(true)})
}

// getItemInput sends in to the table; nil when there is no such item.
func (s *Store) getItemInput(ctx context.Context, in *dynamodb.GetItemInput) (Item, error) {
	in.TableName, in.ReturnConsumedCapacity = &s.table, total
	out, err := request(ctx, s, "GetItem", func(ctx context.Context) (*dynamodb.GetItemOutput, error) { return s.api.GetItem(ctx, in) },
		func(o *dynamodb.GetItemOutput) []types.ConsumedCapacity { return one(o.ConsumedCapacity) })
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

func (s *Store) putItem(ctx context.Context, in *dynamodb.PutItemInput) error {
	in.TableName, in.ReturnConsumedCapacity = &s.table, total
	_, err := request(ctx, s, "PutItem", func(ctx context.Context) (*dynamodb.PutItemOutput, error) { return s.api.PutItem(ctx, in) },
		func(o *dynamodb.PutItemOutput) []types.ConsumedCapacity { return one(o.ConsumedCapacity) })
	return err
}

func (s *Store) updateItem(ctx context.Context, in *dynamodb.UpdateItemInput) (*dynamodb.UpdateItemOutput, error) {
	in.TableName, in.ReturnConsumedCapacity = &s.table, total
	return request(ctx, s, "UpdateItem", func(ctx context.Context) (*dynamodb.UpdateItemOutput, error) { return s.api.UpdateItem(ctx, in) },
		func(o *dynamodb.UpdateItemOutput) []types.ConsumedCapacity { return one(o.ConsumedCapacity) })
}

func (s *Store) query(ctx context.Context, in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
	in.TableName, in.ReturnConsumedCapacity = &s.table, total
	return request(ctx, s, "Query", func(ctx context.Context) (*dynamodb.QueryOutput, error) { return s.api.Query(ctx, in) },
		func(o *dynamodb.QueryOutput) []types.ConsumedCapacity { return one(o.ConsumedCapacity) })
}

func (s *Store) scan(ctx context.Context, in *dynamodb.ScanInput) (*dynamodb.ScanOutput, error) {
	in.TableName, in.ReturnConsumedCapacity = &s.table, total
	return request(ctx, s, "Scan", func(ctx context.Context) (*dynamodb.ScanOutput, error) { return s.api.Scan(ctx, in) },
		func(o *dynamodb.ScanOutput) []types.ConsumedCapacity { return one(o.ConsumedCapacity) })
}

func (s *Store) batchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemOutput, error) {
	in.ReturnConsumedCapacity = total
	return request(ctx, s, "BatchGetItem", func(ctx context.Context) (*dynamodb.BatchGetItemOutput, error) { return s.api.BatchGetItem(ctx, in) },
		func(o *dynamodb.BatchGetItemOutput) []types.ConsumedCapacity { return o.ConsumedCapacity })
}

func (s *Store) batchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemOutput, error) {
	in.ReturnConsumedCapacity = total
	return request(ctx, s, "BatchWriteItem", func(ctx context.Context) (*dynamodb.BatchWriteItemOutput, error) {
		return s.api.BatchWriteItem(ctx, in)
	},
		func(o *dynamodb.BatchWriteItemOutput) []types.ConsumedCapacity { return o.ConsumedCapacity })
}

func (s *Store) transactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput) error {
	in.ReturnConsumedCapacity = total
	_, err := request(ctx, s, "TransactWriteItems", func(ctx context.Context) (*dynamodb.TransactWriteItemsOutput, error) {
		return s.api.TransactWriteItems(ctx, in)
	},
		func(o *dynamodb.TransactWriteItemsOutput) []types.ConsumedCapacity { return o.ConsumedCapacity })
	return err
}

// item is the key as a DynamoDB key map.
func (k Key) item() Item { return Item{attrPK: str(k.PK), attrSK: str(k.SK)} }
