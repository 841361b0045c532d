package ddb

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestConditionFailure_ReturnsOldItem(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	env.Put("tbl", item("PK", s("a"), "v", n("1")))
	_, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a")),
		UpdateExpression: aws.String("SET v = :two"), ConditionExpression: aws.String("v = :two"), ExpressionAttributeValues: item(":two", n("2")),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) || !sameItem(ccf.Item, item("PK", s("a"), "v", n("1"))) {
		t.Fatalf("err = %v", err)
	}
	_, err = env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a")),
		ConditionExpression: aws.String("v = :two"), ExpressionAttributeValues: item(":two", n("2"))})
	if !errors.As(err, &ccf) || ccf.Item != nil {
		t.Fatalf("err = %v, item %v", err, ccf.Item)
	}
}

func TestQuery_BadStartKey(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true, gsi("gsi", "G", ""))
	for _, in := range []*dynamodb.QueryInput{
		{TableName: aws.String("tbl"), KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("a")),
			ExclusiveStartKey: item("PK", s("a"))},
		{TableName: aws.String("tbl"), IndexName: aws.String("gsi"), KeyConditionExpression: aws.String("G = :p"), ExpressionAttributeValues: item(":p", s("a")),
			ExclusiveStartKey: item("PK", s("a"), "SK", s("b"))},
	} {
		_, err := env.client.Query(env.ctx, in)
		wantErr(t, err, "ValidationException", "The provided starting key is invalid: The provided key element does not match the schema")
	}
}

func TestScan_IndexProjection(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false, types.GlobalSecondaryIndex{IndexName: aws.String("gsi"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"inc"}}})
	env.Put("tbl", item("PK", s("a"), "G", s("g"), "inc", s("yes"), "exc", s("no")))
	out, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), IndexName: aws.String("gsi"), Select: types.SelectAllProjectedAttributes})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 1 || !sameItem(out.Items[0], item("PK", s("a"), "G", s("g"), "inc", s("yes"))) {
		t.Errorf("items = %v", out.Items)
	}
	_, err = env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Select: types.SelectAllProjectedAttributes})
	wantErr(t, err, "ValidationException", "")
}
