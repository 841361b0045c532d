package ddb

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestBatchWriteItem(t *testing.T) {
	putReq := func(pk string) types.WriteRequest {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: item("PK", s(pk), "G", s("g"))}}
	}
	delReq := func(pk string) types.WriteRequest {
		return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: item("PK", s(pk))}}
	}
	many := func(k int) []types.WriteRequest {
		var out []types.WriteRequest
		for i := range k {
			out = append(out, putReq(fmt.Sprint("k", i)))
		}
		return out
	}
	tests := []struct {
		name  string
		reqs  map[string][]types.WriteRequest
		items int32 // items in tbl afterwards
		code  string
		msg   string
	}{
		{name: "OK", reqs: map[string][]types.WriteRequest{"tbl": {putReq("a"), putReq("b"), delReq("old")}, "tb2": {putReq("x")}}, items: 2},
		{name: "OK25", reqs: map[string][]types.WriteRequest{"tbl": many(25)}, items: 26},
		{name: "ErrTooManyAcrossTables", reqs: map[string][]types.WriteRequest{"tbl": many(13), "tb2": many(13)}, items: 1,
			code: "ValidationException", msg: "Too many items requested for the BatchWriteItem call"},
		{name: "ErrDuplicate", reqs: map[string][]types.WriteRequest{"tbl": {putReq("a"), delReq("a")}}, items: 1,
			code: "ValidationException", msg: "Provided list of item keys contains duplicates"},
		{name: "ErrBadItemWritesNothing", reqs: map[string][]types.WriteRequest{"tbl": {putReq("a"), {PutRequest: &types.PutRequest{Item: item("PK", n("1"))}}}}, items: 1,
			code: "ValidationException"},
		{name: "ErrNoTable", reqs: map[string][]types.WriteRequest{"nope": {putReq("a")}}, items: 1, code: "ResourceNotFoundException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustOpen(t)
			env.CreateTable("tbl", false, gsi("gsi", "G", ""))
			env.CreateTable("tb2", false)
			env.Put("tbl", item("PK", s("old"), "G", s("g")))
			out, err := env.client.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: tt.reqs, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.msg)
			} else if err != nil {
				t.Fatal(err)
			} else if len(out.UnprocessedItems) != 0 || len(out.ConsumedCapacity) != len(tt.reqs) {
				t.Errorf("unprocessed %v capacity %v", out.UnprocessedItems, out.ConsumedCapacity)
			}
			sc, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
			if err != nil {
				t.Fatal(err)
			}
			if sc.Count != tt.items {
				t.Errorf("table holds %d items, want %d", sc.Count, tt.items)
			}
		})
	}
}

func TestBatchGetItem(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	env.CreateTable("tb2", true)
	for i := range 100 {
		env.Put("tbl", item("PK", s(fmt.Sprint(i)), "v", n(fmt.Sprint(i))))
	}
	env.Put("tb2", item("PK", s("a"), "SK", s("b"), "x", s("y")))
	keys := func(k int) []map[string]types.AttributeValue {
		var out []map[string]types.AttributeValue
		for i := range k {
			out = append(out, item("PK", s(fmt.Sprint(i))))
		}
		return out
	}
	t.Run("OK", func(t *testing.T) {
		out, err := env.client.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			"tbl": {Keys: append(keys(3), item("PK", s("missing"))), ProjectionExpression: aws.String("v")},
			"tb2": {Keys: []map[string]types.AttributeValue{item("PK", s("a"), "SK", s("b"))}, ConsistentRead: aws.Bool(true)},
		}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Responses["tbl"]) != 3 || len(out.Responses["tb2"]) != 1 || len(out.UnprocessedKeys) != 0 {
			t.Fatalf("responses %v unprocessed %v", out.Responses, out.UnprocessedKeys)
		}
		if len(out.Responses["tbl"][0]) != 1 {
			t.Errorf("projection not applied: %v", out.Responses["tbl"][0])
		}
		if len(out.ConsumedCapacity) != 2 || *out.ConsumedCapacity[1].CapacityUnits != 2 || *out.ConsumedCapacity[0].CapacityUnits != 1 {
			t.Errorf("capacity %+v %+v", *out.ConsumedCapacity[0].CapacityUnits, *out.ConsumedCapacity[1].CapacityUnits)
		}
	})
	t.Run("OK100", func(t *testing.T) {
		out, err := env.client.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: keys(100)}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Responses["tbl"]) != 100 {
			t.Errorf("got %d", len(out.Responses["tbl"]))
		}
	})
	t.Run("ErrTooMany", func(t *testing.T) {
		_, err := env.client.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: keys(100)}, "tb2": {Keys: []map[string]types.AttributeValue{item("PK", s("a"), "SK", s("b"))}}}})
		wantErr(t, err, "ValidationException", "Too many items requested for the BatchGetItem call")
	})
	t.Run("ErrDuplicates", func(t *testing.T) {
		_, err := env.client.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: append(keys(2), keys(1)...)}}})
		wantErr(t, err, "ValidationException", "Provided list of item keys contains duplicates")
	})
	t.Run("ErrKeySchema", func(t *testing.T) {
		_, err := env.client.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tb2": {Keys: keys(1)}}})
		wantErr(t, err, "ValidationException", "The provided key element does not match the schema")
	})
}
