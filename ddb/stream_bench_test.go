package ddb

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// streamBenchWriters is the number of concurrent writers of
// BenchmarkStreamWriteCost, whatever GOMAXPROCS.
const streamBenchWriters = 16

// BenchmarkStreamWriteCost measures what a stream costs a write: 16
// concurrent writers put new ~300-byte items (then overwrite them, a
// MODIFY with both images) into a durable engine (fsync on commit,
// in-process client), on a table without a stream and with a
// NEW_AND_OLD_IMAGES stream. ns/op is wall time per PutItem; compare the
// two sub-benchmarks.
func BenchmarkStreamWriteCost(b *testing.B) {
	for _, view := range []types.StreamViewType{"", types.StreamViewTypeNewAndOldImages} {
		name := "stream=off"
		if view != "" {
			name = "stream=" + string(view)
		}
		b.Run(name, func(b *testing.B) {
			e, err := Open(b.TempDir(), &Options{TTLSweepInterval: -1})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			c := e.Client()
			ctx := context.Background()
			in := &dynamodb.CreateTableInput{
				TableName:            aws.String("bench"),
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
				BillingMode:          types.BillingModePayPerRequest,
			}
			if view != "" {
				in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
			}
			if _, err := c.CreateTable(ctx, in); err != nil {
				b.Fatal(err)
			}
			body := strings.Repeat("x", 250)
			var seq atomic.Int64
			b.SetParallelism(max(1, streamBenchWriters/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					n := seq.Add(1)
					// Every other write overwrites the item before it.
					pk := fmt.Sprintf("item-%d", n/2)
					_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("bench"), Item: map[string]types.AttributeValue{
						"PK":   &types.AttributeValueMemberS{Value: pk},
						"n":    &types.AttributeValueMemberN{Value: fmt.Sprint(n)},
						"body": &types.AttributeValueMemberS{Value: body},
					}})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
