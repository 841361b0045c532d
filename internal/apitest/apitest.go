// Package apitest starts real quickphotos servers for integration tests: the HTTP API of
// package api on a free 127.0.0.1 port, over a real store — DynamoDB Local (launched once per
// test binary by Main) or the embedded engine — with a table of its own per test. Its helpers
// make a test read like the scenario it checks:
//
//	srv := apitest.NewServer(t)
//	srv.MustCreateUser(t, "alice")
//	resp := srv.Query(t, `{ user(username: "alice") { name } }`, nil)
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/dynamodblocal"
)

// StoreEnv selects the store integration tests run on: "embedded" (the default) for the
// embedded engine, a new one per server, or "dynamodb-local" for the official DynamoDB Local,
// launched once per test binary by Main. The same tests run on both.
const StoreEnv = "QUICKPHOTOS_TEST_STORE"

// The stores StoreEnv names.
const (
	StoreEmbedded      = "embedded"
	StoreDynamoDBLocal = "dynamodb-local"
)

// Backend is the store the tests of this binary run on.
func Backend() string {
	if v := os.Getenv(StoreEnv); v != "" {
		return v
	}
	return StoreEmbedded
}

var (
	local  *dynamodblocal.Instance
	tables atomic.Int64
)

// Main is a TestMain body: it launches the store the tests need, runs them, and stops it.
func Main(m *testing.M) int {
	switch Backend() {
	case StoreEmbedded:
		return m.Run()
	case StoreDynamoDBLocal:
		return dynamodblocal.Main(m, &local)
	default:
		fmt.Fprintf(os.Stderr, "FAIL: %s=%q: want %s or %s\n", StoreEnv, Backend(), StoreEmbedded, StoreDynamoDBLocal)
		return 2
	}
}

// Server is a running quickphotos API over its own, new table.
type Server struct {
	URL    string
	Store  *dynamo.Store
	client *dynamodb.Client
	table  string
}

// NewServer starts a server on a free 127.0.0.1 port over a new table, both removed when
// the test ends.
func NewServer(t testing.TB) *Server {
	t.Helper()
	client := newClient(t)
	table := fmt.Sprintf("qp-%d-%d", os.Getpid(), tables.Add(1))
	store := dynamo.New(client, table)
	if err := store.CreateTable(context.Background()); err != nil {
		t.Fatalf("create table: %v", err)
	}
	httpSrv := httptest.NewServer(api.New(api.Config{Store: store}))
	t.Cleanup(func() {
		httpSrv.Close()
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &table})
	})
	return &Server{URL: httpSrv.URL, Store: store, client: client, table: table}
}

// newClient returns a client of the test binary's store: a new embedded engine in a
// temporary directory, closed when the test ends, or the shared DynamoDB Local.
func newClient(t testing.TB) *dynamodb.Client {
	if Backend() == StoreEmbedded {
		engine, err := ddb.Open(t.TempDir(), nil)
		if err != nil {
			t.Fatalf("open engine: %v", err)
		}
		t.Cleanup(func() {
			if err := engine.Close(); err != nil {
				t.Errorf("close engine: %v", err)
			}
		})
		return engine.Client()
	}
	if local == nil {
		t.Fatal("apitest: DynamoDB Local is not running; call apitest.Main from TestMain")
	}
	return local.Client()
}

// Response is a GraphQL response.
type Response struct {
	Data       json.RawMessage `json:"data"`
	Errors     []Error         `json:"errors"`
	Extensions struct {
		Cost *dynamo.CostSnapshot `json:"cost"`
	} `json:"extensions"`
	// Status is the HTTP status code.
	Status int `json:"-"`
}

// Error is one GraphQL error.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Code is the extensions.code of the response's first error, "" when there is none.
func (r *Response) Code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	code, _ := r.Errors[0].Extensions["code"].(string)
	return code
}

// Cost is the response's extensions.cost; Query always asks for it.
func (r *Response) Cost(t testing.TB) dynamo.CostSnapshot {
	t.Helper()
	if r.Extensions.Cost == nil {
		t.Fatal("response has no extensions.cost")
	}
	return *r.Extensions.Cost
}

// Decode unmarshals the response's data into v, failing the test when the response has errors.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("unexpected errors: %+v", r.Errors)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode %s: %v", r.Data, err)
	}
}

// Query posts a GraphQL operation with the cost header set and returns the response.
func (s *Server) Query(t testing.TB, query string, vars map[string]any) *Response {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, s.URL+api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.CostHeader, "1")
	return s.do(t, req)
}

// Do sends req and decodes its GraphQL response.
func (s *Server) do(t testing.TB, req *http.Request) *Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	var r Response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("decode response (status %d): %v", resp.StatusCode, err)
	}
	r.Status = resp.StatusCode
	return &r
}

// Get sends a GraphQL query as GET /graphql?query=…, with extra headers.
func (s *Server) Get(t testing.TB, query string, header http.Header) *Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+api.Endpoint+"?query="+url.QueryEscape(query), nil)
	for k, v := range header {
		req.Header[k] = v
	}
	return s.do(t, req)
}

// ItemCount is the number of items in the server's table, read with a consistent Scan: tests
// use it to check that a refused write wrote nothing.
func (s *Server) ItemCount(t testing.TB) int {
	t.Helper()
	var n int32
	in := &dynamodb.ScanInput{TableName: &s.table, Select: types.SelectCount, ConsistentRead: aws.Bool(true)}
	for {
		out, err := s.client.Scan(context.Background(), in)
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		n += out.Count
		if out.LastEvaluatedKey == nil {
			return int(n)
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}
