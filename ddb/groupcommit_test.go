package ddb

import (
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestGroupCommit_ConcurrentWriters races conditional puts and counter
// updates from many goroutines, so that commits are shared and some writes
// in a shared commit fail: every key must be created exactly once, every
// increment applied exactly once, and the counters (checked by the
// invariant checker at cleanup) stay exact.
func TestGroupCommit_ConcurrentWriters(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("grp", false, gsi("byG", "G", ""))
	const writers, keys = 12, 15
	var wg sync.WaitGroup
	created := make([]int, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				_, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{
					TableName:           aws.String("grp"),
					Item:                item("PK", s("k"+strconv.Itoa(k)), "G", s("w"+strconv.Itoa(w))),
					ConditionExpression: aws.String("attribute_not_exists(PK)"),
				})
				switch code, _ := apiError(err); code {
				case "":
					created[w]++
				case "ConditionalCheckFailedException":
				default:
					t.Errorf("put: %v", err)
				}
				_, err = env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{
					TableName:        aws.String("grp"),
					Key:              item("PK", s("counter")),
					UpdateExpression: aws.String("ADD c :one"),
					ExpressionAttributeValues: map[string]types.AttributeValue{
						":one": n("1"),
					},
				})
				if err != nil {
					t.Errorf("update: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	checkRace(t, env, created, keys, map[string]int{"counter": writers * keys})
}

// checkRace checks the outcome of a race of writers on table grp: the
// writers created keys items in all (created counts each one's), and each
// counter item holds its want in c.
func checkRace(t *testing.T, env *testEnv, created []int, keys int, counters map[string]int) {
	t.Helper()
	total := 0
	for _, c := range created {
		total += c
	}
	if total != keys {
		t.Errorf("%d creations succeeded, want %d (one per key)", total, keys)
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
}

// TestGroupCommit_ConcurrentTransactions races transactions the way
// TestGroupCommit_ConcurrentWriters races single writes, so that
// transactions share commits and some in a shared commit are cancelled:
// every key must be created exactly once, with its count added once to the
// total, and every transfer between two counters applied exactly once.
func TestGroupCommit_ConcurrentTransactions(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("grp", false, gsi("byG", "G", ""))
	const writers, keys = 12, 15
	var wg sync.WaitGroup
	created := make([]int, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("grp"), Item: item("PK", s("k"+strconv.Itoa(k)), "G", s("w"+strconv.Itoa(w))),
						ConditionExpression: aws.String("attribute_not_exists(PK)")}},
					{Update: &types.Update{TableName: aws.String("grp"), Key: item("PK", s("total")),
						UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
				}})
				switch code, _ := apiError(err); code {
				case "":
					created[w]++
				case "TransactionCanceledException":
				default:
					t.Errorf("create: %v", err)
				}
				_, err = env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Update: &types.Update{TableName: aws.String("grp"), Key: item("PK", s("from")),
						UpdateExpression: aws.String("ADD c :minus"), ExpressionAttributeValues: map[string]types.AttributeValue{":minus": n("-1")}}},
					{Update: &types.Update{TableName: aws.String("grp"), Key: item("PK", s("to")),
						UpdateExpression: aws.String("ADD c :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1")}}},
				}})
				if err != nil {
					t.Errorf("transfer: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	checkRace(t, env, created, keys, map[string]int{"total": keys, "from": -writers * keys, "to": writers * keys})
}
