package sdkapi

// The PartiQL operations on the in-process API (sdkapi.go):
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction.

import (
	"context"
	"encoding/base64"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/partiqlexec"
)

// ExecuteStatement runs one PartiQL statement, as
// dynamodb.Client.ExecuteStatement does.
func (d *API) ExecuteStatement(ctx context.Context, in *dynamodb.ExecuteStatementInput, _ ...func(*dynamodb.Options)) (*dynamodb.ExecuteStatementOutput, error) {
	return call(ctx, "ExecuteStatement", orEmpty(in), func(in *dynamodb.ExecuteStatementInput) (*partiqlexec.ExecuteStatementInput, error) {
		params, err := parametersFromSDK(in.Parameters)
		if err != nil {
			return nil, err
		}
		x := &partiqlexec.ExecuteStatementInput{Statement: engine.Deref(in.Statement), Parameters: params, ConsistentRead: aws.ToBool(in.ConsistentRead),
			NextToken: in.NextToken, ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
		if in.Limit != nil {
			limit := int(*in.Limit)
			x.Limit = &limit
		}
		return x, nil
	}, func(ctx context.Context, in *partiqlexec.ExecuteStatementInput) (*engine.ExecuteStatementOutput, error) {
		return partiqlexec.ExecuteStatement(d.e, ctx, in)
	}, func(out *engine.ExecuteStatementOutput) (*dynamodb.ExecuteStatementOutput, error) {
		o := &dynamodb.ExecuteStatementOutput{Items: make([]map[string]types.AttributeValue, len(out.Items)), ConsumedCapacity: consumedCapacityToSDK(out.Capacity)}
		for i, it := range out.Items {
			o.Items[i] = itemToSDK(it)
		}
		if out.LastKey != nil {
			o.LastEvaluatedKey = itemToSDK(out.LastKey)
			o.NextToken = aws.String(base64.StdEncoding.EncodeToString(engine.AppendItem(nil, out.LastKey)))
		}
		return o, nil
	})
}

// BatchExecuteStatement runs up to 25 statements on single items, as
// dynamodb.Client.BatchExecuteStatement does.
func (d *API) BatchExecuteStatement(ctx context.Context, in *dynamodb.BatchExecuteStatementInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchExecuteStatementOutput, error) {
	return call(ctx, "BatchExecuteStatement", orEmpty(in), func(in *dynamodb.BatchExecuteStatementInput) (*partiqlexec.BatchExecuteInput, error) {
		x := &partiqlexec.BatchExecuteInput{ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
		if in.Statements != nil {
			x.Statements = make([]partiqlexec.BatchStatement, len(in.Statements))
		}
		for i, s := range in.Statements {
			params, err := parametersFromSDK(s.Parameters)
			if err != nil {
				return nil, err
			}
			x.Statements[i] = partiqlexec.BatchStatement{Statement: engine.Deref(s.Statement), Parameters: params, ConsistentRead: aws.ToBool(s.ConsistentRead)}
		}
		return x, nil
	}, func(ctx context.Context, in *partiqlexec.BatchExecuteInput) (*engine.BatchExecuteOutput, error) {
		return partiqlexec.BatchExecuteStatement(d.e, ctx, in)
	}, func(out *engine.BatchExecuteOutput) (*dynamodb.BatchExecuteStatementOutput, error) {
		o := &dynamodb.BatchExecuteStatementOutput{Responses: make([]types.BatchStatementResponse, len(out.Responses))}
		for i, r := range out.Responses {
			o.Responses[i] = types.BatchStatementResponse{TableName: r.Table, Item: itemToSDK(r.Item)}
			if r.Err != nil {
				o.Responses[i].Error = &types.BatchStatementError{Code: types.BatchStatementErrorCodeEnum(strings.TrimSuffix(r.Err.Type, "Exception")),
					Message: aws.String(r.Err.Message)}
			}
		}
		return o, nil
	})
}

// ExecuteTransaction runs up to 100 statements on single items as one
// transaction, as dynamodb.Client.ExecuteTransaction does (except that no
// ClientRequestToken is made up when the input has none: see API).
func (d *API) ExecuteTransaction(ctx context.Context, in *dynamodb.ExecuteTransactionInput, _ ...func(*dynamodb.Options)) (*dynamodb.ExecuteTransactionOutput, error) {
	return call(ctx, "ExecuteTransaction", orEmpty(in), func(in *dynamodb.ExecuteTransactionInput) (*partiqlexec.ExecuteTransactionInput, error) {
		x := &partiqlexec.ExecuteTransactionInput{ClientRequestToken: engine.Deref(in.ClientRequestToken), ReturnConsumedCapacity: string(in.ReturnConsumedCapacity)}
		if in.TransactStatements != nil {
			x.TransactStatements = make([]partiqlexec.BatchStatement, len(in.TransactStatements))
		}
		for i, s := range in.TransactStatements {
			params, err := parametersFromSDK(s.Parameters)
			if err != nil {
				return nil, err
			}
			x.TransactStatements[i] = partiqlexec.BatchStatement{Statement: engine.Deref(s.Statement), Parameters: params}
		}
		return x, nil
	}, func(ctx context.Context, in *partiqlexec.ExecuteTransactionInput) (*engine.ExecuteTransactionOutput, error) {
		return partiqlexec.ExecuteTransaction(d.e, ctx, in)
	}, func(out *engine.ExecuteTransactionOutput) (*dynamodb.ExecuteTransactionOutput, error) {
		o := &dynamodb.ExecuteTransactionOutput{Responses: make([]types.ItemResponse, len(out.Responses)), ConsumedCapacity: reportsToSDK(out.Capacity)}
		for i, it := range out.Responses {
			o.Responses[i] = types.ItemResponse{Item: itemToSDK(it)}
		}
		return o, nil
	})
}

// parametersFromSDK converts a statement's Parameters, standalone values
// each, as their JSON decoding checks them: the first invalid one, in
// order, is the error.
func parametersFromSDK(list []types.AttributeValue) ([]attr.Value, error) {
	if list == nil {
		return nil, nil
	}
	out := make([]attr.Value, len(list))
	for i, v := range list {
		x, err := standaloneFromSDK(v)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}
