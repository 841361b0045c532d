package sdkapi

// TransactGetItems on the in-process API (sdkapi.go).

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// TransactGetItems reads up to 100 items from one snapshot, as
// dynamodb.Client.TransactGetItems does: Responses in request order, an
// empty ItemResponse for an item that does not exist.
func (d *API) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return call(ctx, "TransactGetItems", orEmpty(in), transactGetFromSDK, d.e.TransactGetItems, transactGetToSDK)
}

// transactGetFromSDK builds the engine's TransactGetItems request.
func transactGetFromSDK(in *dynamodb.TransactGetItemsInput) (*engine.TransactGetInput, error) {
	x := &engine.TransactGetInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
	if in.TransactItems != nil {
		x.TransactItems = make([]engine.TransactGetItem, len(in.TransactItems))
	}
	for i, ti := range in.TransactItems {
		g := ti.Get
		if g == nil {
			continue // the engine refuses the missing Get as the JSON path does
		}
		key, err := itemFromSDK(g.Key)
		if err != nil {
			return nil, err
		}
		x.TransactItems[i].Get = &engine.TransactGet{TableName: engine.Deref(g.TableName), Key: key,
			ProjectionExpression: g.ProjectionExpression, ExpressionAttributeNames: g.ExpressionAttributeNames}
	}
	return x, nil
}

// transactGetToSDK converts the engine's answer.
func transactGetToSDK(out *engine.TransactGetOutput) (*dynamodb.TransactGetItemsOutput, error) {
	items, err := resultItemsToSDK(out.Responses)
	if err != nil {
		return nil, err
	}
	responses := make([]types.ItemResponse, len(items))
	for i, item := range items {
		responses[i].Item = item
	}
	return &dynamodb.TransactGetItemsOutput{Responses: responses, ConsumedCapacity: reportsToSDK(out.Capacity)}, nil
}
