package ddb

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// expiryIndex checks that the expiry bucket of table is exactly what its
// items imply (checkExpiry) and returns its entries in bucket order as
// "PK:ttl", with present reporting whether the bucket exists.
func expiryIndex(tb testing.TB, e *Engine, table string) (entries []string, present bool) {
	tb.Helper()
	err := e.core.View(func(tx *bolt.Tx) error {
		t, err := e.core.OpenTable(tx, table)
		if err != nil {
			return err
		}
		if err := checkExpiry(t); err != nil {
			return err
		}
		xb := t.B.Bucket(storage.BucketExpiry)
		if xb == nil {
			return nil
		}
		present = true
		return xb.ForEach(func(k, _ []byte) error {
			ttl, ik, err := attr.DecodeKey(k, attr.TypeN)
			if err != nil {
				return err
			}
			it, err := t.GetRaw(ik)
			if err != nil {
				return err
			}
			entries = append(entries, it["PK"].S+":"+ttl.NumText())
			return nil
		})
	})
	if err != nil {
		tb.Fatalf("expiry index of %s: %v", table, err)
	}
	return entries, present
}

// setTTL enables or disables TTL on attribute "exp" of table.
func (env *testEnv) setTTL(table string, enabled bool) {
	env.t.Helper()
	spec := &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(enabled)}
	if _, err := env.client.UpdateTimeToLive(env.ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table), TimeToLiveSpecification: spec}); err != nil {
		env.t.Fatal(err)
	}
}

// must fails the test on a request error; it lets the write steps of a
// table-driven test stay one line each.
func (env *testEnv) must(_ any, err error) {
	env.t.Helper()
	if err != nil {
		env.t.Fatal(err)
	}
}

func TestExpiryIndex(t *testing.T) {
	tbl := aws.String("tbl")
	update := func(env *testEnv, pk, expr string, vals map[string]types.AttributeValue) {
		env.must(env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: tbl, Key: item("PK", s(pk)),
			UpdateExpression: aws.String(expr), ExpressionAttributeValues: vals}))
	}
	cases := []struct {
		name  string
		write func(env *testEnv)
		want  []string // entries in bucket order
		noTTL bool     // TTL ends disabled: no bucket
	}{
		{"put with TTL", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			env.Put("tbl", item("PK", s("b")))
		}, []string{"a:100"}, false},
		{"ordered by value", func(env *testEnv) {
			for i, v := range []string{"100", "9", "10", "1.5", "0", "-3", "1e3"} {
				env.Put("tbl", item("PK", s(fmt.Sprint("k", i)), "exp", n(v)))
			}
		}, []string{"k5:-3", "k4:0", "k3:1.5", "k1:9", "k2:10", "k0:100", "k6:1000"}, false},
		{"overwrite with another TTL", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			env.Put("tbl", item("PK", s("a"), "exp", n("200")))
		}, []string{"a:200"}, false},
		{"overwrite keeping the TTL", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100"), "x", s("1")))
			env.Put("tbl", item("PK", s("a"), "exp", n("100.0"), "x", s("2")))
		}, []string{"a:100"}, false},
		{"update setting the TTL", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a")))
			update(env, "a", "SET exp = :v", item(":v", n("300")))
			update(env, "b", "SET exp = :v", item(":v", n("301")))
		}, []string{"a:300", "b:301"}, false},
		{"update changing the TTL", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			update(env, "a", "SET exp = :v", item(":v", n("200")))
		}, []string{"a:200"}, false},
		{"update removing the TTL", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			update(env, "a", "REMOVE exp", nil)
		}, nil, false},
		{"TTL of type S", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", s("100")))
			env.Put("tbl", item("PK", s("b"), "exp", n("100")))
			env.Put("tbl", item("PK", s("b"), "exp", s("100")))
		}, nil, false},
		{"delete", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			env.Put("tbl", item("PK", s("b"), "exp", n("50")))
			env.must(env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: tbl, Key: item("PK", s("a"))}))
		}, []string{"b:50"}, false},
		{"BatchWriteItem", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			env.Put("tbl", item("PK", s("b"), "exp", n("50")))
			env.must(env.client.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": {
				{PutRequest: &types.PutRequest{Item: item("PK", s("c"), "exp", n("10"))}},
				{PutRequest: &types.PutRequest{Item: item("PK", s("a"), "exp", n("20"))}},
				{DeleteRequest: &types.DeleteRequest{Key: item("PK", s("b"))}},
			}}}))
		}, []string{"c:10", "a:20"}, false},
		{"TransactWriteItems", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			env.Put("tbl", item("PK", s("b"), "exp", n("50")))
			env.Put("tbl", item("PK", s("c"), "exp", n("60")))
			env.must(env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: tbl, Item: item("PK", s("d"), "exp", n("5"))}},
				{Update: &types.Update{TableName: tbl, Key: item("PK", s("a")), UpdateExpression: aws.String("SET exp = :v"), ExpressionAttributeValues: item(":v", n("7"))}},
				{Delete: &types.Delete{TableName: tbl, Key: item("PK", s("b"))}},
				{ConditionCheck: &types.ConditionCheck{TableName: tbl, Key: item("PK", s("c")), ConditionExpression: aws.String("attribute_exists(PK)")}},
			}}))
		}, []string{"d:5", "a:7", "c:60"}, false},
		{"TTL disabled", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			env.setTTL("tbl", false)
			env.Put("tbl", item("PK", s("b"), "exp", n("5")))
		}, nil, true},
		{"TTL re-enabled", func(env *testEnv) {
			env.Put("tbl", item("PK", s("a"), "exp", n("100")))
			env.setTTL("tbl", false)
			env.Put("tbl", item("PK", s("b"), "exp", n("5")))
			env.Put("tbl", item("PK", s("c"), "exp", s("5")))
			env.must(env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: tbl, Key: item("PK", s("a"))}))
			env.setTTL("tbl", true)
		}, []string{"b:5"}, false},
	}
	// With a secondary index and without one: a write on a table with
	// neither an index nor a stream builds an update out of the old item
	// itself, and the expiry entry it replaces must still go.
	for _, indexed := range []bool{true, false} {
		for _, c := range cases {
			name := c.name
			if !indexed {
				name += " (no index)"
			}
			t.Run(name, func(t *testing.T) {
				env := mustOpen(t)
				env.createHashTable("tbl", indexed)
				env.setTTL("tbl", true)
				c.write(env)
				got, present := expiryIndex(t, env.e, "tbl")
				if present == c.noTTL || !slices.Equal(got, c.want) {
					t.Errorf("expiry index = %q (bucket %v), want %q (bucket %v)", got, present, c.want, !c.noTTL)
				}
			})
		}
	}
}

func TestSweepExpiredIndex(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true, gsi("gsi", "G", ""))
	env.setTTL("tbl", true)
	now := env.clock.Unix()
	horizon := now - int64(storage.TTLHorizon/time.Second)
	num := func(v int64, frac string) types.AttributeValue { return n(strconv.FormatInt(v, 10) + frac) }
	cases := []struct {
		pk      string
		exp     types.AttributeValue // nil: no TTL attribute
		expired bool
	}{
		{"past", num(now-1, ""), true},
		{"now", num(now, ""), true},
		{"justBeforeNow", num(now-1, ".5"), true},
		{"justAfterNow", num(now, ".5"), false},
		{"future", num(now+1, ""), false},
		{"farFuture", num(now+1e9, ""), false},
		{"atHorizon", num(horizon, ""), true},
		{"beyondHorizon", num(horizon-1, ""), false},
		{"justBeyondHorizon", num(horizon-1, ".5"), false},
		{"ancient", n("1"), false},
		{"negative", n("-5"), false},
		{"string", s(strconv.FormatInt(now-1, 10)), false},
		{"none", nil, false},
	}
	var live []string
	for i, c := range cases {
		for _, sk := range []string{"1", "2"} { // two items per value: entries differ only by table key
			it := item("PK", s(c.pk), "SK", s(sk), "G", s("g"))
			if c.exp != nil {
				it["exp"] = c.exp
			}
			env.Put("tbl", it)
		}
		if !c.expired {
			live = append(live, cases[i].pk, cases[i].pk)
		}
	}
	deleted, err := env.e.SweepExpired()
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * (len(cases) - len(live)/2); deleted != want {
		t.Errorf("swept %d, want %d", deleted, want)
	}
	err = env.e.core.View(func(tx *bolt.Tx) error {
		var got []string
		tt, err := env.e.core.OpenTable(tx, "tbl")
		if err != nil {
			return err
		}
		err = tt.Items.ForEach(func(k, v []byte) error {
			it, err := tt.M.DecodeStored(k, v)
			got = append(got, it["PK"].S)
			return err
		})
		slices.Sort(got)
		slices.Sort(live)
		if !slices.Equal(got, live) {
			t.Errorf("items left %q, want %q", got, live)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := expiryIndex(t, env.e, "tbl")
	if len(entries) != len(live)-4 { // "string" and "none" have no entry
		t.Errorf("expiry entries %q", entries)
	}
	d, err := env.client.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	if *d.Table.ItemCount != int64(len(live)) || *d.Table.GlobalSecondaryIndexes[0].ItemCount != int64(len(live)) {
		t.Errorf("ItemCount %d, index %d, want %d", *d.Table.ItemCount, *d.Table.GlobalSecondaryIndexes[0].ItemCount, len(live))
	}
	if deleted, err := env.e.SweepExpired(); deleted != 0 || err != nil {
		t.Errorf("second sweep: %d, %v", deleted, err)
	}
	// Time passes: "justAfterNow" and "future" become due.
	*env.clock = env.clock.Add(time.Second)
	if deleted, err := env.e.SweepExpired(); deleted != 4 || err != nil {
		t.Errorf("sweep a second later: %d, %v", deleted, err)
	}
}

func TestSweepManyBatches(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	env.setTTL("tbl", true)
	now := env.clock.Unix()
	const due = 2*engine.SweepBatch + 7
	loadItems(t, env.e, "tbl", ttlItems("dead", due, now-10))
	loadItems(t, env.e, "tbl", ttlItems("live", 100, now+10))
	deleted, err := env.e.SweepExpired()
	if err != nil || deleted != due {
		t.Fatalf("swept %d, %v; want %d", deleted, err, due)
	}
	if entries, _ := expiryIndex(t, env.e, "tbl"); len(entries) != 100 {
		t.Errorf("%d expiry entries left, want 100", len(entries))
	}
}

// TestSweepReadsOnlyDue checks the point of the expiry index: a sweep reads
// the entries that are due (plus the one that ends the walk), not the
// table, however many live items, or items past the horizon, it holds.
func TestSweepReadsOnlyDue(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	env.setTTL("tbl", true)
	now := env.clock.Unix()
	loadItems(t, env.e, "tbl", ttlItems("live", 10_000, now+3600))
	loadItems(t, env.e, "tbl", ttlItems("ancient", 1_000, 1))
	loadItems(t, env.e, "tbl", ttlItems("dead", 3, now-60))
	r, err := env.e.core.SweepTable("tbl")
	if err != nil {
		t.Fatal(err)
	}
	if r.Deleted != 3 || r.Visited > 4 || r.More {
		t.Errorf("sweep = %+v, want 3 deleted after visiting at most 4 entries", r)
	}
	r, err = env.e.core.SweepTable("tbl")
	if err != nil || r.Deleted != 0 || r.Visited > 1 {
		t.Errorf("second sweep = %+v, %v", r, err)
	}
}

func TestMigrateV1(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("ttl", false, gsi("gsi", "G", ""))
	env.CreateTable("plain", false)
	env.CreateTable("off", false)
	env.setTTL("ttl", true)
	env.setTTL("off", true)
	env.setTTL("off", false)
	now := env.clock.Unix()
	for _, table := range []string{"ttl", "plain", "off"} {
		env.Put(table, item("PK", s("dead"), "G", s("g"), "exp", n(fmt.Sprint(now-10))))
		env.Put(table, item("PK", s("live"), "G", s("g"), "exp", n(fmt.Sprint(now+10))))
		env.Put(table, item("PK", s("other"), "G", s("g"), "exp", s("x")))
	}
	if err := env.e.Close(); err != nil {
		t.Fatal(err)
	}
	// Make the file what version 1 wrote: items as JSON, no expiry buckets.
	rewriteFile(t, env.dir, downgradeToV3)
	rewrite := func(version string) {
		t.Helper()
		db, err := bolt.Open(filepath.Join(env.dir, FileName), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		err = db.Update(func(tx *bolt.Tx) error {
			for _, table := range []string{"ttl", "plain", "off"} {
				tb := tx.Bucket(storage.TableBucketName(table))
				if tb.Bucket(storage.BucketExpiry) != nil {
					if err := tb.DeleteBucket(storage.BucketExpiry); err != nil {
						return err
					}
				}
			}
			return tx.Bucket(storage.BucketMeta).Put(storage.KeyFormat, []byte(version))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	rewrite("9")
	if _, err := Open(env.dir, &Options{NoSync: true, TTLSweepInterval: -1}); !errors.Is(err, ErrFormatVersion) {
		t.Fatalf("Open of format 9: %v, want ErrFormatVersion", err)
	}
	rewrite(storage.FormatV1)
	env.open()
	var format []byte
	err := env.e.core.View(func(tx *bolt.Tx) error {
		format = bytes.Clone(tx.Bucket(storage.BucketMeta).Get(storage.KeyFormat))
		return nil
	})
	if err != nil || string(format) != storage.FormatVersion {
		t.Fatalf("format after migration = %q, %v", format, err)
	}
	for _, c := range []struct {
		table   string
		want    []string
		present bool
	}{
		{"ttl", []string{fmt.Sprint("dead:", now-10), fmt.Sprint("live:", now+10)}, true},
		{"plain", nil, false},
		{"off", nil, false},
	} {
		got, present := expiryIndex(t, env.e, c.table)
		if present != c.present || !slices.Equal(got, c.want) {
			t.Errorf("%s: expiry index = %q (bucket %v), want %q (bucket %v)", c.table, got, present, c.want, c.present)
		}
	}
	if deleted, err := env.e.SweepExpired(); deleted != 1 || err != nil {
		t.Errorf("sweep after migration: %d, %v", deleted, err)
	}
	// A second Open finds version 2 and changes nothing.
	env.reopen()
	if got, _ := expiryIndex(t, env.e, "ttl"); !slices.Equal(got, []string{fmt.Sprint("live:", now+10)}) {
		t.Errorf("after reopen: %q", got)
	}
}

// loadItems stores items straight through tableTx.put, in one transaction:
// far faster than requests when a test needs tens of thousands of items,
// and it exercises the same write path.
func loadItems(tb testing.TB, e *Engine, table string, items []attr.Item) {
	tb.Helper()
	err := e.core.Update(func(tx *bolt.Tx) error {
		t, err := e.core.OpenTable(tx, table)
		if err != nil {
			return err
		}
		for _, it := range items {
			k := t.M.TableKeyBytes(it)
			old, err := t.GetRaw(k)
			if err != nil {
				return err
			}
			if _, err := t.Put(k, old, it); err != nil {
				return err
			}
		}
		return t.Flush()
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// ttlItems returns count items keyed prefix0, prefix1, … whose TTL
// attribute "exp" is ttl, with a body like a small real item.
func ttlItems(prefix string, count int, ttl int64) []attr.Item {
	out := make([]attr.Item, count)
	for i := range out {
		out[i] = attr.Item{
			"PK":   attr.S(fmt.Sprintf("%s%06d", prefix, i)),
			"exp":  attr.Int(ttl),
			"body": attr.S("some photo metadata of moderate length, repeated to look like a real item"),
		}
	}
	return out
}

// BenchmarkSweepExpired sweeps a table of 20,000 live items with TTL and
// 10 expired ones (re-added before each sweep, outside the timer): the
// cost of a sweep should follow the 10, not the 20,000.
func BenchmarkSweepExpired(b *testing.B) {
	now := time.Unix(1_700_000_000, 0)
	e, err := Open(b.TempDir(), &Options{NoSync: true, TTLSweepInterval: -1, Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	c := dynamodbClient(e)
	ctx := b.Context()
	if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		b.Fatal(err)
	}
	if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		b.Fatal(err)
	}
	loadItems(b, e, "tbl", ttlItems("live", 20_000, now.Unix()+3600))
	expired := ttlItems("dead", 10, now.Unix()-60)
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		loadItems(b, e, "tbl", expired)
		b.StartTimer()
		n, err := e.SweepExpired()
		if err != nil || n != len(expired) {
			b.Fatalf("swept %d, %v", n, err)
		}
	}
}
