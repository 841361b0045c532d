package ddb

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	bolt "go.etcd.io/bbolt"
)

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
		if _, err := Open(f, nil); !errors.Is(err, ErrNotDir) {
			t.Fatalf("err = %v", err)
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

func TestClosedEngine(t *testing.T) {
	e, err := Open(t.TempDir(), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	c := dynamodbClient(e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = c.ListTables(t.Context(), &dynamodb.ListTablesInput{})
	if code, _ := apiError(err); code != "InternalServerError" {
		t.Errorf("err = %v", err)
	}
}
