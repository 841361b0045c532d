package ddb

import (
	"context"
	"encoding/json"
	"errors"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

func TestServeHTTP(t *testing.T) {
	tests := []struct {
		name   string
		target string
		body   string
		status int
		typ    string
	}{
		{name: "OK", target: "DynamoDB_20120810.ListTables", body: `{}`, status: 200},
		{name: "ErrUnknownOperation", target: "DynamoDB_20120810.Frobnicate", body: `{}`, status: 400, typ: "UnknownOperationException"},
		{name: "StreamsOK", target: "DynamoDBStreams_20120810.ListStreams", body: `{}`, status: 200},
		{name: "ErrUnknownStreamsOperation", target: "DynamoDBStreams_20120810.Frobnicate", body: `{}`, status: 400, typ: "UnknownOperationException"},
		{name: "ErrStreamsOperationOfDynamoDB", target: "DynamoDB_20120810.ListStreams", body: `{}`, status: 400, typ: "UnknownOperationException"},
		{name: "ErrWrongService", target: "Other_1.ListTables", body: `{}`, status: 400, typ: "UnknownOperationException"},
		{name: "ErrBadJSON", target: "DynamoDB_20120810.ListTables", body: `{"Limit":"x"}`, status: 400, typ: "SerializationException"},
		{name: "ErrNotFound", target: "DynamoDB_20120810.GetItem", body: `{"TableName":"nope","Key":{"PK":{"S":"a"}}}`, status: 400, typ: "ResourceNotFoundException"},
		{name: "ErrBadValue", target: "DynamoDB_20120810.PutItem", body: `{"TableName":"nope","Item":{"PK":{"N":"x"}}}`, status: 400, typ: "ValidationException"},
		{name: "ErrInvalidUTF8", target: "DynamoDB_20120810.PutItem", body: "{\"TableName\":\"tbl\",\"Item\":{\"PK\":{\"S\":\"a\xff\"}}}", status: 400, typ: "SerializationException"},
		{name: "ErrLoneSurrogate", target: "DynamoDB_20120810.PutItem", body: `{"TableName":"tbl","Item":{"PK":{"S":"a\ud800"}}}`, status: 400, typ: "SerializationException"},
		{name: "ErrEmptyAttributeName", target: "DynamoDB_20120810.PutItem", body: `{"TableName":"tbl","Item":{"PK":{"S":"a"},"":{"S":"x"}}}`, status: 400, typ: "ValidationException"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := mustOpen(t)
			req := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			req.Header.Set("X-Amz-Target", tt.target)
			req.Header.Set("Content-Type", "application/x-amz-json-1.0")
			rec := httptest.NewRecorder()
			env.e.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status = %d, body %s", rec.Code, rec.Body)
			}
			body := rec.Body.Bytes()
			if got := rec.Header().Get("X-Amz-Crc32"); got != strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10) {
				t.Errorf("crc32 header %s does not match body", got)
			}
			if rec.Header().Get("x-amzn-RequestId") == "" {
				t.Error("no request id")
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/x-amz-json-1.0" {
				t.Errorf("content type %s", ct)
			}
			if tt.typ != "" {
				var e struct {
					Type    string `json:"__type"`
					Message string `json:"message"`
				}
				if err := json.Unmarshal(body, &e); err != nil {
					t.Fatal(err)
				}
				if e.Type != "com.amazonaws.dynamodb.v20120810#"+tt.typ || e.Message == "" {
					t.Errorf("error body = %s", body)
				}
			}
		})
	}
	t.Run("ErrMethod", func(t *testing.T) {
		env := mustOpen(t)
		rec := httptest.NewRecorder()
		env.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if rec.Code != 400 {
			t.Errorf("status %d", rec.Code)
		}
	})
}

func TestServeHTTP_OverNetwork(t *testing.T) {
	env := mustOpen(t)
	srv := httptest.NewServer(env.e)
	defer srv.Close()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKID", "SECRET", "")})
	ctx := t.Context()
	if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "b", &types.AttributeValueMemberB{Value: []byte{0, 1, 2}})}); err != nil {
		t.Fatal(err)
	}
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"))})
	if err != nil {
		t.Fatal(err)
	}
	if b := out.Item["b"].(*types.AttributeValueMemberB).Value; len(b) != 3 || b[2] != 2 {
		t.Errorf("b = %v", b)
	}
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("nope"), Key: item("PK", s("a"))})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
}

// TestServeHTTP_CanceledRequest: a read whose client went away stops with
// 499 RequestCanceled, no InternalServerError; the in-process transport
// returns the context's error instead, as a network client does.
func TestServeHTTP_CanceledRequest(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	env.fillPartition("p", 2*engine.CtxCheckEvery)
	scan := func(ctx context.Context) *http.Request {
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(`{"TableName":"tbl"}`))
		req.Header.Set("X-Amz-Target", wire.TargetPrefix+"Scan")
		return req
	}
	for _, tt := range []struct {
		name string
		ctx  func(ctx context.Context, cancel func()) context.Context
	}{
		{"WaitingForMemory", func(ctx context.Context, cancel func()) context.Context { cancel(); return ctx }},
		{"Reading", func(ctx context.Context, cancel func()) context.Context {
			return &cancelAtCheck{Context: ctx, cancel: cancel, at: 1}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rec := httptest.NewRecorder()
			env.e.ServeHTTP(rec, scan(tt.ctx(ctx, cancel)))
			var e struct {
				Type string `json:"__type"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
				t.Fatal(err)
			}
			if rec.Code != engine.StatusClientClosedRequest || e.Type != wire.ErrorNamespace+engine.TypeRequestCanceled {
				t.Errorf("status %d, body %s; want %d %s", rec.Code, rec.Body, engine.StatusClientClosedRequest, engine.TypeRequestCanceled)
			}
		})
	}
	t.Run("Transport", func(t *testing.T) {
		// The context ends once the request is being served: RoundTrip's own
		// check before serving passes, the Scan's first check fails.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := &cancelAtCheck{Context: ctx, cancel: cancel, at: 2}
		resp, err := wire.NewTransport(env.e).RoundTrip(scan(c))
		if !errors.Is(err, context.Canceled) || resp != nil {
			t.Errorf("RoundTrip = %v, %v; want context.Canceled", resp, err)
		}
		if c.checks < c.at {
			t.Errorf("the context was checked %d times, want the Scan to check it", c.checks)
		}
	})
}

// cancelAtCheck is a context that cancels itself at the at'th check of Err.
type cancelAtCheck struct {
	context.Context
	cancel     func()
	at, checks int
}

func (c *cancelAtCheck) Err() error {
	if c.checks++; c.checks == c.at {
		c.cancel()
	}
	return c.Context.Err()
}
