package ddb

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// followTx is pattern 8: friendship put if new, both counters incremented.
func followTx(follower, followed string) []types.TransactWriteItem {
	return []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("tbl"), Item: item("PK", s("USER#"+followed), "SK", s("#FRIEND#"+follower)),
			ConditionExpression: aws.String("attribute_not_exists(SK)")}},
		{Update: &types.Update{TableName: aws.String("tbl"), Key: item("PK", s("USER#"+followed), "SK", s("#METADATA#"+followed)),
			UpdateExpression: aws.String("SET followers = followers + :one"), ExpressionAttributeValues: item(":one", n("1"))}},
		{Update: &types.Update{TableName: aws.String("tbl"), Key: item("PK", s("USER#"+follower), "SK", s("#METADATA#"+follower)),
			UpdateExpression: aws.String("SET following = following + :one"), ExpressionAttributeValues: item(":one", n("1")),
			ConditionExpression: aws.String("attribute_exists(PK)"), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
	}
}

func transactEnv(t *testing.T) *testEnv {
	env := mustOpen(t)
	env.CreateTable("tbl", true, gsi("inv", "SK", "PK"))
	env.Put("tbl", item("PK", s("USER#a"), "SK", s("#METADATA#a"), "followers", n("0"), "following", n("0")))
	env.Put("tbl", item("PK", s("USER#b"), "SK", s("#METADATA#b"), "followers", n("0"), "following", n("0")))
	return env
}

func (env *testEnv) number(pk, sk, name string) string {
	env.t.Helper()
	out, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s(pk), "SK", s(sk))})
	if err != nil {
		env.t.Fatal(err)
	}
	if v, ok := out.Item[name].(*types.AttributeValueMemberN); ok {
		return v.Value
	}
	return ""
}

func TestTransactWriteItems(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		env := transactEnv(t)
		out, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: followTx("a", "b"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		if err != nil {
			t.Fatal(err)
		}
		if env.number("USER#b", "#METADATA#b", "followers") != "1" || env.number("USER#a", "#METADATA#a", "following") != "1" {
			t.Error("counters not incremented")
		}
		// 3 writes, each 1 unit on the table and 1 on the index, doubled.
		if len(out.ConsumedCapacity) != 1 || *out.ConsumedCapacity[0].CapacityUnits != 12 || *out.ConsumedCapacity[0].Table.CapacityUnits != 6 {
			t.Errorf("capacity %+v", out.ConsumedCapacity)
		}
	})
	t.Run("ErrConditionCancelsAll", func(t *testing.T) {
		env := transactEnv(t)
		if _, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: followTx("a", "b")}); err != nil {
			t.Fatal(err)
		}
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: followTx("a", "b")})
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			t.Fatalf("err = %v", err)
		}
		codes := ""
		for _, r := range tce.CancellationReasons {
			codes += *r.Code + " "
		}
		if codes != "ConditionalCheckFailed None None " {
			t.Errorf("reasons = %s", codes)
		}
		if *tce.Message != "Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, None]" {
			t.Errorf("message = %s", *tce.Message)
		}
		if env.number("USER#b", "#METADATA#b", "followers") != "1" {
			t.Error("counter changed by a cancelled transaction")
		}
	})
	t.Run("ErrReturnsOldItem", func(t *testing.T) {
		env := transactEnv(t)
		tx := followTx("a", "b")
		tx[2].Update.ConditionExpression = aws.String("following > :one")
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			t.Fatalf("err = %v", err)
		}
		r := tce.CancellationReasons[2]
		if *r.Code != "ConditionalCheckFailed" || r.Item["following"] == nil || *r.Message != "The conditional request failed" {
			t.Errorf("reason = %+v", r)
		}
	})
	t.Run("ErrSameItemTwice", func(t *testing.T) {
		env := transactEnv(t)
		tx := append(followTx("a", "b"), types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tbl"),
			Key: item("PK", s("USER#b"), "SK", s("#METADATA#b")), ConditionExpression: aws.String("attribute_exists(PK)")}})
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
		wantErr(t, err, "ValidationException", "Transaction request cannot include multiple operations on one item")
	})
	t.Run("ErrRuntimeUpdateError", func(t *testing.T) {
		env := transactEnv(t)
		tx := followTx("a", "b")
		tx[1].Update.UpdateExpression = aws.String("SET followers = followers + :one, nope = absent + :one")
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
		wantErr(t, err, "ValidationException", "The provided expression refers to an attribute that does not exist in the item")
		if env.number("USER#a", "#METADATA#a", "following") != "0" {
			t.Error("a failed transaction wrote")
		}
	})
	t.Run("ErrKeyUpdateCancels", func(t *testing.T) {
		env := transactEnv(t)
		tx := followTx("a", "b")
		tx[1].Update.UpdateExpression = aws.String("SET PK = :one")
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
		var tce *types.TransactionCanceledException
		if !errors.As(err, &tce) {
			t.Fatalf("err = %v", err)
		}
		if *tce.CancellationReasons[1].Code != "ValidationError" || *tce.CancellationReasons[0].Code != "None" {
			t.Errorf("reasons = %+v", tce.CancellationReasons)
		}
	})
	t.Run("ErrDeleteAndCheck", func(t *testing.T) {
		env := transactEnv(t)
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Delete: &types.Delete{TableName: aws.String("tbl"), Key: item("PK", s("USER#a"), "SK", s("#METADATA#a"))}},
			{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tbl"), Key: item("PK", s("USER#z"), "SK", s("#METADATA#z")), ConditionExpression: aws.String("attribute_exists(PK)")}},
		}})
		wantErr(t, err, "TransactionCanceledException", "")
		if env.number("USER#a", "#METADATA#a", "followers") != "0" {
			t.Error("delete applied")
		}
	})
	t.Run("Idempotent", func(t *testing.T) {
		env := transactEnv(t)
		in := &dynamodb.TransactWriteItemsInput{TransactItems: followTx("a", "b"), ClientRequestToken: aws.String("tok-1")}
		for range 2 {
			if _, err := env.client.TransactWriteItems(env.ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		if env.number("USER#b", "#METADATA#b", "followers") != "1" {
			t.Error("repeated token applied twice")
		}
		_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: followTx("b", "a"), ClientRequestToken: aws.String("tok-1")})
		wantErr(t, err, "IdempotentParameterMismatchException", "")
		*env.clock = env.clock.Add(11 * time.Minute)
		_, err = env.client.TransactWriteItems(env.ctx, in)
		wantErr(t, err, "TransactionCanceledException", "")
	})
}

func TestTransactWriteItem_Action(t *testing.T) {
	a := &engine.TransactAction{TableName: "tbl"}
	for _, tc := range []struct {
		name string
		item engine.TransactWriteItem
		want engine.TransactKind
		err  bool
	}{
		{"ConditionCheck", engine.TransactWriteItem{ConditionCheck: a}, engine.TransactConditionCheck, false},
		{"Put", engine.TransactWriteItem{Put: a}, engine.TransactPut, false},
		{"Delete", engine.TransactWriteItem{Delete: a}, engine.TransactDelete, false},
		{"Update", engine.TransactWriteItem{Update: a}, engine.TransactUpdate, false},
		{"none", engine.TransactWriteItem{}, 0, true},
		{"two", engine.TransactWriteItem{Put: a, Delete: a}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind, got, err := tc.item.Action()
			if tc.err {
				var de *Error
				if !errors.As(err, &de) || de.Type != engine.TypeValidation || de.Message != "TransactItems can only contain one of Check, Put, Update or Delete" {
					t.Errorf("action() error = %v", err)
				}
				return
			}
			if err != nil || kind != tc.want || got != a {
				t.Errorf("action() = %v, %p, %v; want %v, %p", kind, got, err, tc.want, a)
			}
		})
	}
}
