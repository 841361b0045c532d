package engine

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// TestTransactWrite_PreparedTargetsAreChecked prepares a transaction in a
// snapshot (prepareTransaction), changes what it read before it runs, and
// runs it: whatever changed in between, the transaction must act on the
// state it finds in its own transaction, as if nothing had been prepared.
// One case changes nothing, and the prepared work is applied.
func TestTransactWrite_PreparedTargetsAreChecked(t *testing.T) {
	const start = 1_700_000_000
	cases := []struct {
		name string
		// change runs between prepare and write; clock is the engine's
		// time in seconds.
		change func(t *testing.T, e *Engine, clock *atomic.Int64)
		// want is the item's counter afterwards, or canceled when the
		// transaction must be cancelled.
		want     int
		canceled bool
	}{
		{name: "nothing changed", change: func(*testing.T, *Engine, *atomic.Int64) {}, want: 2},
		{name: "the item changed", want: 12, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
			update(t, e, "ADD c :ten", expr.Values{":ten": attr.N("10")})
		}},
		{name: "the item was deleted", canceled: true, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
			if _, err := e.DeleteItem(context.Background(), &DeleteItemInput{KeyInput: KeyInput{Key: key()}, WriteParams: WriteParams{TableName: "tbl"}}); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "the item expired", canceled: true, change: func(t *testing.T, e *Engine, clock *atomic.Int64) {
			// The stored item is the same; only time tells it is gone.
			clock.Add(120)
		}},
		{name: "TTL was turned on", canceled: true, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
			// With TTL off the item was live when prepared; on, it is past.
			on := true
			if _, err := e.UpdateTimeToLive(context.Background(), &UpdateTTLInput{TableName: "tbl", TimeToLiveSpecification: &TTLSpecInput{AttributeName: "gone", Enabled: &on}}); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "an index was added", canceled: true, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
			// The item is the same, but the counter it writes is now an
			// index key of the wrong type.
			_, err := e.UpdateTable(context.Background(), &UpdateTableInput{TableName: "tbl",
				AttributeDefinitions: []storage.AttributeDefinition{{AttributeName: "c", AttributeType: "S"}},
				GlobalSecondaryIndexUpdates: []GsiUpdate{{Create: &IndexInput{IndexName: "byC",
					KeySchema: []storage.KeySchemaElement{{AttributeName: "c", KeyType: "HASH"}}, Projection: &storage.Projection{ProjectionType: "KEYS_ONLY"}}}}})
			if err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var clock atomic.Int64
			clock.Store(start)
			e, err := OpenMemory(&Options{StoreOptions: storage.StoreOptions{Now: func() time.Time { return time.Unix(clock.Load(), 0) }}, TTLSweepInterval: -1})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			createTable(t, e)
			if tc.name == "the item expired" {
				on := true
				if _, err := e.UpdateTimeToLive(context.Background(), &UpdateTTLInput{TableName: "tbl", TimeToLiveSpecification: &TTLSpecInput{AttributeName: "expires", Enabled: &on}}); err != nil {
					t.Fatal(err)
				}
			}
			update(t, e, "SET c = :one, expires = :soon, gone = :past", expr.Values{":one": attr.N("1"),
				":soon": attr.N(strconv.Itoa(start + 60)), ":past": attr.N(strconv.Itoa(start - 60))})

			cond, upd := "attribute_exists(PK)", "ADD c :one"
			in := &TransactWriteInput{TransactItems: []TransactWriteItem{{Update: &TransactAction{
				TableName: "tbl", Key: key(), ConditionExpression: &cond, UpdateExpression: &upd,
				ExprParams: ExprParams{ExpressionAttributeValues: expr.Values{":one": attr.N("1")}},
			}}}}
			plans, err := in.plan()
			if err != nil {
				t.Fatal(err)
			}
			prepared := e.prepareTransaction(plans)
			if prepared == nil {
				t.Fatal("the transaction was not prepared")
			}
			tc.change(t, e, &clock)
			err = e.Update(func(tx *bolt.Tx) error {
				_, err := e.transactWrite(tx, plans, prepared, "")
				return err
			})
			if tc.canceled {
				if AsError(err).Type != TypeTransactionCanceled {
					t.Fatalf("got %v, want the transaction cancelled", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := counter(t, e); got != strconv.Itoa(tc.want) {
				t.Errorf("counter = %s, want %d", got, tc.want)
			}
		})
	}
}

func key() attr.Item { return attr.Item{"PK": attr.S("a")} }

func createTable(t *testing.T, e *Engine) {
	t.Helper()
	_, err := e.CreateTable(context.Background(), &CreateTableInput{
		TableName:            "tbl",
		KeySchema:            []storage.KeySchemaElement{{AttributeName: "PK", KeyType: "HASH"}},
		AttributeDefinitions: []storage.AttributeDefinition{{AttributeName: "PK", AttributeType: "S"}},
		BillingMode:          "PAY_PER_REQUEST",
	})
	if err != nil {
		t.Fatal(err)
	}
}

func update(t *testing.T, e *Engine, expression string, values expr.Values) {
	t.Helper()
	_, err := e.UpdateItem(context.Background(), &UpdateItemInput{KeyInput: KeyInput{Key: key()}, UpdateExpression: &expression,
		WriteParams: WriteParams{TableName: "tbl", ExprParams: ExprParams{ExpressionAttributeValues: values}}})
	if err != nil {
		t.Fatal(err)
	}
}

// counter is the stored item's c.
func counter(t *testing.T, e *Engine) string {
	t.Helper()
	var c string
	err := e.View(func(tx *bolt.Tx) error {
		tt, err := e.OpenTable(tx, "tbl")
		if err != nil {
			return err
		}
		k, err := KeyParam(tt.M, key())
		if err != nil {
			return err
		}
		it, err := tt.GetRaw(k)
		if err != nil {
			return err
		}
		c = it["c"].NumText()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
