package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestUpdateItem(t *testing.T) {
	tests := []struct {
		name   string
		key    map[string]types.AttributeValue
		update string
		cond   string
		vals   map[string]types.AttributeValue
		rv     types.ReturnValue
		want   map[string]types.AttributeValue // Attributes returned
		code   string
		msg    string
	}{
		{name: "OKIncrement", key: item("PK", s("a")), update: "SET c = c + :one", vals: item(":one", n("1")), rv: types.ReturnValueUpdatedNew,
			want: item("c", n("2"))},
		{name: "OKAllOld", key: item("PK", s("a")), update: "SET c = :v", vals: item(":v", n("5")), rv: types.ReturnValueAllOld,
			want: item("PK", s("a"), "c", n("1"), "G", s("g"))},
		{name: "OKAllNew", key: item("PK", s("a")), update: "REMOVE G", rv: types.ReturnValueAllNew,
			want: item("PK", s("a"), "c", n("1"))},
		{name: "OKUpdatedOld", key: item("PK", s("a")), update: "SET c = :v, d = :v", vals: item(":v", n("5")), rv: types.ReturnValueUpdatedOld,
			want: item("c", n("1"))},
		{name: "OKCreates", key: item("PK", s("new")), update: "SET c = :v", vals: item(":v", n("5")), rv: types.ReturnValueAllNew,
			want: item("PK", s("new"), "c", n("5"))},
		{name: "OKConditionHolds", key: item("PK", s("a")), update: "SET c = :v", cond: "attribute_exists(PK)", vals: item(":v", n("5"))},
		{name: "OKMoveIndexKey", key: item("PK", s("a")), update: "SET G = :v", vals: item(":v", s("h"))},
		{name: "ErrCondition", key: item("PK", s("missing")), update: "SET c = :v", cond: "attribute_exists(PK)", vals: item(":v", n("5")),
			code: "ConditionalCheckFailedException"},
		{name: "ErrKeyAttribute", key: item("PK", s("a")), update: "SET PK = :v", vals: item(":v", s("b")),
			code: "ValidationException", msg: "One or more parameter values were invalid: Cannot update attribute PK. This attribute is part of the key"},
		{name: "ErrIndexKeyType", key: item("PK", s("a")), update: "SET G = :v", vals: item(":v", n("1")),
			code: "ValidationException", msg: "One or more parameter values were invalid: Type mismatch for Index Key G Expected: S Actual: N IndexName: gsi"},
		{name: "ErrWrongOperand", key: item("PK", s("a")), update: "SET c = G + :one", vals: item(":one", n("1")),
			code: "ValidationException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustOpen(t)
			env.createTable("tbl", false, gsi("gsi", "G", ""))
			env.put("tbl", item("PK", s("a"), "c", n("1"), "G", s("g")))
			in := &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: tt.key, UpdateExpression: aws.String(tt.update),
				ExpressionAttributeValues: tt.vals, ReturnValues: tt.rv}
			if tt.cond != "" {
				in.ConditionExpression = aws.String(tt.cond)
			}
			out, err := env.client.UpdateItem(env.ctx, in)
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != nil && !sameItem(out.Attributes, tt.want) {
				t.Errorf("attributes = %v, want %v", out.Attributes, tt.want)
			}
		})
	}
}

func TestUpdateItem_RemoveOnAbsentItemCreatesNothing(t *testing.T) {
	env := mustOpen(t)
	env.createTable("tbl", false)
	if _, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a")), UpdateExpression: aws.String("REMOVE x")}); err != nil {
		t.Fatal(err)
	}
	got, _ := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"))})
	if got.Item != nil {
		t.Errorf("item = %v", got.Item)
	}
}

// sameItem compares two SDK items by their wire JSON.
func sameItem(a, b map[string]types.AttributeValue) bool {
	return len(a) == len(b) && itemJSON(a) == itemJSON(b)
}
