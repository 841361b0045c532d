package sdkapi

// The single-item operations on the in-process API (sdkapi.go): GetItem,
// PutItem, UpdateItem and DeleteItem.

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// GetItem returns one item by key, as dynamodb.Client.GetItem does.
func (d *API) GetItem(ctx context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return call(ctx, "GetItem", orEmpty(in), getItemFromSDK, func(ctx context.Context, x *engine.GetItemInput) (*engine.GetItemOutput, error) {
		out, err := d.e.GetItem(ctx, x)
		releaseGetItemInput(x) // the answer holds no part of the request
		return out, err
	}, getItemToSDK)
}

// PutItem creates or replaces an item, as dynamodb.Client.PutItem does.
func (d *API) PutItem(ctx context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return call(ctx, "PutItem", orEmpty(in), putItemFromSDK, d.e.PutItem, func(out *engine.ItemWriteOutput) (*dynamodb.PutItemOutput, error) {
		attrs, cc, icm := itemWriteOutputToSDK(out)
		return &dynamodb.PutItemOutput{Attributes: attrs, ConsumedCapacity: cc, ItemCollectionMetrics: icm}, nil
	})
}

// UpdateItem edits an item, as dynamodb.Client.UpdateItem does.
func (d *API) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return call(ctx, "UpdateItem", orEmpty(in), updateItemFromSDK, d.e.UpdateItem, func(out *engine.ItemWriteOutput) (*dynamodb.UpdateItemOutput, error) {
		attrs, cc, icm := itemWriteOutputToSDK(out)
		return &dynamodb.UpdateItemOutput{Attributes: attrs, ConsumedCapacity: cc, ItemCollectionMetrics: icm}, nil
	})
}

// DeleteItem deletes an item, as dynamodb.Client.DeleteItem does.
func (d *API) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return call(ctx, "DeleteItem", orEmpty(in), deleteItemFromSDK, d.e.DeleteItem, func(out *engine.ItemWriteOutput) (*dynamodb.DeleteItemOutput, error) {
		attrs, cc, icm := itemWriteOutputToSDK(out)
		return &dynamodb.DeleteItemOutput{Attributes: attrs, ConsumedCapacity: cc, ItemCollectionMetrics: icm}, nil
	})
}

// getItemFromSDK builds the engine's GetItem request.
func getItemFromSDK(in *dynamodb.GetItemInput) (*engine.GetItemInput, error) {
	x, err := newGetItemInput(in.Key)
	if err != nil {
		return nil, err
	}
	x.ReadParams = readParamsFromSDK(in.TableName, in.ProjectionExpression, in.ConsistentRead, in.ReturnConsumedCapacity)
	x.ExpressionAttributeNames = in.ExpressionAttributeNames
	x.AttributesToGet = in.AttributesToGet
	return x, nil
}

// readParamsFromSDK builds the parameters the reads share; the expression
// and legacy parameters are set by the caller.
func readParamsFromSDK(table, projection *string, consistent *bool, rcc types.ReturnConsumedCapacity) engine.ReadParams {
	return engine.ReadParams{
		TableName:              engine.Deref(table),
		TableNameAbsent:        table == nil,
		ProjectionExpression:   projection,
		ConsistentRead:         aws.ToBool(consistent),
		ReturnConsumedCapacity: string(rcc),
	}
}

// getItemToSDK converts GetItem's answer.
func getItemToSDK(out *engine.GetItemOutput) (*dynamodb.GetItemOutput, error) {
	item, err := resultItemToSDK(out.Item, newItemBuilder(1))
	if err != nil {
		return nil, err
	}
	return &dynamodb.GetItemOutput{Item: item, ConsumedCapacity: consumedCapacityToSDK(out.Capacity)}, nil
}

// writeSDKParams are the SDK's parameters of PutItem, UpdateItem and
// DeleteItem that writeParams holds.
type writeSDKParams struct {
	table, condition         *string
	conditionalOperator      types.ConditionalOperator
	expected                 map[string]types.ExpectedAttributeValue
	names                    map[string]string
	values                   map[string]types.AttributeValue
	rcc                      types.ReturnConsumedCapacity
	ricm                     types.ReturnItemCollectionMetrics
	returnValues             types.ReturnValue
	returnValuesOnCondFailed types.ReturnValuesOnConditionCheckFailure
}

// writeParams builds the engine's writeParams.
func (p writeSDKParams) writeParams() (engine.WriteParams, error) {
	values, err := valuesFromSDK(p.values)
	if err != nil {
		return engine.WriteParams{}, err
	}
	expected, err := expectedFromSDK(p.expected)
	if err != nil {
		return engine.WriteParams{}, err
	}
	return engine.WriteParams{
		TableName:                           engine.Deref(p.table),
		TableNameAbsent:                     p.table == nil,
		ConditionExpression:                 p.condition,
		ReturnValues:                        string(p.returnValues),
		ReturnValuesOnConditionCheckFailure: string(p.returnValuesOnCondFailed),
		ReturnConsumedCapacity:              string(p.rcc),
		ReturnItemCollectionMetrics:         string(p.ricm),
		ExprParams:                          engine.ExprParams{ExpressionAttributeNames: p.names, ExpressionAttributeValues: values},
		LegacyParams:                        engine.LegacyParams{Expected: expected, ConditionalOperator: string(p.conditionalOperator)},
	}, nil
}

// putItemFromSDK builds the engine's PutItem request.
func putItemFromSDK(in *dynamodb.PutItemInput) (*engine.PutItemInput, error) {
	item, err := itemFromSDK(in.Item)
	if err != nil {
		return nil, err
	}
	wp, err := writeSDKParams{table: in.TableName, condition: in.ConditionExpression, conditionalOperator: in.ConditionalOperator,
		expected: in.Expected, names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, rcc: in.ReturnConsumedCapacity,
		ricm: in.ReturnItemCollectionMetrics, returnValues: in.ReturnValues, returnValuesOnCondFailed: in.ReturnValuesOnConditionCheckFailure}.writeParams()
	if err != nil {
		return nil, err
	}
	return &engine.PutItemInput{Item: item, WriteParams: wp}, nil
}

// updateItemFromSDK builds the engine's UpdateItem request.
func updateItemFromSDK(in *dynamodb.UpdateItemInput) (*engine.UpdateItemInput, error) {
	key, err := itemFromSDK(in.Key)
	if err != nil {
		return nil, err
	}
	wp, err := writeSDKParams{table: in.TableName, condition: in.ConditionExpression, conditionalOperator: in.ConditionalOperator,
		expected: in.Expected, names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, rcc: in.ReturnConsumedCapacity,
		ricm: in.ReturnItemCollectionMetrics, returnValues: in.ReturnValues, returnValuesOnCondFailed: in.ReturnValuesOnConditionCheckFailure}.writeParams()
	if err != nil {
		return nil, err
	}
	if wp.AttributeUpdates, err = attributeUpdatesFromSDK(in.AttributeUpdates); err != nil {
		return nil, err
	}
	return &engine.UpdateItemInput{KeyInput: engine.KeyInput{Key: key}, UpdateExpression: in.UpdateExpression, WriteParams: wp}, nil
}

// deleteItemFromSDK builds the engine's DeleteItem request.
func deleteItemFromSDK(in *dynamodb.DeleteItemInput) (*engine.DeleteItemInput, error) {
	key, err := itemFromSDK(in.Key)
	if err != nil {
		return nil, err
	}
	wp, err := writeSDKParams{table: in.TableName, condition: in.ConditionExpression, conditionalOperator: in.ConditionalOperator,
		expected: in.Expected, names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, rcc: in.ReturnConsumedCapacity,
		ricm: in.ReturnItemCollectionMetrics, returnValues: in.ReturnValues, returnValuesOnCondFailed: in.ReturnValuesOnConditionCheckFailure}.writeParams()
	if err != nil {
		return nil, err
	}
	return &engine.DeleteItemInput{KeyInput: engine.KeyInput{Key: key}, WriteParams: wp}, nil
}

// itemWriteOutputToSDK converts the answer of a single-item write into what its SDK
// output holds.
func itemWriteOutputToSDK(o *engine.ItemWriteOutput) (map[string]types.AttributeValue, *types.ConsumedCapacity, *types.ItemCollectionMetrics) {
	var attrs map[string]types.AttributeValue
	if o.Attributes != nil {
		attrs = itemToSDK(o.Attributes)
	}
	var icm *types.ItemCollectionMetrics
	if m := o.Metrics; m != nil {
		icm = &types.ItemCollectionMetrics{ItemCollectionKey: itemToSDK(m.Key), SizeEstimateRangeGB: []float64{m.Low, m.High}}
	}
	return attrs, consumedCapacityToSDK(o.Capacity), icm
}
