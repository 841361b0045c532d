package ddb

// Query and Scan on the in-process API (sdkapi.go).

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Query reads the items of one partition, as dynamodb.Client.Query does.
func (d *API) Query(ctx context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return call(ctx, "Query", orEmpty(in), queryFromSDK, d.e.query, func(out map[string]any) (*dynamodb.QueryOutput, error) {
		l, err := listOutputToSDK(out)
		return &dynamodb.QueryOutput{Items: l.items, Count: l.count, ScannedCount: l.scanned, LastEvaluatedKey: l.lastKey, ConsumedCapacity: l.capacity}, err
	})
}

// Scan reads every item of a table or index, as dynamodb.Client.Scan does.
func (d *API) Scan(ctx context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return call(ctx, "Scan", orEmpty(in), scanFromSDK, d.e.scan, func(out map[string]any) (*dynamodb.ScanOutput, error) {
		l, err := listOutputToSDK(out)
		return &dynamodb.ScanOutput{Items: l.items, Count: l.count, ScannedCount: l.scanned, LastEvaluatedKey: l.lastKey, ConsumedCapacity: l.capacity}, err
	})
}

// listSDKParams are the SDK's parameters that Query and Scan share.
type listSDKParams struct {
	table, index, projection, filter *string
	consistent                       *bool
	rcc                              types.ReturnConsumedCapacity
	sel                              types.Select
	limit                            *int32
	startKey                         map[string]types.AttributeValue
	names                            map[string]string
	values                           map[string]types.AttributeValue
	attributesToGet                  []string
	conditionalOperator              types.ConditionalOperator
}

// listParams builds the engine's listParams.
func (p listSDKParams) listParams() (listParams, error) {
	start, err := itemFromSDK(p.startKey)
	if err != nil {
		return listParams{}, err
	}
	values, err := valuesFromSDK(p.values)
	if err != nil {
		return listParams{}, err
	}
	lp := listParams{
		readParams:        readParamsFromSDK(p.table, p.projection, p.consistent, p.rcc),
		IndexName:         deref(p.index),
		FilterExpression:  p.filter,
		Select:            string(p.sel),
		ExclusiveStartKey: start,
	}
	if p.limit != nil {
		n := int(*p.limit)
		lp.Limit = &n
	}
	lp.exprParams = exprParams{ExpressionAttributeNames: p.names, ExpressionAttributeValues: values}
	lp.AttributesToGet = p.attributesToGet
	lp.ConditionalOperator = string(p.conditionalOperator)
	return lp, nil
}

// queryFromSDK builds the engine's Query request.
func queryFromSDK(in *dynamodb.QueryInput) (*queryInput, error) {
	lp, err := listSDKParams{table: in.TableName, index: in.IndexName, projection: in.ProjectionExpression, filter: in.FilterExpression,
		consistent: in.ConsistentRead, rcc: in.ReturnConsumedCapacity, sel: in.Select, limit: in.Limit, startKey: in.ExclusiveStartKey,
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, attributesToGet: in.AttributesToGet,
		conditionalOperator: in.ConditionalOperator}.listParams()
	if err != nil {
		return nil, err
	}
	if lp.KeyConditions, err = conditionsFromSDK(in.KeyConditions); err != nil {
		return nil, err
	}
	if lp.QueryFilter, err = conditionsFromSDK(in.QueryFilter); err != nil {
		return nil, err
	}
	return &queryInput{listParams: lp, KeyConditionExpression: in.KeyConditionExpression, ScanIndexForward: in.ScanIndexForward}, nil
}

// scanFromSDK builds the engine's Scan request.
func scanFromSDK(in *dynamodb.ScanInput) (*scanInput, error) {
	lp, err := listSDKParams{table: in.TableName, index: in.IndexName, projection: in.ProjectionExpression, filter: in.FilterExpression,
		consistent: in.ConsistentRead, rcc: in.ReturnConsumedCapacity, sel: in.Select, limit: in.Limit, startKey: in.ExclusiveStartKey,
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues, attributesToGet: in.AttributesToGet,
		conditionalOperator: in.ConditionalOperator}.listParams()
	if err != nil {
		return nil, err
	}
	if lp.ScanFilter, err = conditionsFromSDK(in.ScanFilter); err != nil {
		return nil, err
	}
	return &scanInput{listParams: lp, Segment: intPtr(in.Segment), TotalSegments: intPtr(in.TotalSegments)}, nil
}

// intPtr converts an optional int32 parameter.
func intPtr(n *int32) *int {
	if n == nil {
		return nil
	}
	v := int(*n)
	return &v
}

// listOutput is what Query and Scan responses hold.
type listOutput struct {
	items          []map[string]types.AttributeValue
	count, scanned int32
	lastKey        map[string]types.AttributeValue
	capacity       *types.ConsumedCapacity
}

// listOutputToSDK converts a Query or Scan response (source.respond).
func listOutputToSDK(out map[string]any) (listOutput, error) {
	l := listOutput{count: int32(number(out["Count"])), scanned: int32(number(out["ScannedCount"])), capacity: capacityToSDK(out["ConsumedCapacity"])}
	var err error
	if items, ok := out["Items"].([]any); ok {
		if l.items, err = responseItemsToSDK(items); err != nil {
			return listOutput{}, err
		}
	}
	if l.lastKey, err = responseItem(out, "LastEvaluatedKey"); err != nil {
		return listOutput{}, err
	}
	return l, nil
}
