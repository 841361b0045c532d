package ddb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// countingCtx counts the checks of its Err, to tell how far a read went.
type countingCtx struct {
	context.Context
	checks int
}

func (c *countingCtx) Err() error {
	c.checks++
	return c.Context.Err()
}

// fillPartition writes count items into partition pk of table tbl.
func (env *testEnv) fillPartition(pk string, count int) {
	env.t.Helper()
	for i := 0; i < count; i += engine.MaxBatchWriteItems {
		var reqs []types.WriteRequest
		for j := i; j < min(i+engine.MaxBatchWriteItems, count); j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item("PK", s(pk), "SK", s(fmt.Sprintf("%05d", j)), "v", n("1"))}})
		}
		if _, err := env.client.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": reqs}}); err != nil {
			env.t.Fatal(err)
		}
	}
}

func TestRead_StopsWhenTheContextEnds(t *testing.T) {
	const items = 2000
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	env.fillPartition("p", items)
	tests := []struct {
		name string
		op   wire.Operation
		body string
	}{
		// PartiQL's SELECT runs as a Query or Scan, with the request's context.
		{"ExecuteStatement", wire.OpExecuteStatement, `{"Statement":"SELECT * FROM tbl WHERE PK = 'p'"}`},
		{"Query", wire.OpQuery, `{"TableName":"tbl","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"p"}}}`},
		{"QueryBackward", wire.OpQuery, `{"TableName":"tbl","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"p"}},"ScanIndexForward":false}`},
		{"QueryFiltered", wire.OpQuery, `{"TableName":"tbl","KeyConditionExpression":"PK = :p","FilterExpression":"v = :z","ExpressionAttributeValues":{":p":{"S":"p"},":z":{"N":"0"}}}`},
		{"Scan", wire.OpScan, `{"TableName":"tbl"}`},
		{"ScanFiltered", wire.OpScan, `{"TableName":"tbl","FilterExpression":"v = :z","ExpressionAttributeValues":{":z":{"N":"0"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := &countingCtx{Context: context.Background()}
			out, err := tt.op(env.e.core, live, []byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := engine.AppendResponse(nil, out)
			if err != nil {
				t.Fatal(err)
			}
			var resp map[string]any
			if err := json.Unmarshal(raw, &resp); err != nil {
				t.Fatal(err)
			}
			if got, ok := resp["ScannedCount"]; ok && got != float64(items) {
				t.Fatalf("ScannedCount = %v, want %d", got, items)
			}
			// Reading all the items checks the context once per ctxCheckEvery entries.
			if want := items / engine.CtxCheckEvery; live.checks < want {
				t.Errorf("a read of %d items checked its context %d times, want at least %d", items, live.checks, want)
			}

			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			canceled := &countingCtx{Context: ctx}
			out, err = tt.op(env.e.core, canceled, []byte(tt.body))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v (out %v), want context.Canceled", err, out)
			}
			if canceled.checks != 1 {
				t.Errorf("a canceled read checked its context %d times, want 1 (it stops at the first entry)", canceled.checks)
			}
		})
	}
}
