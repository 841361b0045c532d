package ddb

// Query and Scan on the in-process API (sdkapi.go).

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Query reads the items of one partition, as dynamodb.Client.Query does.
func (d *API) Query(ctx context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return call(ctx, "Query", orEmpty(in), queryFromSDK, d.e.query, func(out *listOutput) (*dynamodb.QueryOutput, error) {
		items, err := out.itemsToSDK()
		if err != nil {
			return nil, err
		}
		return &dynamodb.QueryOutput{Items: items, Count: int32(out.count), ScannedCount: int32(out.scanned),
			LastEvaluatedKey: lastKeyToSDK(out.lastKey), ConsumedCapacity: out.capacity.toSDK()}, nil
	})
}

// Scan reads every item of a table or index, as dynamodb.Client.Scan does.
func (d *API) Scan(ctx context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return call(ctx, "Scan", orEmpty(in), scanFromSDK, d.e.scan, func(out *listOutput) (*dynamodb.ScanOutput, error) {
		items, err := out.itemsToSDK()
		if err != nil {
			return nil, err
		}
		return &dynamodb.ScanOutput{Items: items, Count: int32(out.count), ScannedCount: int32(out.scanned),
			LastEvaluatedKey: lastKeyToSDK(out.lastKey), ConsumedCapacity: out.capacity.toSDK()}, nil
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

// itemsToSDK converts the page's items: nil for Select COUNT.
func (o *listOutput) itemsToSDK() ([]map[string]types.AttributeValue, error) {
	if o.items == nil {
		return nil, nil
	}
	out := make([]map[string]types.AttributeValue, len(o.items))
	for i, it := range o.items {
		m, err := it.toSDK()
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

// lastKeyToSDK converts a LastEvaluatedKey: nil stays absent.
func lastKeyToSDK(k attr.Item) map[string]types.AttributeValue {
	if k == nil {
		return nil
	}
	return itemToSDK(k)
}
