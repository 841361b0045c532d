package sdkapi

// TransactWriteItems on the in-process API (sdkapi.go).

import (
	"context"
	"encoding/json"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// TransactWriteItems applies up to 100 actions atomically, as
// dynamodb.Client.TransactWriteItems does (except that no
// ClientRequestToken is made up when the input has none: see API).
func (d *API) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return call(ctx, "TransactWriteItems", orEmpty(in), transactWriteFromSDK,
		func(ctx context.Context, x *engine.TransactWriteInput) (*engine.TransactWriteOutput, error) {
			return d.e.TransactWriteItems(ctx, x, func() []byte { return earlierSDKRequestHash(x) })
		},
		func(out *engine.TransactWriteOutput) (*dynamodb.TransactWriteItemsOutput, error) {
			return &dynamodb.TransactWriteItemsOutput{ConsumedCapacity: reportsToSDK(out.ConsumedCapacity)}, nil
		})
}

// earlierSDKRequestHash is the hash earlier versions stored the tokens of
// the in-process API with (requestDigest): requestHash of the request's JSON
// form.
func earlierSDKRequestHash(x *engine.TransactWriteInput) []byte {
	body, err := json.Marshal(x)
	if err != nil {
		return engine.UnmatchableHash()
	}
	return engine.RequestHash(body)
}

// transactWriteFromSDK builds the engine's TransactWriteItems request.
func transactWriteFromSDK(in *dynamodb.TransactWriteItemsInput) (*engine.TransactWriteInput, error) {
	x := &engine.TransactWriteInput{ClientRequestToken: engine.Deref(in.ClientRequestToken), ReturnConsumedCapacity: string(in.ReturnConsumedCapacity),
		ReturnItemCollectionMetrics: string(in.ReturnItemCollectionMetrics)}
	if in.TransactItems != nil {
		x.TransactItems = make([]engine.TransactWriteItem, len(in.TransactItems))
	}
	for i, ti := range in.TransactItems {
		var err error
		w := &x.TransactItems[i]
		if c := ti.ConditionCheck; c != nil {
			if w.ConditionCheck, err = transactActionFromSDK(c.TableName, c.Key, nil, c.ConditionExpression, nil,
				c.ReturnValuesOnConditionCheckFailure, c.ExpressionAttributeNames, c.ExpressionAttributeValues); err != nil {
				return nil, err
			}
		}
		if p := ti.Put; p != nil {
			if w.Put, err = transactActionFromSDK(p.TableName, nil, p.Item, p.ConditionExpression, nil,
				p.ReturnValuesOnConditionCheckFailure, p.ExpressionAttributeNames, p.ExpressionAttributeValues); err != nil {
				return nil, err
			}
		}
		if dl := ti.Delete; dl != nil {
			if w.Delete, err = transactActionFromSDK(dl.TableName, dl.Key, nil, dl.ConditionExpression, nil,
				dl.ReturnValuesOnConditionCheckFailure, dl.ExpressionAttributeNames, dl.ExpressionAttributeValues); err != nil {
				return nil, err
			}
		}
		if u := ti.Update; u != nil {
			if w.Update, err = transactActionFromSDK(u.TableName, u.Key, nil, u.ConditionExpression, u.UpdateExpression,
				u.ReturnValuesOnConditionCheckFailure, u.ExpressionAttributeNames, u.ExpressionAttributeValues); err != nil {
				return nil, err
			}
		}
	}
	return x, nil
}

// transactActionFromSDK builds one action of a transaction from the members
// the SDK's four action types share.
func transactActionFromSDK(table *string, key, item map[string]types.AttributeValue, condition, update *string,
	onFailure types.ReturnValuesOnConditionCheckFailure, names map[string]string, values map[string]types.AttributeValue) (*engine.TransactAction, error) {
	k, err := itemFromSDK(key)
	if err != nil {
		return nil, err
	}
	it, err := itemFromSDK(item)
	if err != nil {
		return nil, err
	}
	v, err := valuesFromSDK(values)
	if err != nil {
		return nil, err
	}
	return &engine.TransactAction{TableName: engine.Deref(table), Key: k, Item: it, ConditionExpression: condition, UpdateExpression: update,
		ReturnValuesOnConditionCheckFailure: string(onFailure), ExprParams: engine.ExprParams{ExpressionAttributeNames: names, ExpressionAttributeValues: v}}, nil
}
