package ddb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

func TestOpen(t *testing.T) {
	t.Run("ErrFormatVersion", func(t *testing.T) {
		dir := t.TempDir()
		db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *bolt.Tx) error {
			b, _ := tx.CreateBucket(storage.BucketMeta)
			return b.Put(storage.KeyFormat, []byte("999"))
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
	t.Run("ErrLocked", func(t *testing.T) {
		dir := t.TempDir()
		first, err := Open(dir, &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer first.Close()
		_, err = Open(dir, &Options{NoSync: true})
		if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), filepath.Join(dir, FileName)) {
			t.Fatalf("second Open: %v, want ErrLocked naming the file", err)
		}
		first.Close()
		second, err := Open(dir, &Options{NoSync: true})
		if err != nil {
			t.Fatalf("Open after the first closed: %v", err)
		}
		second.Close()
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

func TestOpenMemory(t *testing.T) {
	// Two in-memory engines are independent, hold their data while open,
	// leave nothing in the working directory and forget everything on Close.
	wd := t.TempDir()
	t.Chdir(wd)
	openMemory := func() *testEnv {
		t.Helper()
		e, err := OpenMemory(&Options{TTLSweepInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		return &testEnv{t: t, e: e, client: dynamodbClient(e), ctx: t.Context()}
	}
	fill := func(env *testEnv, n int) {
		env.CreateTable("Things", false)
		for i := range n {
			env.Put("Things", item("PK", s(fmt.Sprintf("k%d", i))))
		}
	}
	count := func(env *testEnv) int32 {
		t.Helper()
		out, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("Things"), Select: types.SelectCount})
		if err != nil {
			t.Fatal(err)
		}
		return out.Count
	}
	a, b := openMemory(), openMemory()
	fill(a, 30)
	fill(b, 5)
	if got := count(a); got != 30 {
		t.Errorf("engine a holds %d items, want 30", got)
	}
	if err := a.e.Close(); err != nil {
		t.Fatal(err)
	}
	if got := count(b); got != 5 {
		t.Errorf("engine b holds %d items, want 5", got)
	}
	if err := b.e.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Errorf("OpenMemory wrote to the working directory: %v", entries)
	}
	c := openMemory()
	defer c.e.Close()
	out, err := c.client.ListTables(c.ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.TableNames) != 0 {
		t.Errorf("a new in-memory engine lists tables %v", out.TableNames)
	}
}
