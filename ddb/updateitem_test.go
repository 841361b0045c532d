package ddb

import (
	"strings"
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
			env.CreateTable("tbl", false, gsi("gsi", "G", ""))
			env.Put("tbl", item("PK", s("a"), "c", n("1"), "G", s("g")))
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
	env.CreateTable("tbl", false)
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

// TestUpdateItem_UpdatedPaths checks that UPDATED_OLD and UPDATED_NEW return
// only the paths an update names, nested maps and lists trimmed as a
// ProjectionExpression of them would be, and that AttributeUpdates (top-level
// attributes only) returns whole attributes.
func TestUpdateItem_UpdatedPaths(t *testing.T) {
	mp := func(kv ...any) types.AttributeValue { return &types.AttributeValueMemberM{Value: item(kv...)} }
	ls := func(vs ...types.AttributeValue) types.AttributeValue { return &types.AttributeValueMemberL{Value: vs} }
	start := item("PK", s("a"), "a", mp("b", mp("c", s("old"), "d", s("keep")), "x", n("1")),
		"l", ls(s("p"), s("q"), s("r")), "cnt", mp("n", n("5"), "o", n("1")))
	tests := []struct {
		name   string
		update string
		rv     types.ReturnValue
		want   map[string]types.AttributeValue // nil: no Attributes
	}{
		{"SetNestedOld", "SET a.b.c = :v", types.ReturnValueUpdatedOld, item("a", mp("b", mp("c", s("old"))))},
		{"SetNestedNew", "SET a.b.c = :v", types.ReturnValueUpdatedNew, item("a", mp("b", mp("c", s("v"))))},
		{"SetListElementOld", "SET l[1] = :v", types.ReturnValueUpdatedOld, item("l", ls(s("q")))},
		{"SetListElementNew", "SET l[1] = :v", types.ReturnValueUpdatedNew, item("l", ls(s("v")))},
		{"RemoveNestedOld", "REMOVE a.x", types.ReturnValueUpdatedOld, item("a", mp("x", n("1")))},
		{"RemoveNestedNew", "REMOVE a.x", types.ReturnValueUpdatedNew, nil},
		{"AddNestedOld", "ADD cnt.n :one", types.ReturnValueUpdatedOld, item("cnt", mp("n", n("5")))},
		{"AddNestedNew", "ADD cnt.n :one", types.ReturnValueUpdatedNew, item("cnt", mp("n", n("6")))},
		{"NewPathOld", "SET a.y = :v", types.ReturnValueUpdatedOld, nil},
		{"NewPathNew", "SET a.y = :v", types.ReturnValueUpdatedNew, item("a", mp("y", s("v")))},
		{"PastListEndNew", "SET l[9] = :v", types.ReturnValueUpdatedNew, nil},
		{"Several", "SET a.b.d = :v, l[0] = :v ADD cnt.n :one", types.ReturnValueUpdatedNew,
			item("a", mp("b", mp("d", s("v"))), "l", ls(s("v")), "cnt", mp("n", n("6")))},
	}
	vals := item(":v", s("v"), ":one", n("1"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustOpen(t)
			env.CreateTable("tbl", false)
			env.Put("tbl", start)
			in := &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a")), UpdateExpression: aws.String(tt.update),
				ReturnValues: tt.rv}
			if used := usedVals(vals, tt.update); len(used) > 0 {
				in.ExpressionAttributeValues = used
			}
			out, err := env.client.UpdateItem(env.ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil && out.Attributes != nil || !sameItem(out.Attributes, tt.want) {
				t.Errorf("attributes = %s, want %s", itemJSON(out.Attributes), itemJSON(tt.want))
			}
		})
	}
	t.Run("AttributeUpdates", func(t *testing.T) {
		env := mustOpen(t)
		env.CreateTable("tbl", false)
		env.Put("tbl", start)
		for _, tc := range []struct {
			rv   types.ReturnValue
			want map[string]types.AttributeValue
		}{
			{types.ReturnValueUpdatedOld, item("a", start["a"], "cnt", start["cnt"])},
			{types.ReturnValueUpdatedNew, item("cnt", n("7"), "new", s("v"))},
		} {
			out, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a")), ReturnValues: tc.rv,
				AttributeUpdates: map[string]types.AttributeValueUpdate{
					"a":   {Action: types.AttributeActionDelete},
					"cnt": {Action: types.AttributeActionPut, Value: n("7")},
					"new": {Action: types.AttributeActionPut, Value: s("v")},
				}})
			if err != nil {
				t.Fatal(err)
			}
			if !sameItem(out.Attributes, tc.want) {
				t.Errorf("%s: attributes = %s, want %s", tc.rv, itemJSON(out.Attributes), itemJSON(tc.want))
			}
			if tc.rv == types.ReturnValueUpdatedOld {
				env.Put("tbl", start)
			}
		}
	})
}

// usedVals returns the entries of vals whose placeholder occurs in expr.
func usedVals(vals map[string]types.AttributeValue, expr string) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for k, v := range vals {
		if strings.Contains(expr, k) {
			out[k] = v
		}
	}
	return out
}
