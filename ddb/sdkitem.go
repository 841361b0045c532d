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
	return call(ctx, "PutItem", orEmpty(in), putItemFromSDK, asMap(d.e.putItem), func(out map[string]any) (*dynamodb.PutItemOutput, error) {
		w, err := writeOutputToSDK(out)
		return &dynamodb.PutItemOutput{Attributes: w.attributes, ConsumedCapacity: w.capacity, ItemCollectionMetrics: w.metrics}, err
	})
}

// UpdateItem edits an item, as dynamodb.Client.UpdateItem does.
func (d *API) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return call(ctx, "UpdateItem", orEmpty(in), updateItemFromSDK, asMap(d.e.updateItem), func(out map[string]any) (*dynamodb.UpdateItemOutput, error) {
		w, err := writeOutputToSDK(out)
		return &dynamodb.UpdateItemOutput{Attributes: w.attributes, ConsumedCapacity: w.capacity, ItemCollectionMetrics: w.metrics}, err
	})
}

// DeleteItem deletes an item, as dynamodb.Client.DeleteItem does.
func (d *API) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return call(ctx, "DeleteItem", orEmpty(in), deleteItemFromSDK, asMap(d.e.deleteItem), func(out map[string]any) (*dynamodb.DeleteItemOutput, error) {
		w, err := writeOutputToSDK(out)
		return &dynamodb.DeleteItemOutput{Attributes: w.attributes, ConsumedCapacity: w.capacity, ItemCollectionMetrics: w.metrics}, err
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

// getItemToSDK converts a GetItem response.
func getItemToSDK(out map[string]any) (*dynamodb.GetItemOutput, error) {
	item, err := responseItem(out, "Item")
	if err != nil {
		return nil, err
	}
	return &dynamodb.GetItemOutput{Item: item, ConsumedCapacity: capacityToSDK(out["ConsumedCapacity"])}, nil
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

// writeOutput is what the responses of the single-item writes hold.
type writeOutput struct {
	attributes map[string]types.AttributeValue
	capacity   *types.ConsumedCapacity
	metrics    *types.ItemCollectionMetrics
}

// writeOutputToSDK converts the response of a single-item write.
func writeOutputToSDK(out map[string]any) (writeOutput, error) {
	attrs, err := responseItem(out, "Attributes")
	if err != nil {
		return writeOutput{}, err
	}
	metrics, err := collectionMetricsToSDK(out["ItemCollectionMetrics"])
	if err != nil {
		return writeOutput{}, err
	}
	return writeOutput{attributes: attrs, capacity: capacityToSDK(out["ConsumedCapacity"]), metrics: metrics}, nil
}
