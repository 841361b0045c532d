package ddb

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	bolt "go.etcd.io/bbolt"
)

// followBody is followTx("a", "b") as a request body, with token tok; the
// two spellings differ only in the order of object keys.
func followBody(tok string, reordered bool) string {
	if reordered {
		return `{"ClientRequestToken":"` + tok + `","TransactItems":[` +
			`{"Put":{"ConditionExpression":"attribute_not_exists(SK)","Item":{"SK":{"S":"#FRIEND#a"},"PK":{"S":"USER#b"}},"TableName":"tbl"}},` +
			`{"Update":{"UpdateExpression":"SET followers = followers + :one","TableName":"tbl","Key":{"SK":{"S":"#METADATA#b"},"PK":{"S":"USER#b"}},"ExpressionAttributeValues":{":one":{"N":"1"}}}}]}`
	}
	return `{"TransactItems":[` +
		`{"Put":{"TableName":"tbl","Item":{"PK":{"S":"USER#b"},"SK":{"S":"#FRIEND#a"}},"ConditionExpression":"attribute_not_exists(SK)"}},` +
		`{"Update":{"TableName":"tbl","Key":{"PK":{"S":"USER#b"},"SK":{"S":"#METADATA#b"}},"UpdateExpression":"SET followers = followers + :one","ExpressionAttributeValues":{":one":{"N":"1"}}}}],` +
		`"ClientRequestToken":"` + tok + `"}`
}

// TestToken_SameRequestWhateverItsSpelling: a retry whose body orders its
// keys differently, or that comes through the in-process API rather than
// HTTP, is the same request: answered, not applied again.
func TestToken_SameRequestWhateverItsSpelling(t *testing.T) {
	env := transactEnv(t)
	env.call("TransactWriteItems", followBody("tok-1", false))
	env.call("TransactWriteItems", followBody("tok-1", true))
	direct := &dynamodb.TransactWriteItemsInput{TransactItems: followTx("a", "b")[:2], ClientRequestToken: aws.String("tok-1")}
	if _, err := env.e.API().TransactWriteItems(env.ctx, direct); err != nil {
		t.Fatalf("the same request in process: %v", err)
	}
	if got := env.number("USER#b", "#METADATA#b", "followers"); got != "1" {
		t.Fatalf("followers = %s after three sends of one request, want 1", got)
	}
	other := &dynamodb.TransactWriteItemsInput{TransactItems: followTx("b", "a")[:2], ClientRequestToken: aws.String("tok-1")}
	_, err := env.e.API().TransactWriteItems(env.ctx, other)
	wantErr(t, err, "IdempotentParameterMismatchException", "")
}

// TestToken_RecordsOfEarlierVersionsStillHold: a token stored by a version
// that hashed the canonical body (requestHash, no form) keeps its meaning
// for its ten minutes.
func TestToken_RecordsOfEarlierVersionsStillHold(t *testing.T) {
	env := transactEnv(t)
	resp, err := json.Marshal(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := json.Marshal(tokenRecord{Hash: requestHash([]byte(followBody("old", false))), Unix: env.clock.Unix(), Response: resp})
	if err != nil {
		t.Fatal(err)
	}
	err = env.e.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketTokens)
		if err != nil {
			return err
		}
		return b.Put([]byte("old"), legacy)
	})
	if err != nil {
		t.Fatal(err)
	}
	*env.clock = env.clock.Add(time.Minute)
	env.call("TransactWriteItems", followBody("old", true))
	if got := env.number("USER#b", "#METADATA#b", "followers"); got != "0" {
		t.Fatalf("followers = %s: the request of an earlier version's token was applied again", got)
	}
	wantErr(t, env.rawCall("TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"tbl","Key":{"PK":{"S":"USER#a"},"SK":{"S":"#METADATA#a"}},"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":"old"}`)(),
		"IdempotentParameterMismatchException", "")
}
