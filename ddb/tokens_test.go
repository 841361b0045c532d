package ddb

import (
	"encoding/binary"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
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
	earlier, err := json.Marshal(tokenRecord{Hash: requestHash([]byte(followBody("old", false))), Unix: env.clock.Unix(), Response: resp})
	if err != nil {
		t.Fatal(err)
	}
	err = env.e.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketTokens)
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
	*env.clock = env.clock.Add(tokenTTL)
	if err := env.e.purgeTokens(); err != nil {
		t.Fatal(err)
	}
	err = env.e.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketTokens) != nil {
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
	g := binary.BigEndian.Uint64(tokenGeneration(t))
	return time.Unix(int64(g)*int64(tokenTTL/time.Second), 0).In(t.Location())
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
			*env.clock = generationStart(*env.clock).Add(tokenTTL + tc.savedAfter)
			env.call("TransactWriteItems", followBody("tok", false))
			*env.clock = env.clock.Add(tc.retriedAfter)
			if err := env.e.purgeTokens(); err != nil {
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
		*env.clock = start.Add(time.Duration(g)*tokenTTL + time.Minute)
		env.call("TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"tbl","Key":{"PK":{"S":"USER#a"},"SK":{"S":"#METADATA#a"}},"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":"tok-`+strconv.Itoa(g)+`"}`)
	}
	if got := tokenGenerations(t, env.e); len(got) != 4 {
		t.Fatalf("%d generations before the sweep, want 4", len(got))
	}
	if err := env.e.purgeTokens(); err != nil {
		t.Fatal(err)
	}
	got := tokenGenerations(t, env.e)
	want := []string{string(tokenGeneration(start.Add(2 * tokenTTL))), string(tokenGeneration(start.Add(3 * tokenTTL)))}
	if !slices.Equal(got, want) {
		t.Fatalf("generations after the sweep %x, want %x", got, want)
	}
}

// tokenGenerations lists the keys of the token generations e holds.
func tokenGenerations(t *testing.T, e *Engine) []string {
	t.Helper()
	var keys []string
	err := e.db.View(func(tx *bolt.Tx) error {
		gens := tx.Bucket(bucketTokenGenerations)
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
func storedToken(t *testing.T, env *testEnv, token string) (raw []byte, rec tokenRecord) {
	t.Helper()
	err := env.e.db.View(func(tx *bolt.Tx) error {
		gens := tx.Bucket(bucketTokenGenerations)
		if gens == nil || gens.Bucket(tokenGeneration(*env.clock)) == nil {
			t.Fatal("no generation of tokens for now")
		}
		raw = slices.Clone(gens.Bucket(tokenGeneration(*env.clock)).Get([]byte(token)))
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
// binaryRequestHash, in the JSON encoding/json writes for its record; a
// retry, however spelt, is answered without being applied again, and the
// token with another request is refused.
func TestToken_StoredInTheBinaryForm(t *testing.T) {
	env := transactEnv(t)
	env.call("TransactWriteItems", followBody("bin", false))
	raw, rec := storedToken(t, env, "bin")
	var in transactWriteInput
	if err := decode([]byte(followBody("bin", true)), &in); err != nil {
		t.Fatal(err)
	}
	if rec.Form != tokenFormBinary || string(rec.Hash) != string(binaryRequestHash(&in)) {
		t.Fatalf("stored form %d hash %x, want form %d hash %x", rec.Form, rec.Hash, tokenFormBinary, binaryRequestHash(&in))
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
// the request as go-json writes it (typedRequestHash, tokenFormTyped)
// keeps its meaning for its ten minutes.
func TestToken_TypedRecordsStillHold(t *testing.T) {
	env := transactEnv(t)
	var in transactWriteInput
	if err := decode([]byte(followBody("typed", false)), &in); err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(tokenRecord{Hash: typedRequestHash(&in), Form: tokenFormTyped, Unix: env.clock.Unix(), Response: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	err = env.e.update(func(tx *bolt.Tx) error {
		gens, err := tx.CreateBucketIfNotExists(bucketTokenGenerations)
		if err != nil {
			return err
		}
		b, err := gens.CreateBucketIfNotExists(tokenGeneration(*env.clock))
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

// TestToken_BinaryHashSeesEveryField: changing any one member of a
// request, at any depth, changes its binaryRequestHash; and the list of
// changes below covers every field of the request's types, so a field
// added to them without a place in the hash fails here.
func TestToken_BinaryHashSeesEveryField(t *testing.T) {
	str := func(s string) *string { return &s }
	base := func() *transactWriteInput {
		return &transactWriteInput{
			TransactItems: []transactWriteItem{{Update: &transactAction{
				TableName: "tbl", Key: attr.Item{"PK": attr.S("a")}, Item: attr.Item{"x": attr.NS("1", "2")},
				ConditionExpression: str("attribute_exists(PK)"), UpdateExpression: str("SET #n = :v"),
				ReturnValuesOnConditionCheckFailure: "ALL_OLD",
				exprParams:                          exprParams{ExpressionAttributeNames: map[string]string{"#n": "n"}, ExpressionAttributeValues: expr.Values{":v": attr.L(attr.S("x"))}},
			}}},
			ClientRequestToken: "tok", ReturnConsumedCapacity: "TOTAL", ReturnItemCollectionMetrics: "SIZE",
		}
	}
	act := func(in *transactWriteInput) *transactAction { return in.TransactItems[0].Update }
	changes := map[string]func(*transactWriteInput){
		"TransactItems":                       func(in *transactWriteInput) { in.TransactItems = append(in.TransactItems, transactWriteItem{}) },
		"ConditionCheck":                      func(in *transactWriteInput) { in.TransactItems[0].ConditionCheck = &transactAction{} },
		"Put":                                 func(in *transactWriteInput) { in.TransactItems[0].Put = &transactAction{} },
		"Delete":                              func(in *transactWriteInput) { in.TransactItems[0].Delete = &transactAction{} },
		"Update":                              func(in *transactWriteInput) { in.TransactItems[0].Update, in.TransactItems[0].Put = nil, act(in) },
		"ClientRequestToken":                  func(in *transactWriteInput) { in.ClientRequestToken = "tok2" },
		"ReturnConsumedCapacity":              func(in *transactWriteInput) { in.ReturnConsumedCapacity = "NONE" },
		"ReturnItemCollectionMetrics":         func(in *transactWriteInput) { in.ReturnItemCollectionMetrics = "" },
		"TableName":                           func(in *transactWriteInput) { act(in).TableName = "tbl2" },
		"Key":                                 func(in *transactWriteInput) { act(in).Key["PK"] = attr.S("b") },
		"Item":                                func(in *transactWriteInput) { act(in).Item["x"] = attr.NS("1", "3") },
		"ConditionExpression":                 func(in *transactWriteInput) { act(in).ConditionExpression = nil },
		"UpdateExpression":                    func(in *transactWriteInput) { act(in).UpdateExpression = str("SET #n = :w") },
		"ReturnValuesOnConditionCheckFailure": func(in *transactWriteInput) { act(in).ReturnValuesOnConditionCheckFailure = "" },
		"ExpressionAttributeNames":            func(in *transactWriteInput) { act(in).ExpressionAttributeNames["#n"] = "m" },
		"ExpressionAttributeValues":           func(in *transactWriteInput) { act(in).ExpressionAttributeValues[":v"] = attr.L(attr.S("y")) },
	}
	var fields []string
	for _, typ := range []reflect.Type{reflect.TypeFor[transactWriteInput](), reflect.TypeFor[transactWriteItem](), reflect.TypeFor[transactAction]()} {
		for _, f := range reflect.VisibleFields(typ) {
			if !f.Anonymous {
				fields = append(fields, f.Name)
			}
		}
	}
	for _, f := range fields {
		if changes[f] == nil {
			t.Errorf("no change of %s checked: give it its place in binaryRequestHash and here", f)
		}
	}
	want := binaryRequestHash(base())
	if got := binaryRequestHash(base()); string(got) != string(want) {
		t.Fatal("one request hashes two ways")
	}
	for name, change := range changes {
		in := base()
		change(in)
		if string(binaryRequestHash(in)) == string(want) {
			t.Errorf("changing %s leaves the hash as it was", name)
		}
	}
	// Moving a byte from one string to the next is another request.
	a, b := base(), base()
	act(a).TableName, act(a).ReturnValuesOnConditionCheckFailure = "tb", "lALL_OLD"
	act(b).TableName = "tbl"
	if string(binaryRequestHash(a)) == string(binaryRequestHash(b)) {
		t.Error("two requests differing in where a string ends hash alike")
	}
}
