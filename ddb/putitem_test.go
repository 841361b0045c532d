package ddb

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestPutItem(t *testing.T) {
	big := strings.Repeat("x", 400*1024)
	tests := []struct {
		name string
		item map[string]types.AttributeValue
		cond string
		vals map[string]types.AttributeValue
		code string
		msg  string
	}{
		{name: "OK", item: item("PK", s("a"), "SK", s("1"), "x", n("1"))},
		{name: "OKCondition", item: item("PK", s("new"), "SK", s("1")), cond: "attribute_not_exists(PK)"},
		{name: "ErrConditionFailed", item: item("PK", s("p"), "SK", s("1")), cond: "attribute_not_exists(PK)",
			code: "ConditionalCheckFailedException", msg: "The conditional request failed"},
		{name: "ErrMissingKey", item: item("PK", s("a")),
			code: "ValidationException", msg: "One or more parameter values were invalid: Missing the key SK in the item"},
		{name: "ErrTypeMismatch", item: item("PK", n("1"), "SK", s("1")),
			code: "ValidationException", msg: "One or more parameter values were invalid: Type mismatch for key PK expected: S actual: N"},
		{name: "ErrEmptyKey", item: item("PK", s(""), "SK", s("1")),
			code: "ValidationException", msg: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK"},
		{name: "ErrPartitionKeyTooLong", item: item("PK", s(strings.Repeat("k", 2049)), "SK", s("1")),
			code: "ValidationException", msg: "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{name: "ErrSortKeyTooLong", item: item("PK", s("a"), "SK", s(strings.Repeat("k", 1025))),
			code: "ValidationException", msg: "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"},
		{name: "ErrTooBig", item: item("PK", s("a"), "SK", s("1"), "big", s(big)),
			code: "ValidationException", msg: "Item size has exceeded the maximum allowed size"},
		{name: "ErrIndexKeyType", item: item("PK", s("a"), "SK", s("1"), "G", n("1")),
			code: "ValidationException", msg: "One or more parameter values were invalid: Type mismatch for Index Key G Expected: S Actual: N IndexName: gsi"},
		{name: "ErrUnusedValue", item: item("PK", s("a"), "SK", s("1")), cond: "attribute_exists(PK)", vals: item(":v", s("x")),
			code: "ValidationException", msg: "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"},
		{name: "ErrNoTable", item: item("PK", s("a"), "SK", s("1")), code: "ResourceNotFoundException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustOpen(t)
			env.CreateTable("tbl", true, gsi("gsi", "G", ""))
			env.Put("tbl", item("PK", s("p"), "SK", s("1"), "G", s("g")))
			table := "tbl"
			if tt.name == "ErrNoTable" {
				table = "nope"
			}
			in := &dynamodb.PutItemInput{TableName: aws.String(table), Item: tt.item, ExpressionAttributeValues: tt.vals}
			if tt.cond != "" {
				in.ConditionExpression = aws.String(tt.cond)
			}
			_, err := env.client.PutItem(env.ctx, in)
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", tt.item["PK"], "SK", tt.item["SK"])})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Item) != len(tt.item) {
				t.Errorf("got %v", got.Item)
			}
		})
	}
}

func TestPutItem_ReturnValues(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	out, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "v", n("1")), ReturnValues: types.ReturnValueAllOld})
	if err != nil {
		t.Fatal(err)
	}
	if out.Attributes != nil {
		t.Errorf("first put returned %v", out.Attributes)
	}
	out, err = env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "v", n("2")), ReturnValues: types.ReturnValueAllOld})
	if err != nil {
		t.Fatal(err)
	}
	if v := out.Attributes["v"].(*types.AttributeValueMemberN).Value; v != "1" {
		t.Errorf("old v = %s", v)
	}
	_, err = env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a")), ReturnValues: types.ReturnValueAllNew})
	wantErr(t, err, "ValidationException", "Return values set to invalid value")

	_, err = env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a")),
		ConditionExpression: aws.String("v = :one"), ExpressionAttributeValues: item(":one", n("1")),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("err = %v", err)
	}
	if v := ccf.Item["v"].(*types.AttributeValueMemberN).Value; v != "2" {
		t.Errorf("failure item v = %s", v)
	}
}
