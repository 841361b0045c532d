package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestDeleteItem(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true, gsi("gsi", "G", ""))
	env.Put("tbl", item("PK", s("a"), "SK", s("1"), "G", s("g")))
	_, err := env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"))})
	wantErr(t, err, "ValidationException", "The provided key element does not match the schema")
	_, err = env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"), "SK", n("1"))})
	wantErr(t, err, "ValidationException", "The provided key element does not match the schema")
	_, err = env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"), "SK", s("1")),
		ConditionExpression: aws.String("attribute_not_exists(G)")})
	wantErr(t, err, "ConditionalCheckFailedException", "")
	out, err := env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"), "SK", s("1")),
		ReturnValues: types.ReturnValueAllOld, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Attributes) != 3 {
		t.Errorf("attributes = %v", out.Attributes)
	}
	cc := out.ConsumedCapacity
	if *cc.CapacityUnits != 2 || *cc.Table.CapacityUnits != 1 || *cc.GlobalSecondaryIndexes["gsi"].CapacityUnits != 1 {
		t.Errorf("capacity = %+v", cc)
	}
	// Deleting an absent item succeeds and costs one unit.
	out, err = env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"), "SK", s("1")),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if *out.ConsumedCapacity.CapacityUnits != 1 || *out.ConsumedCapacity.TableName != "tbl" {
		t.Errorf("capacity = %+v", out.ConsumedCapacity)
	}
}
