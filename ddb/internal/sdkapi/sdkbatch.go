package sdkapi

// BatchGetItem and BatchWriteItem on the in-process API (sdkapi.go).

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// BatchGetItem reads up to 100 items, as dynamodb.Client.BatchGetItem does.
func (d *API) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return call(ctx, "BatchGetItem", orEmpty(in), batchGetFromSDK, d.e.BatchGetItem, batchGetToSDK)
}

// BatchWriteItem puts and deletes up to 25 items, as
// dynamodb.Client.BatchWriteItem does.
func (d *API) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return call(ctx, "BatchWriteItem", orEmpty(in), batchWriteFromSDK, d.e.BatchWriteItem, func(out *engine.BatchWriteOutput) (*dynamodb.BatchWriteItemOutput, error) {
		// Every request is applied at once: UnprocessedItems is always empty.
		return &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{}, ConsumedCapacity: reportsToSDK(out.Capacity)}, nil
	})
}

// batchGetFromSDK builds the engine's BatchGetItem request.
func batchGetFromSDK(in *dynamodb.BatchGetItemInput) (*engine.BatchGetInput, error) {
	x := &engine.BatchGetInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
	if in.RequestItems != nil {
		x.RequestItems = make(map[string]*engine.KeysAndAttributes, len(in.RequestItems))
	}
	for table, ka := range in.RequestItems {
		keys, err := itemsFromSDK(ka.Keys)
		if err != nil {
			return nil, err
		}
		x.RequestItems[table] = &engine.KeysAndAttributes{Keys: keys, ProjectionExpression: ka.ProjectionExpression,
			ExpressionAttributeNames: ka.ExpressionAttributeNames, ConsistentRead: aws.ToBool(ka.ConsistentRead), AttributesToGet: ka.AttributesToGet}
	}
	return x, nil
}

// batchGetToSDK converts BatchGetItem's answer.
func batchGetToSDK(out *engine.BatchGetOutput) (*dynamodb.BatchGetItemOutput, error) {
	res := &dynamodb.BatchGetItemOutput{ConsumedCapacity: reportsToSDK(out.Capacity),
		Responses:       make(map[string][]map[string]types.AttributeValue, len(out.Responses)),
		UnprocessedKeys: make(map[string]types.KeysAndAttributes, len(out.Unprocessed))}
	for table, items := range out.Responses {
		list, err := resultItemsToSDK(items)
		if err != nil {
			return nil, err
		}
		res.Responses[table] = list
	}
	for table, ka := range out.Unprocessed {
		keys := make([]map[string]types.AttributeValue, len(ka.Keys))
		for i, k := range ka.Keys {
			keys[i] = itemToSDK(k)
		}
		u := types.KeysAndAttributes{Keys: keys, ProjectionExpression: ka.ProjectionExpression,
			ExpressionAttributeNames: ka.ExpressionAttributeNames, AttributesToGet: ka.AttributesToGet}
		if ka.ConsistentRead {
			u.ConsistentRead = aws.Bool(true) // omitted when false, as in the JSON answer
		}
		res.UnprocessedKeys[table] = u
	}
	return res, nil
}

// batchWriteFromSDK builds the engine's BatchWriteItem request.
func batchWriteFromSDK(in *dynamodb.BatchWriteItemInput) (*engine.BatchWriteInput, error) {
	x := &engine.BatchWriteInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity), ReturnItemCollectionMetrics: string(in.ReturnItemCollectionMetrics)}
	if in.RequestItems != nil {
		x.RequestItems = make(map[string][]engine.WriteRequest, len(in.RequestItems))
	}
	for table, reqs := range in.RequestItems {
		var list []engine.WriteRequest
		if reqs != nil {
			list = make([]engine.WriteRequest, len(reqs))
		}
		for i, r := range reqs {
			if r.PutRequest != nil {
				item, err := itemFromSDK(r.PutRequest.Item)
				if err != nil {
					return nil, err
				}
				list[i].PutRequest = &engine.PutRequest{Item: item}
			}
			if r.DeleteRequest != nil {
				key, err := itemFromSDK(r.DeleteRequest.Key)
				if err != nil {
					return nil, err
				}
				list[i].DeleteRequest = &engine.DeleteRequest{Key: key}
			}
		}
		x.RequestItems[table] = list
	}
	return x, nil
}
