package ddb

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// testEnv is an engine in a temporary directory with an SDK client over
// the in-memory transport.
type testEnv struct {
	t      *testing.T
	e      *Engine
	dir    string
	clock  *time.Time
	client *dynamodb.Client
	ctx    context.Context
}

// mustOpen opens an engine for a test; the invariant checker runs and the
// engine closes when the test ends.
func mustOpen(t *testing.T) *testEnv {
	t.Helper()
	now := time.Unix(1_700_000_000, 0)
	env := &testEnv{t: t, dir: t.TempDir(), clock: &now, ctx: context.Background()}
	env.open()
	t.Cleanup(func() {
		if err := checkInvariants(env.e); err != nil {
			t.Errorf("invariants: %v", err)
		}
		if err := env.e.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return env
}

// open (re)opens the engine of env.
func (env *testEnv) open() {
	env.t.Helper()
	e, err := Open(env.dir, &Options{NoSync: true, TTLSweepInterval: -1, Now: func() time.Time { return *env.clock }})
	if err != nil {
		env.t.Fatal(err)
	}
	env.e = e
	env.client = dynamodbClient(e)
}

// dynamodbClient returns an SDK client over the in-memory transport.
func dynamodbClient(e *Engine) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "local",
		BaseEndpoint: aws.String("http://ddb.local"),
		Credentials:  credentials.NewStaticCredentialsProvider("id", "secret", ""),
		HTTPClient:   e.HTTPClient(),
	})
}

// reopen closes and reopens the engine on the same directory.
func (env *testEnv) reopen() {
	env.t.Helper()
	if err := env.e.Close(); err != nil {
		env.t.Fatal(err)
	}
	env.open()
}

// createHashTable creates table name with a hash key PK, with a global
// secondary index on G when indexed. The write paths differ on it: without
// an index (or a stream or TTL), an update builds its new item out of the
// old one (TableTx.KeepsReplaced).
func (env *testEnv) createHashTable(name string, indexed bool) {
	if indexed {
		env.CreateTable(name, false, gsi("by"+name, "G", ""))
		return
	}
	env.CreateTable(name, false)
}

// createTable creates a table with string keys PK (HASH) and, if sk, SK
// (RANGE), on-demand, and the given GSIs (each keyed by its HASH and
// optional RANGE attributes, all strings).
func (env *testEnv) CreateTable(name string, sk bool, gsis ...types.GlobalSecondaryIndex) {
	env.t.Helper()
	defs := map[string]bool{"PK": true}
	ks := []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}}
	if sk {
		defs["SK"] = true
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange})
	}
	for _, g := range gsis {
		for _, k := range g.KeySchema {
			defs[*k.AttributeName] = true
		}
	}
	var ads []types.AttributeDefinition
	for n := range defs {
		ads = append(ads, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
	}
	_, err := env.client.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName:              aws.String(name),
		KeySchema:              ks,
		AttributeDefinitions:   ads,
		BillingMode:            types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: gsis,
	})
	if err != nil {
		env.t.Fatal(err)
	}
}

// gsi builds a GSI definition with projection ALL.
func gsi(name, hash, rng string) types.GlobalSecondaryIndex {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	if rng != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
	}
	return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: ks, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
}

// s returns a string AttributeValue.
func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// n returns a number AttributeValue.
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// item builds an item from name/value pairs.
func item(kv ...any) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return out
}

// put stores an item, failing the test on error.
func (env *testEnv) Put(table string, it map[string]types.AttributeValue) {
	env.t.Helper()
	if _, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
		env.t.Fatal(err)
	}
}

// apiError returns the error code and message of an SDK error, or "" when
// err is nil.
func apiError(err error) (code, msg string) {
	if err == nil {
		return "", ""
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode(), ae.ErrorMessage()
	}
	return "?", err.Error()
}

// wantErr checks that err is the API error code with message msg (msg ""
// matches any message).
func wantErr(t *testing.T, err error, code, msg string) {
	t.Helper()
	gc, gm := apiError(err)
	if gc != code || (msg != "" && gm != msg) {
		t.Fatalf("error = %q %q, want %q %q", gc, gm, code, msg)
	}
}

// rawCall returns a call sending body, as is, to DynamoDB operation op of
// the engine: for requests the SDK refuses to send. Its error is an
// smithy.APIError carrying the answer's exception and message.
func (env *testEnv) rawCall(op, body string) func() error {
	return func() error {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", wire.TargetPrefix+op)
		rec := httptest.NewRecorder()
		env.e.ServeHTTP(rec, req)
		if rec.Code == http.StatusOK {
			return nil
		}
		var e struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			return err
		}
		return &smithy.GenericAPIError{Code: e.Type[strings.LastIndexByte(e.Type, '#')+1:], Message: e.Message}
	}
}
