package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestTransactGetItems(t *testing.T) {
	env := transactEnv(t)
	out, err := env.client.TransactGetItems(env.ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tbl"), Key: item("PK", s("USER#b"), "SK", s("#METADATA#b")), ProjectionExpression: aws.String("followers")}},
		{Get: &types.Get{TableName: aws.String("tbl"), Key: item("PK", s("USER#x"), "SK", s("#METADATA#x"))}},
		{Get: &types.Get{TableName: aws.String("tbl"), Key: item("PK", s("USER#a"), "SK", s("#METADATA#a"))}},
	}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Responses) != 3 || len(out.Responses[0].Item) != 1 || out.Responses[1].Item != nil || len(out.Responses[2].Item) != 4 {
		t.Errorf("responses = %+v", out.Responses)
	}
	if *out.ConsumedCapacity[0].CapacityUnits != 6 {
		t.Errorf("capacity = %v", *out.ConsumedCapacity[0].CapacityUnits)
	}
}
