package ddb

import (
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
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
	inProcess := &dynamodb.TransactWriteItemsInput{TransactItems: followTx("a", "b")[:2], ClientRequestToken: aws.String("tok-1")}
	if _, err := env.e.API().TransactWriteItems(env.ctx, inProcess); err != nil {
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
	earlier, err := json.Marshal(engine.TokenRecord{Hash: engine.RequestHash([]byte(followBody("old", false))), Unix: env.clock.Unix(), Response: resp})
	if err != nil {
		t.Fatal(err)
	}
	err = env.e.core.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(engine.BucketTokens)
		if err != nil {
			return err
		}
		return b.Put([]byte("old"), earlier)
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

	// Expired, the earlier version's bucket goes with its last token.
	*env.clock = env.clock.Add(engine.TokenTTL)
	if err := env.e.core.PurgeTokens(); err != nil {
		t.Fatal(err)
	}
	err = env.e.core.DB.View(func(tx *bolt.Tx) error {
		if tx.Bucket(engine.BucketTokens) != nil {
			t.Error("the bucket of earlier versions' tokens is still there once they expired")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// generationStart is the start of the token generation of t, by the
// arithmetic of tokenGeneration (generations count from the Unix epoch).
func generationStart(t time.Time) time.Time {
	g := binary.BigEndian.Uint64(engine.TokenGeneration(t))
	return time.Unix(int64(g)*int64(engine.TokenTTL/time.Second), 0).In(t.Location())
}

// TestToken_InForceForTenMinutesAcrossGenerations: a token holds for ten
// minutes from its request whether or not a generation of tokens ends in
// between, and the sweeper, which drops generations whole, never drops one
// that still holds a token in force.
func TestToken_InForceForTenMinutesAcrossGenerations(t *testing.T) {
	for _, tc := range []struct {
		name         string
		savedAfter   time.Duration // from the start of a generation
		retriedAfter time.Duration // from the first request
		inForce      bool
	}{
		{"same generation", time.Minute, 8 * time.Minute, true},
		{"next generation", 9*time.Minute + 59*time.Second, time.Minute, true},
		{"next generation, nearly expired", 9 * time.Minute, 9*time.Minute + 59*time.Second, true},
		{"expired in the next generation", 5 * time.Minute, 10*time.Minute + time.Second, false},
		{"expired two generations on", 9 * time.Minute, 11 * time.Minute, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := transactEnv(t)
			*env.clock = generationStart(*env.clock).Add(engine.TokenTTL + tc.savedAfter)
			env.call("TransactWriteItems", followBody("tok", false))
			*env.clock = env.clock.Add(tc.retriedAfter)
			if err := env.e.core.PurgeTokens(); err != nil {
				t.Fatal(err)
			}
			err := env.rawCall("TransactWriteItems", followBody("tok", true))()
			if !tc.inForce {
				// Run again, the follow finds itself already there.
				wantErr(t, err, "TransactionCanceledException", "")
				return
			}
			if err != nil {
				t.Fatalf("retry %v later: %v", tc.retriedAfter, err)
			}
			if got := env.number("USER#b", "#METADATA#b", "followers"); got != "1" {
				t.Errorf("followers = %s after a retry %v later, want 1", got, tc.retriedAfter)
			}
		})
	}
}

// TestToken_SweepDropsOldGenerationsWhole: the sweeper keeps the current
// generation and the one before it, and deletes the older ones.
func TestToken_SweepDropsOldGenerationsWhole(t *testing.T) {
	env := transactEnv(t)
	start := generationStart(*env.clock)
	for g := range 4 {
		*env.clock = start.Add(time.Duration(g)*engine.TokenTTL + time.Minute)
		env.call("TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"tbl","Key":{"PK":{"S":"USER#a"},"SK":{"S":"#METADATA#a"}},"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":"tok-`+strconv.Itoa(g)+`"}`)
	}
	if got := tokenGenerations(t, env.e); len(got) != 4 {
		t.Fatalf("%d generations before the sweep, want 4", len(got))
	}
	if err := env.e.core.PurgeTokens(); err != nil {
		t.Fatal(err)
	}
	got := tokenGenerations(t, env.e)
	want := []string{string(engine.TokenGeneration(start.Add(2 * engine.TokenTTL))), string(engine.TokenGeneration(start.Add(3 * engine.TokenTTL)))}
	if !slices.Equal(got, want) {
		t.Fatalf("generations after the sweep %x, want %x", got, want)
	}
}

// tokenGenerations lists the keys of the token generations e holds.
func tokenGenerations(t *testing.T, e *Engine) []string {
	t.Helper()
	var keys []string
	err := e.core.DB.View(func(tx *bolt.Tx) error {
		gens := tx.Bucket(engine.BucketTokenGenerations)
		if gens == nil {
			return nil
		}
		return gens.ForEachBucket(func(k []byte) error {
			keys = append(keys, string(k))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// storedToken returns the record of token in the current generation.
func storedToken(t *testing.T, env *testEnv, token string) (raw []byte, rec engine.TokenRecord) {
	t.Helper()
	err := env.e.core.DB.View(func(tx *bolt.Tx) error {
		gens := tx.Bucket(engine.BucketTokenGenerations)
		if gens == nil || gens.Bucket(engine.TokenGeneration(*env.clock)) == nil {
			t.Fatal("no generation of tokens for now")
		}
		raw = slices.Clone(gens.Bucket(engine.TokenGeneration(*env.clock)).Get([]byte(token)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("token record %s: %v", raw, err)
	}
	return raw, rec
}

// TestToken_StoredInTheBinaryForm: a token is stored with its request's
// engine.BinaryRequestHash, in the JSON encoding/json writes for its record; a
// retry, however spelt, is answered without being applied again, and the
// token with another request is refused.
func TestToken_StoredInTheBinaryForm(t *testing.T) {
	env := transactEnv(t)
	env.call("TransactWriteItems", followBody("bin", false))
	raw, rec := storedToken(t, env, "bin")
	var in engine.TransactWriteInput
	if err := json.Unmarshal([]byte(followBody("bin", true)), &in); err != nil {
		t.Fatal(err)
	}
	if rec.Form != engine.TokenFormBinary || string(rec.Hash) != string(engine.BinaryRequestHash(&in)) {
		t.Fatalf("stored form %d hash %x, want form %d hash %x", rec.Form, rec.Hash, engine.TokenFormBinary, engine.BinaryRequestHash(&in))
	}
	if want, err := json.Marshal(rec); err != nil || string(raw) != string(want) {
		t.Fatalf("stored record %s, encoding/json writes %s (%v)", raw, want, err)
	}
	env.call("TransactWriteItems", followBody("bin", true))
	if got := env.number("USER#b", "#METADATA#b", "followers"); got != "1" {
		t.Fatalf("followers = %s after a request and its retry, want 1", got)
	}
	wantErr(t, env.rawCall("TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"tbl","Key":{"PK":{"S":"USER#a"},"SK":{"S":"#METADATA#a"}},"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":"bin"}`)(),
		"IdempotentParameterMismatchException", "")
	changed := strings.Replace(followBody("bin", false), `{":one":{"N":"1"}}`, `{":one":{"N":"2"}}`, 1)
	wantErr(t, env.rawCall("TransactWriteItems", changed)(), "IdempotentParameterMismatchException", "")
	if got := env.number("USER#b", "#METADATA#b", "followers"); got != "1" {
		t.Fatalf("followers = %s after refused retries, want 1", got)
	}
}

// TestToken_TypedRecordsStillHold: a token stored by a version that hashed
// the request as go-json writes it (engine.TypedRequestHash, engine.TokenFormTyped)
// keeps its meaning for its ten minutes.
func TestToken_TypedRecordsStillHold(t *testing.T) {
	env := transactEnv(t)
	var in engine.TransactWriteInput
	if err := json.Unmarshal([]byte(followBody("typed", false)), &in); err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(engine.TokenRecord{Hash: engine.TypedRequestHash(&in), Form: engine.TokenFormTyped, Unix: env.clock.Unix(), Response: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	err = env.e.core.Update(func(tx *bolt.Tx) error {
		gens, err := tx.CreateBucketIfNotExists(engine.BucketTokenGenerations)
		if err != nil {
			return err
		}
		b, err := gens.CreateBucketIfNotExists(engine.TokenGeneration(*env.clock))
		if err != nil {
			return err
		}
		return b.Put([]byte("typed"), rec)
	})
	if err != nil {
		t.Fatal(err)
	}
	*env.clock = env.clock.Add(time.Minute)
	env.call("TransactWriteItems", followBody("typed", true))
	if got := env.number("USER#b", "#METADATA#b", "followers"); got != "0" {
		t.Fatalf("followers = %s: the request of a typed-form token was applied again", got)
	}
	wantErr(t, env.rawCall("TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"tbl","Key":{"PK":{"S":"USER#a"},"SK":{"S":"#METADATA#a"}},"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":"typed"}`)(),
		"IdempotentParameterMismatchException", "")
}
