package ddb

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// entry is one key and value to write.
type entry struct{ k, v []byte }

// rewriteBucket replaces bucket name of parent by one holding entries
// (sorted by key), with sequence seq.
func rewriteBucket(parent *bolt.Bucket, name []byte, entries []entry, seq uint64) error {
	if err := parent.DeleteBucket(name); err != nil {
		return err
	}
	b, err := parent.CreateBucket(name)
	if err != nil {
		return err
	}
	b.FillPercent = 1
	for _, e := range entries {
		if err := b.Put(e.k, e.v); err != nil {
			return err
		}
	}
	return b.SetSequence(seq)
}

// downgradeToV3 rewrites what the engine stored in its format 4 forms as
// format 3 stored it: items and index entries as the JSON json.Marshal
// gives them (index entries a full projected copy, under the index key
// followed by the whole table key), stream records as GetRecords returns
// them, written in the default region ("local"). It does not change the
// format version. It holds each bucket in memory: for tests only.
func downgradeToV3(tx *bolt.Tx) error {
	return downgradeToV3In(func(uint64) string { return "local" })(tx)
}

// downgradeToV3In is downgradeToV3 with record seq of each stream written
// in region(seq).
func downgradeToV3In(region func(seq uint64) string) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		err := tx.Bucket(storage.BucketTables).ForEach(func(name, _ []byte) error {
			m, err := storage.LoadTable(tx, string(name))
			if err != nil {
				return err
			}
			tb := tx.Bucket(storage.TableBucketName(m.Name))
			var items []entry
			indexes := make([][]entry, len(m.Indexes))
			err = tb.Bucket(storage.BucketItems).ForEach(func(k, v []byte) error {
				it, err := m.DecodeStored(k, v)
				if err != nil {
					return err
				}
				items = append(items, entry{bytes.Clone(k), engine.AppendItem(nil, it)})
				for i := range m.Indexes {
					ix := &m.Indexes[i]
					if m.IndexKeyBytes(ix, it) == nil {
						continue
					}
					var ik []byte
					for _, name := range ix.KeyNamesList() {
						ik = attr.AppendKey(ik, it[name])
					}
					ik = append(ik, k...)
					indexes[i] = append(indexes[i], entry{ik, engine.AppendItem(nil, m.Project(ix, it))})
				}
				return nil
			})
			if err != nil {
				return err
			}
			if err := rewriteBucket(tb, storage.BucketItems, items, 0); err != nil {
				return err
			}
			for i, ix := range m.Indexes {
				slices.SortFunc(indexes[i], func(a, b entry) int { return bytes.Compare(a.k, b.k) })
				if err := rewriteBucket(tb, storage.IndexBucketName(ix.Name), indexes[i], 0); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		streams := tx.Bucket(storage.BucketStreams)
		if streams == nil {
			return nil
		}
		return streams.ForEach(func(name, _ []byte) error {
			log, err := storage.StreamBuckets(streams.Bucket(name))
			if err != nil {
				return err
			}
			var records []entry
			err = log.Records.ForEach(func(k, v []byte) error {
				seq := storage.BytesToSeq(k)
				rec, err := appendRecordJSON(bytes.Clone(v[:8]), seq, v, region(seq))
				records = append(records, entry{bytes.Clone(k), rec})
				return err
			})
			if err != nil {
				return err
			}
			return rewriteBucket(streams.Bucket(name), storage.BucketRecords, records, log.Records.Sequence())
		})
	}
}

// rewriteFile runs fn on the closed engine file in dir.
func rewriteFile(t *testing.T, dir string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(fn)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// call sends a raw request to the engine and returns the answer's body,
// failing the test unless it is a success.
func (env *testEnv) call(op, body string) string {
	env.t.Helper()
	prefix := wire.TargetPrefix
	if strings.HasPrefix(op, "Streams.") {
		prefix, op = "DynamoDBStreams_20120810.", op[len("Streams."):]
	}
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", prefix+op)
	rec := httptest.NewRecorder()
	env.e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		env.t.Fatalf("%s %s: %d %s", op, body, rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// v3Fixture is a file of format 3 to upgrade: tables with and without a
// sort key, indexes of all three projections, a stream with every event,
// and the answers that read them, taken before the file was downgraded.
type v3Fixture struct {
	env     *testEnv
	arn     string   // the stream's
	before  []string // answers
	records int
}

// newV3Fixture writes the fixture's data, takes its answers, closes the
// engine and downgrades its file to format 3, its records written in
// region(seq).
func newV3Fixture(t *testing.T, region func(seq uint64) string) *v3Fixture {
	env := mustOpen(t)
	include := gsi("ByOwner", "owner", "SK")
	include.Projection = &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"caption"}}
	keysOnly := gsi("ByKind", "kind", "")
	keysOnly.Projection = &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}
	env.CreateTable("photos", true, gsi("Inverted", "SK", "PK"), include, keysOnly)
	_, err := env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("photos"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}})
	if err != nil {
		t.Fatal(err)
	}
	env.CreateTable("plain", false)
	for i, pk := range []string{"USER#a", "USER#b", "USER#c<&>", "USER#\x00zero"} {
		for j, sk := range []string{"#META", "PHOTO#1", "PHOTO#2"} {
			env.Put("photos", item("PK", s(pk), "SK", s(sk), "owner", s(pk), "kind", s(sk[:5]),
				"caption", s("a caption with \"quotes\" and é"), "n", n(string(rune('1'+i+j))),
				"tags", &types.AttributeValueMemberSS{Value: []string{"x", "y"}},
				"blob", &types.AttributeValueMemberB{Value: []byte{0, 1, 2}},
				"meta", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"ok": &types.AttributeValueMemberBOOL{Value: true}, "none": &types.AttributeValueMemberNULL{Value: true}}},
			))
		}
		env.Put("plain", item("PK", s(pk), "list", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a"), n("-1.5")}}))
	}
	env.Put("photos", item("PK", s("USER#a"), "SK", s("PHOTO#1"), "owner", s("someone else"))) // MODIFY, leaves two indexes
	if _, err := env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("photos"),
		Key: item("PK", s("USER#b"), "SK", s("PHOTO#2"))}); err != nil {
		t.Fatal(err)
	}
	desc, err := env.client.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("photos")})
	if err != nil {
		t.Fatal(err)
	}
	f := &v3Fixture{env: env, arn: aws.ToString(desc.Table.LatestStreamArn)}
	f.before, f.records = f.answers(env), f.recordCount(env)
	if f.records != 4*3+4*0+2 {
		t.Fatalf("%d records before the upgrade", f.records)
	}
	if err := env.e.Close(); err != nil {
		t.Fatal(err)
	}
	rewriteFile(t, env.dir, func(tx *bolt.Tx) error {
		if err := downgradeToV3In(region)(tx); err != nil {
			return err
		}
		// A format 3 item is JSON.
		if _, v := tx.Bucket(storage.TableBucketName("plain")).Bucket(storage.BucketItems).Cursor().First(); !bytes.HasPrefix(v, []byte(`{"PK":`)) {
			t.Errorf("downgraded item %q", v)
		}
		return tx.Bucket(storage.BucketMeta).Put(storage.KeyFormat, []byte(storage.FormatV3))
	})
	return f
}

// answers returns every answer of env that reads stored items, index
// entries or records.
func (f *v3Fixture) answers(env *testEnv) []string {
	out := []string{
		env.call("Scan", `{"TableName":"photos"}`),
		env.call("Scan", `{"TableName":"plain"}`),
		env.call("Query", `{"TableName":"photos","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"USER#a"}},"Limit":2}`),
		env.call("GetItem", `{"TableName":"photos","Key":{"PK":{"S":"USER#c<&>"},"SK":{"S":"PHOTO#2"}}}`),
		env.call("DescribeTable", `{"TableName":"photos"}`),
	}
	for _, ix := range []string{"Inverted", "ByOwner", "ByKind"} {
		out = append(out, env.call("Scan", `{"TableName":"photos","IndexName":"`+ix+`"}`))
		out = append(out, env.call("Scan", `{"TableName":"photos","IndexName":"`+ix+`","Limit":3}`))
	}
	records, err := readAllRecords(env.ctx, env.e, f.arn)
	if err != nil {
		env.t.Fatal(err)
	}
	for _, r := range records {
		b, err := json.Marshal(r)
		if err != nil {
			env.t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// recordCount returns the number of records of the fixture's stream.
func (f *v3Fixture) recordCount(env *testEnv) int {
	r, err := readAllRecords(env.ctx, env.e, f.arn)
	if err != nil {
		env.t.Fatal(err)
	}
	return len(r)
}

// check fails the test unless env answers as the fixture did before the
// upgrade, with the stored forms of format 4 and no upgrade file left.
func (f *v3Fixture) Check(env *testEnv) {
	t := env.t
	t.Helper()
	after := f.answers(env)
	if !slices.Equal(f.before, after) {
		for i := range f.before {
			if i >= len(after) || f.before[i] != after[i] {
				t.Fatalf("answer %d after the upgrade:\n got %s\nwant %s", i, after[min(i, len(after)-1)], f.before[i])
			}
		}
		t.Fatalf("%d answers after the upgrade, %d before", len(after), len(f.before))
	}
	err := env.e.core.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(storage.BucketMeta).Get(storage.KeyFormat); string(v) != storage.FormatVersion {
			t.Errorf("format %q after the upgrade", v)
		}
		// Index entries of ALL and KEYS_ONLY projections are keys alone.
		tb := tx.Bucket(storage.TableBucketName("photos"))
		for _, ix := range []string{"Inverted", "ByKind"} {
			_ = tb.Bucket(storage.IndexBucketName(ix)).ForEach(func(k, v []byte) error {
				if len(v) != 0 {
					t.Errorf("index %s entry %x holds %x", ix, k, v)
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(env.dir, FileName+storage.UpgradeSuffix)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("upgrade file after the upgrade: %v", err)
	}
}

// TestMigrateToV4 upgrades a file of format 3 (items, index entries and
// stream records as JSON) and checks that every table, index and stream
// answers exactly as before, that the invariants hold (mustOpen's
// checker) and that the stored forms are format 4's.
func TestMigrateToV4(t *testing.T) {
	f := newV3Fixture(t, func(uint64) string { return "local" })
	env := f.env
	env.open()
	f.Check(env)
	// Writes go on where they left off.
	env.Put("photos", item("PK", s("USER#d"), "SK", s("#META")))
	if got := f.recordCount(env); got != f.records+1 {
		t.Errorf("%d records after one more write, want %d", got, f.records+1)
	}
}

// TestMigrateToV4_Regions: format 3 records keep the regions they were
// written in, whatever the engine's region, once upgraded and after; the
// records written after the upgrade are in the engine's region.
func TestMigrateToV4_Regions(t *testing.T) {
	// Written in two regions, neither the engine's.
	written := func(seq uint64) string {
		if seq <= 5 {
			return "eu-west-3"
		}
		return "ap-south-1"
	}
	f := newV3Fixture(t, written)
	env := f.env
	env.open()
	env.Put("photos", item("PK", s("USER#d"), "SK", s("#META")))
	check := func(engine string) {
		t.Helper()
		// The stream's ARN names the engine's region.
		arn := strings.Replace(f.arn, ":local:", ":"+engine+":", 1)
		for path, sc := range map[string]streamsAPI{"HTTP": streamsClient(env.e), "in process": env.e.StreamsAPI()} {
			records, err := readAllRecordsWith(env.ctx, sc, arn)
			if err != nil {
				t.Fatal(err)
			}
			if len(records) != f.records+1 {
				t.Fatalf("%s: %d records", path, len(records))
			}
			for i, r := range records {
				want := engine
				if i < f.records {
					seq, _ := strconv.ParseUint(aws.ToString(r.Dynamodb.SequenceNumber), 10, 64)
					want = written(seq)
				}
				if got := aws.ToString(r.AwsRegion); got != want {
					t.Errorf("%s, engine in %s: record %d (%s) in %q, want %q", path, engine, i, aws.ToString(r.Dynamodb.SequenceNumber), got, want)
				}
			}
		}
	}
	check("local")
	// One run per region, in the stream's meta; records stay as compact.
	err := env.e.core.View(func(tx *bolt.Tx) error {
		streams := tx.Bucket(storage.BucketStreams)
		name, _ := streams.Cursor().First()
		log, err := storage.OpenStreamLog(streams.Bucket(name))
		if err != nil {
			return err
		}
		if len(log.Meta.Regions) != 2 || log.Meta.Regions[0].Region != "eu-west-3" || log.Meta.Regions[1].First != 6 {
			t.Errorf("regions %+v", log.Meta.Regions)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := env.e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := Open(env.dir, &Options{NoSync: true, TTLSweepInterval: -1, Region: "us-east-2", Now: func() time.Time { return *env.clock }})
	if err != nil {
		t.Fatal(err)
	}
	env.e, env.client = e, dynamodbClient(e)
	check("us-east-2")
	// Switching the stream off saves its meta again, regions included.
	_, err = env.client.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String("photos"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	if err != nil {
		t.Fatal(err)
	}
	check("us-east-2")
}
