package sigv4auth_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/ddb/sigv4auth"
)

// The keys every test's server accepts.
var (
	writer   = sigv4auth.Key{ID: "AKIDWRITER", Secret: "writer-secret-0123456789"}
	reader   = sigv4auth.Key{ID: "AKIDREADER", Secret: "reader-secret-0123456789", ReadOnly: true}
	testKeys = must(sigv4auth.NewKeys(writer, reader))
)

const table = "photos"

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// server is the engine behind a Handler, on a loopback port.
type server struct {
	url    string
	engine *ddb.Engine
}

// startServer serves an in-memory engine with one table behind a Handler of testKeys.
func startServer(t *testing.T) *server {
	return startServerWith(t, sigv4auth.Options{})
}

// startServerWith is startServer with the Handler's options.
func startServerWith(t *testing.T, opts sigv4auth.Options) *server {
	t.Helper()
	engine, err := ddb.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	_, err = engine.Client().CreateTable(t.Context(), &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sigv4auth.New(engine, testKeys, opts))
	t.Cleanup(srv.Close)
	return &server{url: srv.URL, engine: engine}
}

// client is an SDK client of the server signing with id and secret, which does not retry.
func (s *server) client(id, secret string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:           "eu-west-1",
		BaseEndpoint:     aws.String(s.url),
		Credentials:      credentials.NewStaticCredentialsProvider(id, secret, ""),
		RetryMaxAttempts: 1,
	})
}

// items returns how many items the table holds, read past the Handler.
func (s *server) items(t *testing.T) int32 {
	t.Helper()
	out, err := s.engine.Client().Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	return out.Count
}

func putItem(ctx context.Context, c *dynamodb.Client) error {
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p1"}}})
	return err
}

// wantAPIError fails the test unless err is the exception code with a message containing msg.
func wantAPIError(t *testing.T, err error, code, msg string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want %s", err, code)
	}
	if ae.ErrorCode() != code || !strings.Contains(ae.ErrorMessage(), msg) {
		t.Fatalf("err = %s: %q, want %s containing %q", ae.ErrorCode(), ae.ErrorMessage(), code, msg)
	}
}

// TestHandler_SDKClient: the Go SDK's client, signing as it always does, is served with a
// configured key and refused with a wrong secret or an unknown key, and nothing is written.
func TestHandler_SDKClient(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := startServer(t)
		if err := putItem(t.Context(), s.client(writer.ID, writer.Secret)); err != nil {
			t.Fatal(err)
		}
		if n := s.items(t); n != 1 {
			t.Fatalf("%d items after PutItem, want 1", n)
		}
	})
	for _, tc := range []struct {
		name, id, secret, code, msg string
	}{
		{"ErrWrongSecret", writer.ID, "not-the-writer-secret-0123", "InvalidSignatureException", "The request signature we calculated does not match"},
		{"ErrUnknownKey", "AKIDSTRANGER", writer.Secret, "UnrecognizedClientException", "The security token included in the request is invalid."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t)
			wantAPIError(t, putItem(t.Context(), s.client(tc.id, tc.secret)), tc.code, tc.msg)
			if n := s.items(t); n != 0 {
				t.Fatalf("%d items written by a refused request", n)
			}
		})
	}
}

// TestHandler_ReadOnlyKey: a read-only key reads, and any write it asks for, PartiQL included,
// is refused with AccessDeniedException and writes nothing.
func TestHandler_ReadOnlyKey(t *testing.T) {
	s := startServer(t)
	ctx := t.Context()
	if err := putItem(ctx, s.client(writer.ID, writer.Secret)); err != nil {
		t.Fatal(err)
	}
	ro := s.client(reader.ID, reader.Secret)
	key := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p1"}}
	got, err := ro.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key})
	if err != nil || got.Item == nil {
		t.Fatalf("GetItem with the read-only key: %v, item %v", err, got)
	}
	if _, err := ro.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "photos" WHERE PK = 'p1'`)}); err != nil {
		t.Fatalf("a SELECT with the read-only key: %v", err)
	}
	if _, err := ro.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("ListTables with the read-only key: %v", err)
	}
	writes := map[string]func() error{
		"PutItem": func() error {
			_, err := ro.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p2"}}})
			return err
		},
		"DeleteItem": func() error {
			_, err := ro.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key})
			return err
		},
		"ExecuteStatement": func() error {
			_, err := ro.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`DELETE FROM "photos" WHERE PK = 'p1'`)})
			return err
		},
		"BatchExecuteStatement": func() error {
			_, err := ro.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(`SELECT * FROM "photos" WHERE PK = 'p1'`)},
				{Statement: aws.String(`INSERT INTO "photos" VALUE {'PK': 'p3'}`)},
			}})
			return err
		},
		"DeleteTable": func() error {
			_, err := ro.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
			return err
		},
	}
	for op, call := range writes {
		wantAPIError(t, call(), "AccessDeniedException", "dynamodb:"+op)
	}
	if n := s.items(t); n != 1 {
		t.Fatalf("%d items after the read-only key's writes, want the 1 written before", n)
	}
}

// request is a DynamoDB request signed by hand with the SDK's signer, for the requests no SDK
// client sends: tampered, replayed, or signed in some other wrong way.
type request struct {
	target   string
	body     string
	key      sigv4auth.Key
	at       time.Time
	region   string
	service  string
	headers  map[string]string // set before signing
	before   func(r *http.Request)
	after    func(r *http.Request)
	sendBody string // when set, sent in place of the signed body
	// payloadHash, when set, is signed in place of the body's hash.
	payloadHash string
}

// send signs and sends rq to s and returns the status and the decoded error body.
func (s *server) send(t *testing.T, rq request) (status int, typ, msg string) {
	t.Helper()
	if rq.target == "" {
		rq.target = "DynamoDB_20120810.PutItem"
		rq.body = `{"TableName":"photos","Item":{"PK":{"S":"p1"}}}`
	}
	if rq.key.ID == "" {
		rq.key = writer
	}
	if rq.at.IsZero() {
		rq.at = time.Now()
	}
	if rq.region == "" {
		rq.region = "eu-west-1"
	}
	if rq.service == "" {
		rq.service = "dynamodb"
	}
	r, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.url, strings.NewReader(rq.body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.Header.Set("X-Amz-Target", rq.target)
	for k, v := range rq.headers {
		r.Header.Set(k, v)
	}
	if rq.before != nil {
		rq.before(r)
	}
	sum := sha256.Sum256([]byte(rq.body))
	if rq.payloadHash == "" {
		rq.payloadHash = hex.EncodeToString(sum[:])
	}
	creds := aws.Credentials{AccessKeyID: rq.key.ID, SecretAccessKey: rq.key.Secret}
	if err := v4.NewSigner().SignHTTP(t.Context(), creds, r, rq.payloadHash, rq.service, rq.region, rq.at); err != nil {
		t.Fatal(err)
	}
	if rq.sendBody != "" {
		r.Body = io.NopCloser(strings.NewReader(rq.sendBody))
		r.ContentLength = int64(len(rq.sendBody))
	}
	if rq.after != nil {
		rq.after(r)
	}
	return s.do(t, r)
}

// do sends r to s and returns the status and the decoded error body.
func (s *server) do(t *testing.T, r *http.Request) (status int, typ, msg string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		if err := json.Unmarshal(data, &e); err != nil {
			t.Fatalf("status %d, body %q: %v", resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode, strings.TrimPrefix(e.Type, "com.amazon.coral.service#"), e.Message
}

// TestHandler_Refusals: every request not signed by a configured key for exactly what it
// carries, at about now, is refused with DynamoDB's exception and message, and writes nothing.
func TestHandler_Refusals(t *testing.T) {
	tampered := `{"TableName":"photos","Item":{"PK":{"S":"p9"}}}`
	for _, tc := range []struct {
		name          string
		rq            request
		status        int
		typ, contains string
	}{
		{"ErrTamperedBody", request{sendBody: tampered},
			400, "InvalidSignatureException", "does not match the signature you provided"},
		{"ErrContentHashNotTheBody", request{headers: map[string]string{"X-Amz-Content-Sha256": strings.Repeat("0", 64)}},
			400, "InvalidSignatureException", "The provided 'x-amz-content-sha256' header does not match"},
		{"ErrSignedContentHashNotTheBody", request{payloadHash: strings.Repeat("0", 64), headers: map[string]string{"X-Amz-Content-Sha256": strings.Repeat("0", 64)}},
			400, "InvalidSignatureException", "The provided 'x-amz-content-sha256' header does not match"},
		{"ErrTargetChanged", request{after: func(r *http.Request) { r.Header.Set("X-Amz-Target", "DynamoDB_20120810.DeleteTable") }},
			400, "InvalidSignatureException", "does not match"},
		{"ErrSignedHeaderDropped", request{headers: map[string]string{"X-Custom": "a"}, after: func(r *http.Request) { r.Header.Del("X-Custom") }},
			400, "InvalidSignatureException", "does not match"},
		{"ErrExpired", request{at: time.Now().Add(-6 * time.Minute)},
			400, "InvalidSignatureException", "Signature expired: "},
		{"ErrNotYetCurrent", request{at: time.Now().Add(6 * time.Minute)},
			400, "InvalidSignatureException", "Signature not yet current: "},
		{"ErrUnknownKey", request{key: sigv4auth.Key{ID: "AKIDSTRANGER", Secret: writer.Secret}},
			400, "UnrecognizedClientException", "The security token included in the request is invalid."},
		{"ErrWrongSecret", request{key: sigv4auth.Key{ID: writer.ID, Secret: "wrong-secret-0123456789"}},
			400, "InvalidSignatureException", "does not match"},
		{"ErrSessionToken", request{headers: map[string]string{"X-Amz-Security-Token": "token"}},
			400, "UnrecognizedClientException", "The security token included in the request is invalid"},
		{"ErrWrongService", request{service: "s3"},
			400, "InvalidSignatureException", "Credential should be scoped to correct service: 'dynamodb'."},
		{"ErrScopeDateNotTheDate", request{after: func(r *http.Request) {
			r.Header.Set("X-Amz-Date", time.Now().UTC().Add(-2*time.Minute).Format("20060102T150405Z"))
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), time.Now().UTC().Format("/20060102/"), "/20000101/", 1))
		}}, 400, "InvalidSignatureException", "Date in Credential scope does not match"},
		{"ErrNoAuthorization", request{after: func(r *http.Request) { r.Header.Del("Authorization") }},
			400, "MissingAuthenticationTokenException", "Request is missing Authentication Token"},
		{"ErrNoDate", request{after: func(r *http.Request) { r.Header.Del("X-Amz-Date") }},
			400, "IncompleteSignatureException", "requires existence of either a 'X-Amz-Date' or a 'Date' header"},
		{"ErrBadDate", request{after: func(r *http.Request) { r.Header.Set("X-Amz-Date", "yesterday") }},
			400, "IncompleteSignatureException", "Date must be in ISO-8601 'basic format'. Got 'yesterday'."},
		{"ErrNoSignature", request{after: func(r *http.Request) {
			auth := r.Header.Get("Authorization")
			r.Header.Set("Authorization", auth[:strings.Index(auth, ", Signature=")])
		}}, 400, "IncompleteSignatureException", "Authorization header requires 'Signature' parameter."},
		{"ErrAlgorithm", request{after: func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256", "AWS4-HMAC-SHA1", 1))
		}}, 400, "IncompleteSignatureException", "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA1'"},
		{"ErrHostNotSigned", request{after: func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "SignedHeaders=content-length;content-type;host;", "SignedHeaders=content-length;content-type;", 1))
		}}, 400, "InvalidSignatureException", "'Host' must be a 'SignedHeader'"},
		{"ErrTargetNotSigned", request{after: func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), ";x-amz-target,", ",", 1))
		}}, 400, "InvalidSignatureException", "'X-Amz-Target' must be a 'SignedHeader'"},
		{"ErrQueryAuth", request{after: func(r *http.Request) { r.URL.RawQuery = "X-Amz-Signature=abc" }},
			400, "IncompleteSignatureException", "Query-string authentication is not accepted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t)
			status, typ, msg := s.send(t, tc.rq)
			if status != tc.status || typ != tc.typ || !strings.Contains(msg, tc.contains) {
				t.Errorf("answer %d %s %q, want %d %s containing %q", status, typ, msg, tc.status, tc.typ, tc.contains)
			}
			if n := s.items(t); n != 0 {
				t.Errorf("%d items written by a refused request", n)
			}
		})
	}
}

// TestHandler_SignedRequests: requests a client may sign differently from the Go SDK (with
// X-Amz-Content-Sha256, without content-length, in another region, just within the skew) are
// served.
func TestHandler_SignedRequests(t *testing.T) {
	body := `{"TableName":"photos","Item":{"PK":{"S":"p1"}}}`
	sum := sha256.Sum256([]byte(body))
	for _, tc := range []struct {
		name string
		rq   request
	}{
		{"ContentSha256", request{headers: map[string]string{"X-Amz-Content-Sha256": hex.EncodeToString(sum[:])}}},
		{"AnyRegion", request{region: "local"}},
		{"WithinSkew", request{at: time.Now().Add(-4 * time.Minute)}},
		// Signed without content-length (as botocore signs), and sent chunked (a client
		// request's length 0 with a body is an unknown length).
		{"ChunkedBody", request{before: func(r *http.Request) { r.ContentLength = 0 }}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t)
			if status, typ, msg := s.send(t, tc.rq); status != http.StatusOK {
				t.Fatalf("answer %d %s %q, want 200", status, typ, msg)
			}
			if n := s.items(t); n != 1 {
				t.Fatalf("%d items, want 1", n)
			}
		})
	}
}

// TestHandler_TooLarge: a body over DynamoDB's limit is refused with 413 before it is read.
func TestHandler_TooLarge(t *testing.T) {
	s := startServer(t)
	status, typ, _ := s.send(t, request{after: func(r *http.Request) {
		r.ContentLength = ddb.MaxRequestBytes + 1
		r.Body = io.NopCloser(io.LimitReader(zeros{}, ddb.MaxRequestBytes+1))
	}})
	if status != http.StatusRequestEntityTooLarge || typ != "RequestEntityTooLargeException" {
		t.Fatalf("answer %d %s, want 413 RequestEntityTooLargeException", status, typ)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestHandler_Replay: a signed request captured on the way is served again while its date is
// within the skew, as DynamoDB serves it, and refused once the server's clock has moved past.
func TestHandler_Replay(t *testing.T) {
	signedAt := time.Now()
	var clock atomic.Pointer[time.Time]
	clock.Store(&signedAt)
	s := startServerWith(t, sigv4auth.Options{Now: func() time.Time { return *clock.Load() }})
	body := `{"TableName":"photos","Key":{"PK":{"S":"p1"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`
	var captured *http.Request
	if status, typ, msg := s.send(t, request{target: "DynamoDB_20120810.UpdateItem", body: body, at: signedAt, after: func(r *http.Request) { captured = r.Clone(t.Context()) }}); status != http.StatusOK {
		t.Fatalf("the request: %d %s %q", status, typ, msg)
	}
	replay := func(after time.Duration) (int, string, string) {
		now := signedAt.Add(after)
		clock.Store(&now)
		r := captured.Clone(t.Context())
		r.Body = io.NopCloser(strings.NewReader(body))
		return s.do(t, r)
	}
	if status, typ, msg := replay(4 * time.Minute); status != http.StatusOK {
		t.Fatalf("replayed within the skew: %d %s %q, want 200", status, typ, msg)
	}
	status, typ, msg := replay(6 * time.Minute)
	if status != http.StatusBadRequest || typ != "InvalidSignatureException" || !strings.HasPrefix(msg, "Signature expired: ") || !strings.HasSuffix(msg, " - 5 min.)") {
		t.Fatalf("replayed past the skew: %d %s %q, want InvalidSignatureException Signature expired", status, typ, msg)
	}
	out, err := s.engine.Client().GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "p1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := out.Item["n"].(*types.AttributeValueMemberN).Value; n != "2" {
		t.Fatalf("n = %s after the request and its replays, want 2 (the request and its replay within the skew)", n)
	}
}

// TestHandler_NilKeys: a Handler built without keys refuses every request: it fails closed.
func TestHandler_NilKeys(t *testing.T) {
	engine, err := ddb.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	srv := httptest.NewServer(sigv4auth.New(engine, nil, sigv4auth.Options{}))
	t.Cleanup(srv.Close)
	_, err = (&server{url: srv.URL}).client(writer.ID, writer.Secret).ListTables(t.Context(), &dynamodb.ListTablesInput{})
	wantAPIError(t, err, "UnrecognizedClientException", "The security token included in the request is invalid.")
}
