package ddb

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestConsumedCapacity_Writes(t *testing.T) {
	kb := strings.Repeat("x", 1500) // items of about 1.5 KB: 2 write units
	withIndexKey := item("PK", s("a"), "v", s(kb), "G", s("g"))
	small := item("PK", s("a"), "v", s("small"), "G", s("g"))
	tests := []struct {
		name         string
		before       map[string]types.AttributeValue // the item the put replaces, if any
		it           map[string]types.AttributeValue
		total, table float64
		index        float64 // units on gsi, -1 for none reported
	}{
		{name: "NewWithoutIndexKey", it: item("PK", s("a"), "v", s(kb)), total: 2, table: 2, index: -1},
		{name: "AddIndexKey", before: item("PK", s("a"), "v", s(kb)), it: withIndexKey, total: 4, table: 2, index: 2},
		{name: "SameIndexKey", before: withIndexKey, it: small, total: 3, table: 2, index: 1},
		{name: "MoveIndexKey", before: small, it: item("PK", s("a"), "v", s("small"), "G", s("h")), total: 3, table: 1, index: 2},
		{name: "DropIndexKey", before: small, it: item("PK", s("a")), total: 2, table: 1, index: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustOpen(t)
			env.CreateTable("tbl", false, gsi("gsi", "G", ""))
			if tt.before != nil {
				env.Put("tbl", tt.before)
			}
			cc := putCapacity(t, env, tt.it, types.ReturnConsumedCapacityIndexes)
			if *cc.CapacityUnits != tt.total || *cc.Table.CapacityUnits != tt.table {
				t.Errorf("total %v table %v", *cc.CapacityUnits, *cc.Table.CapacityUnits)
			}
			gi, ok := cc.GlobalSecondaryIndexes["gsi"]
			if tt.index < 0 && ok || tt.index >= 0 && (!ok || *gi.CapacityUnits != tt.index) {
				t.Errorf("index capacity %+v", cc.GlobalSecondaryIndexes)
			}
		})
	}
	t.Run("ReturnModes", func(t *testing.T) {
		env := mustOpen(t)
		env.CreateTable("tbl", false, gsi("gsi", "G", ""))
		if cc := putCapacity(t, env, item("PK", s("b")), types.ReturnConsumedCapacityNone); cc != nil {
			t.Errorf("NONE returned %+v", cc)
		}
		if cc := putCapacity(t, env, item("PK", s("b")), types.ReturnConsumedCapacityTotal); cc.Table != nil || *cc.TableName != "tbl" {
			t.Errorf("TOTAL returned %+v", cc)
		}
	})
}

// putCapacity puts it into table tbl and returns the capacity the put reports in mode.
func putCapacity(t *testing.T, env *testEnv, it map[string]types.AttributeValue, mode types.ReturnConsumedCapacity) *types.ConsumedCapacity {
	t.Helper()
	out, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it, ReturnConsumedCapacity: mode})
	if err != nil {
		t.Fatal(err)
	}
	return out.ConsumedCapacity
}

func TestConsumedCapacity_QueryIndex(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false, gsi("gsi", "G", ""))
	for i := range 3 {
		env.Put("tbl", item("PK", s(fmt.Sprint(i)), "G", s("g"), "v", s(strings.Repeat("x", 3000))))
	}
	out, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("gsi"),
		KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: item(":g", s("g"), ":z", s("none")),
		FilterExpression: aws.String("PK = :z"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	// About 9 KB read, before the filter: 3 units, halved.
	cc := out.ConsumedCapacity
	if out.Count != 0 || *cc.CapacityUnits != 1.5 || *cc.Table.CapacityUnits != 0 || *cc.GlobalSecondaryIndexes["gsi"].CapacityUnits != 1.5 {
		t.Errorf("count %d capacity %v", out.Count, *cc.CapacityUnits)
	}
}

func TestBatchGetItem_ResponseLimit(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	big := strings.Repeat("x", 390*1024)
	var keys []map[string]types.AttributeValue
	for i := range 44 {
		env.Put("tbl", item("PK", s(fmt.Sprint(i)), "v", s(big)))
		keys = append(keys, item("PK", s(fmt.Sprint(i))))
	}
	out, err := env.client.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: keys}}})
	if err != nil {
		t.Fatal(err)
	}
	got, left := len(out.Responses["tbl"]), len(out.UnprocessedKeys["tbl"].Keys)
	if got+left != 44 || left == 0 || got < 40 {
		t.Errorf("got %d, unprocessed %d", got, left)
	}
	out, err = env.client.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: out.UnprocessedKeys})
	if err != nil || len(out.Responses["tbl"]) != left {
		t.Errorf("retry got %d, %v", len(out.Responses["tbl"]), err)
	}
}

func TestConcurrentUpdates(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	env.Put("tbl", item("PK", s("c"), "n", n("0")))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 25 {
				_, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item("PK", s("c")),
					UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: item(":one", n("1"))})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got := env.number2("c", "n"); got != "200" {
		t.Errorf("n = %s", got)
	}
}

// number2 reads a number attribute of a hash-only table item.
func (env *testEnv) number2(pk, name string) string {
	out, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s(pk))})
	if err != nil {
		env.t.Fatal(err)
	}
	return out.Item[name].(*types.AttributeValueMemberN).Value
}
