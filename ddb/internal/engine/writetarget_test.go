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

// TestWrite_PreparedTargetsAreChecked runs writes that are evaluated in a
// snapshot first (writetarget.go) and changes what they read between the
// snapshot and their transaction: whatever changed, each write must act on
// the state it finds in its own transaction, as if nothing had been
// prepared. One case changes nothing, and the prepared work is applied.
func TestWrite_PreparedTargetsAreChecked(t *testing.T) {
	const start = 1_700_000_000
	ops := []struct {
		name string
		run  func(e *Engine) error
		// refused is the error type of a write whose condition fails, or
		// whose new item the table refuses.
		refused, invalid string
	}{
		{name: "TransactWriteItems", refused: TypeTransactionCanceled, invalid: TypeTransactionCanceled, run: func(e *Engine) error {
			cond, upd := "attribute_exists(PK)", "ADD c :one"
			_, err := e.TransactWriteItems(context.Background(), &TransactWriteInput{TransactItems: []TransactWriteItem{{Update: &TransactAction{
				TableName: "tbl", Key: key(), ConditionExpression: &cond, UpdateExpression: &upd,
				ExprParams: ExprParams{ExpressionAttributeValues: expr.Values{":one": attr.N("1")}},
			}}}}, nil)
			return err
		}},
		{name: "UpdateItem", refused: TypeConditionalCheck, invalid: TypeValidation, run: func(e *Engine) error {
			cond, upd := "attribute_exists(PK)", "ADD c :one"
			_, err := e.UpdateItem(context.Background(), &UpdateItemInput{KeyInput: KeyInput{Key: key()}, UpdateExpression: &upd,
				WriteParams: WriteParams{TableName: "tbl", ConditionExpression: &cond, ExprParams: ExprParams{ExpressionAttributeValues: expr.Values{":one": attr.N("1")}}}})
			return err
		}},
	}
	cases := []struct {
		name string
		// change runs between the snapshot and the transaction; clock is
		// the engine's time in seconds.
		change func(t *testing.T, e *Engine, clock *atomic.Int64)
		// want is the item's counter afterwards; refused and invalid
		// say the write must be refused, for its condition or its item.
		want             int
		refused, invalid bool
	}{
		{name: "nothing changed", change: func(*testing.T, *Engine, *atomic.Int64) {}, want: 2},
		{name: "the item changed", want: 12, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
			update(t, e, "ADD c :ten", expr.Values{":ten": attr.N("10")})
		}},
		{name: "the item was deleted", refused: true, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
			if _, err := e.DeleteItem(context.Background(), &DeleteItemInput{KeyInput: KeyInput{Key: key()}, WriteParams: WriteParams{TableName: "tbl"}}); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "the item expired", refused: true, change: func(t *testing.T, e *Engine, clock *atomic.Int64) {
			// The stored item is the same; only time tells it is gone.
			clock.Add(120)
		}},
		{name: "TTL was turned on", refused: true, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
			// With TTL off the item was live when prepared; on, it is past.
			on := true
			if _, err := e.UpdateTimeToLive(context.Background(), &UpdateTTLInput{TableName: "tbl", TimeToLiveSpecification: &TTLSpecInput{AttributeName: "gone", Enabled: &on}}); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "an index was added", invalid: true, change: func(t *testing.T, e *Engine, _ *atomic.Int64) {
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
	for _, op := range ops {
		for _, tc := range cases {
			t.Run(op.name+"/"+tc.name, func(t *testing.T) {
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

				snapshots := 0
				e.afterSnapshot = func() {
					snapshots++
					e.afterSnapshot = nil // the change's own writes run as usual
					tc.change(t, e, &clock)
				}
				err = op.run(e)
				if snapshots != 1 {
					t.Fatalf("the write was evaluated in %d snapshots, want 1", snapshots)
				}
				switch {
				case tc.refused || tc.invalid:
					want := op.refused
					if tc.invalid {
						want = op.invalid
					}
					if err == nil || AsError(err).Type != want {
						t.Fatalf("got %v, want %s", err, want)
					}
				case err != nil:
					t.Fatal(err)
				default:
					if got := counter(t, e); got != strconv.Itoa(tc.want) {
						t.Errorf("counter = %s, want %d", got, tc.want)
					}
				}
			})
		}
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
