package ddb

import (
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The group-commit races: how many goroutines race, and how
// many keys each tries to create.
const raceWriters, raceKeys = 12, 15

// TestGroupCommit_ConcurrentWriters races conditional puts and counter
// updates from many goroutines, so that commits are shared and some writes
// in a shared commit fail: every key must be created exactly once, every
// increment applied exactly once, and the counters (checked by the
// invariant checker at cleanup) stay exact.
func TestGroupCommit_ConcurrentWriters(t *testing.T) {
	race(t, map[string]int{"counter": raceWriters * raceKeys}, func(env *testEnv, w, k int) bool {
		_, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{
			TableName:           aws.String("grp"),
			Item:                item("PK", s("k"+strconv.Itoa(k)), "G", s("w"+strconv.Itoa(w))),
			ConditionExpression: aws.String("attribute_not_exists(PK)"),
		})
		created := createdUnless(t, err, "ConditionalCheckFailedException", "put")
		_, err = env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String("grp"),
			Key:                       item("PK", s("counter")),
			UpdateExpression:          aws.String("ADD c :one"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")},
		})
		if err != nil {
			t.Errorf("update: %v", err)
		}
		return created
	})
}

// TestGroupCommit_ConcurrentTransactions races transactions the way
// TestGroupCommit_ConcurrentWriters races single writes, so that
// transactions share commits and some in a shared commit are cancelled:
// every key must be created exactly once, with its count added once to the
// total, and every transfer between two counters applied exactly once.
func TestGroupCommit_ConcurrentTransactions(t *testing.T) {
	race(t, map[string]int{"total": raceKeys, "from": -raceWriters * raceKeys, "to": raceWriters * raceKeys}, func(env *testEnv, w, k int) bool {
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("grp"), Item: item("PK", s("k"+strconv.Itoa(k)), "G", s("w"+strconv.Itoa(w))),
				ConditionExpression: aws.String("attribute_not_exists(PK)")}},
			{Update: &types.Update{TableName: aws.String("grp"), Key: item("PK", s("total")),
				UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
		}})
		created := createdUnless(t, err, "TransactionCanceledException", "create")
		_, err = env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: aws.String("grp"), Key: item("PK", s("from")),
				UpdateExpression: aws.String("ADD c :minus"), ExpressionAttributeValues: map[string]types.AttributeValue{":minus": n("-1")}}},
			{Update: &types.Update{TableName: aws.String("grp"), Key: item("PK", s("to")),
				UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
		}})
		if err != nil {
			t.Errorf("transfer: %v", err)
		}
		return created
	})
}

// createdUnless reports whether a conditional creation succeeded (err nil):
// refused, the error of its condition failing, is the race lost; any other
// error fails the test.
func createdUnless(t *testing.T, err error, refused, what string) bool {
	switch code, _ := apiError(err); code {
	case "":
		return true
	case refused:
	default:
		t.Errorf("%s: %v", what, err)
	}
	return false
}

// race runs raceWriters goroutines on table grp, each calling write for
// keys 0 to raceKeys-1 (write reports whether it created the key), on a
// table with a secondary index and on one without, whose updates build the
// new item out of the old one. It then checks the outcome: raceKeys items
// created in all, and each counter item of counters holding its want in c.
func race(t *testing.T, counters map[string]int, write func(env *testEnv, w, k int) bool) {
	for _, indexed := range []bool{true, false} {
		name := "indexed"
		if !indexed {
			name = "no index"
		}
		t.Run(name, func(t *testing.T) {
			env := mustOpen(t)
			env.createHashTable("grp", indexed)
			var wg sync.WaitGroup
			created := make([]int, raceWriters)
			for w := range raceWriters {
				wg.Go(func() {
					for k := range raceKeys {
						if write(env, w, k) {
							created[w]++
						}
					}
				})
			}
			wg.Wait()
			total := 0
			for _, c := range created {
				total += c
			}
			if total != raceKeys {
				t.Errorf("%d creations succeeded, want %d (one per key)", total, raceKeys)
			}
			for pk, want := range counters {
				out, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("grp"), Key: item("PK", s(pk))})
				if err != nil {
					t.Fatal(err)
				}
				if got := out.Item["c"].(*types.AttributeValueMemberN).Value; got != strconv.Itoa(want) {
					t.Errorf("%s = %s, want %d", pk, got, want)
				}
			}
		})
	}
}
