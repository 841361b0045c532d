package bench_test

import (
	"context"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// concurrentClients is how many requests are in flight at once in
// BenchmarkConcurrent, whatever GOMAXPROCS is: the performance target speaks
// of 16 concurrent clients.
const concurrentClients = 16

// loopbackTargets are the targets BenchmarkConcurrent compares: the engine
// over loopback HTTP, durable and in memory, against the transport floor (the
// same client and HTTP with canned replies). Their ratio, floor ns/op over
// engine ns/op, is the share of the floor's throughput the engine reaches.
//
// For the writes, the storage floors (storagefloor_test.go) add to the
// transport floor the least work any engine kept in bbolt must do: their
// share of http-floor is the most such an engine can reach here; the log
// floor (logfloor_test.go) adds only an fdatasync'd append of the items
// written, the most any durable engine can reach.
var loopbackTargets = []string{"engine-http", "engine-http-memory", "http-floor", "storage-floor", "storage-floor-memory", "log-floor"}

// BenchmarkConcurrent measures throughput with 16 clients sharing one SDK
// client (as a server's goroutines share one), for the four operations of
// the loopback target: GetItem, a 20-item Query page, an UpdateItem that adds
// to a counter of an existing item (conditional on the item existing), and a
// TransactWriteItems of three such updates. ns/op is wall time divided by
// the number of requests; durable writes from concurrent clients share
// commits.
func BenchmarkConcurrent(b *testing.B) {
	ctx := context.Background()
	ops := []struct {
		name   string
		writes bool // the storage floors run too
		do     func(c *dynamodb.Client, i int) error
	}{
		{"GetItem", false, func(c *dynamodb.Client, i int) error {
			pk, sk := photoKey(i%usersN, (i/usersN)%photosPerUser)
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tableName), Key: keyOf(pk, sk), ConsistentRead: aws.Bool(true)})
			if err == nil && out.Item == nil {
				b.Errorf("GetItem %s %s: no item", pk, sk)
			}
			return err
		}},
		{"Query20", false, func(c *dynamodb.Client, i int) error {
			uid := userID(i % usersN)
			out, err := c.Query(ctx, photoPageQuery(uid))
			if err == nil && len(out.Items) != pageSize {
				b.Errorf("Query %s: %d items, want %d", uid, len(out.Items), pageSize)
			}
			return err
		}},
		{"UpdateItem", true, updateCounter},
		{"TransactWriteItems3", true, transactCounters},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			ts := targets
			if op.writes {
				ts = slices.Concat(targets, storageFloorTargets)
			}
			for _, t := range ts {
				if !isLoopbackTarget(t.name) {
					continue
				}
				b.Run(t.name, func(b *testing.B) {
					c := t.get(b)
					var seq atomic.Int64
					b.ReportAllocs()
					b.SetParallelism((concurrentClients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
					b.ResetTimer()
					stop := reportCPU(b)
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if err := op.do(c, int(seq.Add(1))); err != nil {
								b.Error(err)
								return
							}
						}
					})
					stop()
				})
			}
		})
	}
}

// updateCounter sends the i-th counter update (counterUpdate).
func updateCounter(c *dynamodb.Client, i int) error {
	_, err := c.UpdateItem(context.Background(), counterUpdate(i))
	return err
}

// transactCounters sends the i-th TransactWriteItems of transactPuts counter
// updates.
func transactCounters(c *dynamodb.Client, i int) error {
	items := make([]types.TransactWriteItem, transactPuts)
	for j := range items {
		u := counterUpdate(i*transactPuts + j)
		items[j] = types.TransactWriteItem{Update: &types.Update{
			TableName:                 u.TableName,
			Key:                       u.Key,
			UpdateExpression:          u.UpdateExpression,
			ConditionExpression:       u.ConditionExpression,
			ExpressionAttributeValues: u.ExpressionAttributeValues,
		}}
	}
	_, err := c.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: items})
	return err
}

func isLoopbackTarget(name string) bool {
	for _, n := range loopbackTargets {
		if n == name {
			return true
		}
	}
	return false
}

// counterUpdate adds one to the viewCount counter of pre-populated photo i (by
// cycling), only if the photo exists: the shape of quickphotos's counter
// updates.
func counterUpdate(i int) *dynamodb.UpdateItemInput {
	pk, sk := photoKey(i%usersN, (i/usersN)%photosPerUser)
	return &dynamodb.UpdateItemInput{
		TableName:                 aws.String(tableName),
		Key:                       keyOf(pk, sk),
		UpdateExpression:          aws.String("ADD viewCount :one"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
	}
}
