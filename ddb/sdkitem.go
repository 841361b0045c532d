package ddb

// The single-item operations on the in-process API (sdkapi.go): GetItem,
// PutItem, UpdateItem and DeleteItem.

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// GetItem returns one item by key, as dynamodb.Client.GetItem does.
func (d *API) GetItem(ctx context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return call(ctx, "GetItem", orEmpty(in), getItemFromSDK, d.e.getItem, getItemToSDK)
}

// PutItem creates or replaces an item, as dynamodb.Client.PutItem does.
func (d *API) PutItem(ctx context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return call(ctx, "PutItem", orEmpty(in), putItemFromSDK, d.e.putItem, func(out *itemWriteOutput) (*dynamodb.PutItemOutput, error) {
		attrs, cc, icm := out.toSDK()
		return &dynamodb.PutItemOutput{Attributes: attrs, ConsumedCapacity: cc, ItemCollectionMetrics: icm}, nil
	})
}

// UpdateItem edits an item, as dynamodb.Client.UpdateItem does.
func (d *API) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return call(ctx, "UpdateItem", orEmpty(in), updateItemFromSDK, d.e.updateItem, func(out *itemWriteOutput) (*dynamodb.UpdateItemOutput, error) {
		attrs, cc, icm := out.toSDK()
		return &dynamodb.UpdateItemOutput{Attributes: attrs, ConsumedCapacity: cc, ItemCollectionMetrics: icm}, nil
	})
}

// DeleteItem deletes an item, as dynamodb.Client.DeleteItem does.
func (d *API) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return call(ctx, "DeleteItem", orEmpty(in), deleteItemFromSDK, d.e.deleteItem, func(out *itemWriteOutput) (*dynamodb.DeleteItemOutput, error) {
		attrs, cc, icm := out.toSDK()
		return &dynamodb.DeleteItemOutput{Attributes: attrs, ConsumedCapacity: cc, ItemCollectionMetrics: icm}, nil
	})
}

// getItemFromSDK builds the engine's GetItem request.
func getItemFromSDK(in *dynamodb.GetItemInput) (*getItemInput, error) {
	key, err := itemFromSDK(in.Key)
	if err != nil {
		return nil, err
	}
	x := &getItemInput{keyInput: keyInput{Key: key}}
	x.readParams = readParamsFromSDK(in.TableName, in.ProjectionExpression, in.ConsistentRead, in.ReturnConsumedCapacity)
	x.ExpressionAttributeNames = in.ExpressionAttributeNames
	x.AttributesToGet = in.AttributesToGet
	return x, nil
}

// readParamsFromSDK builds the parameters the reads share; the expression
// and legacy parameters are set by the caller.
func readParamsFromSDK(table, projection *string, consistent *bool, rcc types.ReturnConsumedCapacity) readParams {
	return readParams{
		TableName:              deref(table),
		tableNameAbsent:        table == nil,
		ProjectionExpression:   projection,
		ConsistentRead:         aws.ToBool(consistent),
		ReturnConsumedCapacity: string(rcc),
	}
}

// getItemToSDK converts GetItem's answer.
func getItemToSDK(out *getItemOutput) (*dynamodb.GetItemOutput, error) {
	item, err := out.item.toSDK()
	if err != nil {
		return nil, err
	}
	return &dynamodb.GetItemOutput{Item: item, ConsumedCapacity: out.capacity.toSDK()}, nil
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
func (p writeSDKParams) writeParams() (writeParams, error) {
	values, err := valuesFromSDK(p.values)
	if err != nil {
		return writeParams{}, err
	}
	expected, err := expectedFromSDK(p.expected)
	if err != nil {
		return writeParams{}, err
	}
	return writeParams{
		TableName:                           deref(p.table),
		tableNameAbsent:                     p.table == nil,
		ConditionExpression:                 p.condition,
		ReturnValues:                        string(p.returnValues),
		ReturnValuesOnConditionCheckFailure: string(p.returnValuesOnCondFailed),
		ReturnConsumedCapacity:              string(p.rcc),
		ReturnItemCollectionMetrics:         string(p.ricm),
		exprParams:                          exprParams{ExpressionAttributeNames: p.names, ExpressionAttributeValues: values},
		legacyParams:                        legacyParams{Expected: expected, ConditionalOperator: string(p.conditionalOperator)},
	}, nil
}

// putItemFromSDK builds the engine's PutItem request.
func putItemFromSDK(in *dynamodb.PutItemInput) (*putItemInput, error) {
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
	return &putItemInput{Item: item, writeParams: wp}, nil
}

// updateItemFromSDK builds the engine's UpdateItem request.
func updateItemFromSDK(in *dynamodb.UpdateItemInput) (*updateItemInput, error) {
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
	return &updateItemInput{keyInput: keyInput{Key: key}, UpdateExpression: in.UpdateExpression, writeParams: wp}, nil
}

// deleteItemFromSDK builds the engine's DeleteItem request.
func deleteItemFromSDK(in *dynamodb.DeleteItemInput) (*deleteItemInput, error) {
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
	return &deleteItemInput{keyInput: keyInput{Key: key}, writeParams: wp}, nil
}

// toSDK converts the answer of a single-item write into what its SDK
// output holds.
func (o *itemWriteOutput) toSDK() (map[string]types.AttributeValue, *types.ConsumedCapacity, *types.ItemCollectionMetrics) {
	var attrs map[string]types.AttributeValue
	if o.attributes != nil {
		attrs = itemToSDK(o.attributes)
	}
	var icm *types.ItemCollectionMetrics
	if m := o.metrics; m != nil {
		icm = &types.ItemCollectionMetrics{ItemCollectionKey: itemToSDK(m.key), SizeEstimateRangeGB: []float64{m.low, m.high}}
	}
	return attrs, o.capacity.toSDK(), icm
}
