package ddb

import (
	"encoding/json"
	"errors"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
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
		{name: "ErrWrongService", target: "Other_1.ListTables", body: `{}`, status: 400, typ: "UnknownOperationException"},
		{name: "ErrBadJSON", target: "DynamoDB_20120810.ListTables", body: `{"Limit":"x"}`, status: 400, typ: "SerializationException"},
		{name: "ErrNotFound", target: "DynamoDB_20120810.GetItem", body: `{"TableName":"nope","Key":{"PK":{"S":"a"}}}`, status: 400, typ: "ResourceNotFoundException"},
		{name: "ErrBadValue", target: "DynamoDB_20120810.PutItem", body: `{"TableName":"nope","Item":{"PK":{"N":"x"}}}`, status: 400, typ: "ValidationException"},
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

func TestOpen(t *testing.T) {
	t.Run("ErrFormatVersion", func(t *testing.T) {
		dir := t.TempDir()
		db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *bolt.Tx) error {
			b, _ := tx.CreateBucket(bucketMeta)
			return b.Put(keyFormat, []byte("999"))
		})
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, nil); !errors.Is(err, ErrFormatVersion) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrNotDir", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		os.WriteFile(f, nil, 0o600)
		if _, err := Open(f, nil); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("CloseTwice", func(t *testing.T) {
		e, err := Open(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
