package sdkapi

// Query and Scan on the in-process API (sdkapi.go).

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// Query reads the items of one partition, as dynamodb.Client.Query does.
func (d *API) Query(ctx context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return call(ctx, "Query", orEmpty(in), queryFromSDK, d.e.Query, func(out *engine.ListOutput) (*dynamodb.QueryOutput, error) {
		items, err := listOutputItemsToSDK(out)
		if err != nil {
			return nil, err
		}
		return &dynamodb.QueryOutput{Items: items, Count: int32(out.Count), ScannedCount: int32(out.Scanned),
			LastEvaluatedKey: lastKeyToSDK(out.LastKey), ConsumedCapacity: consumedCapacityToSDK(out.Capacity)}, nil
	})
}

// Scan reads every item of a table or index, as dynamodb.Client.Scan does.
func (d *API) Scan(ctx context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return call(ctx, "Scan", orEmpty(in), scanFromSDK, d.e.Scan, func(out *engine.ListOutput) (*dynamodb.ScanOutput, error) {
		items, err := listOutputItemsToSDK(out)
		if err != nil {
			return nil, err
		}
		return &dynamodb.ScanOutput{Items: items, Count: int32(out.Count), ScannedCount: int32(out.Scanned),
			LastEvaluatedKey: lastKeyToSDK(out.LastKey), ConsumedCapacity: consumedCapacityToSDK(out.Capacity)}, nil
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
func (p listSDKParams) listParams() (engine.ListParams, error) {
	start, err := itemFromSDK(p.startKey)
	if err != nil {
		return engine.ListParams{}, err
	}
	values, err := valuesFromSDK(p.values)
	if err != nil {
		return engine.ListParams{}, err
	}
	lp := engine.ListParams{
		ReadParams:        readParamsFromSDK(p.table, p.projection, p.consistent, p.rcc),
		IndexName:         engine.Deref(p.index),
		FilterExpression:  p.filter,
		Select:            string(p.sel),
		ExclusiveStartKey: start,
	}
	if p.limit != nil {
		n := int(*p.limit)
		lp.Limit = &n
	}
	lp.ExprParams = engine.ExprParams{ExpressionAttributeNames: p.names, ExpressionAttributeValues: values}
	lp.AttributesToGet = p.attributesToGet
	lp.ConditionalOperator = string(p.conditionalOperator)
	return lp, nil
}

// queryFromSDK builds the engine's Query request.
func queryFromSDK(in *dynamodb.QueryInput) (*engine.QueryInput, error) {
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
	return &engine.QueryInput{ListParams: lp, KeyConditionExpression: in.KeyConditionExpression, ScanIndexForward: in.ScanIndexForward}, nil
}

// scanFromSDK builds the engine's Scan request.
func scanFromSDK(in *dynamodb.ScanInput) (*engine.ScanInput, error) {
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
	return &engine.ScanInput{ListParams: lp, Segment: intPtr(in.Segment), TotalSegments: intPtr(in.TotalSegments)}, nil
}

// intPtr converts an optional int32 parameter.
func intPtr(n *int32) *int {
	if n == nil {
		return nil
	}
	v := int(*n)
	return &v
}

// listOutputItemsToSDK converts the page's items: nil for Select COUNT.
func listOutputItemsToSDK(o *engine.ListOutput) ([]map[string]types.AttributeValue, error) {
	if o.Items == nil {
		return nil, nil
	}
	return resultItemsToSDK(o.Items)
}

// lastKeyToSDK converts a LastEvaluatedKey: nil stays absent.
func lastKeyToSDK(k attr.Item) map[string]types.AttributeValue {
	if k == nil {
		return nil
	}
	return itemToSDK(k)
}
