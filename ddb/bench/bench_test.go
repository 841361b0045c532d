// Package bench_test compares the ddb engine with DynamoDB Local and with
// bare bbolt on the four operations quickphotos leans on: GetItem, a 20-item
// Query page, PutItem and a 3-Put TransactWriteItems.
//
// BenchmarkPutItemParallel repeats PutItem from concurrent writers, to show
// write throughput (whether writers share commits). BenchmarkConcurrent
// (concurrent_test.go) runs GetItem, Query, a counter's UpdateItem and a
// TransactWriteItems of three from 16 clients, on the engine over loopback,
// on the transport floor and, for the writes, on the storage floors
// (storagefloor_test.go, the most an engine on bbolt can reach) and the log
// floor (logfloor_test.go, the most any durable engine can reach).
// BenchmarkFloorShare (floorshare_test.go) alternates the durable engine and
// its storage floor on the two writes, in rounds of one run, and reports the
// share of the floor's throughput the engine reaches.
//
// Every Benchmark<Op> has five sub-benchmarks:
//
//	engine-inprocess  the engine through Engine.Client (SDK over the in-memory transport)
//	engine-http       the engine behind httptest.NewServer on 127.0.0.1, SDK with BaseEndpoint
//	dynamodb-local    the official DynamoDB Local (-inMemory) on 127.0.0.1
//	dynamodb-local-disk  DynamoDB Local keeping its database on disk (-dbPath), as the engine does
//	bbolt-floor       the same reads and writes straight on a bbolt file: the floor
//
// The SDK targets each hold one table, created and filled once per
// test binary (lazily, on first use, outside the timer) with usersN users of
// photosPerUser photos of about 300 bytes (PK "USER#u", SK
// "PHOTO#u#timestamp"). DynamoDB Local is launched only when one of its
// sub-benchmarks runs; a missing jar fails the benchmark with the install
// hint. bbolt-floor opens a fresh file under b.TempDir() and fills it the
// same way. Writes use a new key on every iteration. The engine and the
// bbolt floor fsync every write transaction on commit (bbolt defaults,
// ddb.Options.NoSync false).
//
// Run with, for example:
//
//	go test -run '^$' -bench . -benchtime 2000x ./ddb/bench/
package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/internal/testkit/dynamodblocal"
)

const (
	tableName     = "photos"
	usersN        = 50
	photosPerUser = 40
	pageSize      = 20
	transactPuts  = 3
)

// baseTime is the timestamp of the first pre-populated photo; photo i of a
// user is taken i minutes later, new photos written by the benchmarks get
// timestamps far beyond the pre-populated ones.
var baseTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// writeSeq numbers the photos written by the write benchmarks, so every
// iteration of every target writes a key that exists nowhere yet.
var writeSeq atomic.Int64

func userID(u int) string { return fmt.Sprintf("u%04d", u) }

// photoKey returns the PK and SK of photo n of user u.
func photoKey(u, n int) (pk, sk string) {
	uid := userID(u)
	ts := baseTime.Add(time.Duration(n) * time.Minute).Format("2006-01-02T15:04:05.000Z")
	return "USER#" + uid, "PHOTO#" + uid + "#" + ts
}

// newPhotoKey returns a never-used key in the partition of user
// seq%usersN.
func newPhotoKey() (pk, sk string) {
	seq := writeSeq.Add(1)
	return photoKey(int(seq%usersN), photosPerUser+1_000_000+int(seq))
}

// prePopulated yields the photos every target is filled with, user by user.
func prePopulated() iter.Seq[photo] {
	return func(yield func(photo) bool) {
		for u := range usersN {
			for n := range photosPerUser {
				pk, sk := photoKey(u, n)
				if !yield(photo{pk, sk, n}) {
					return
				}
			}
		}
	}
}

// photo is a quickphotos-like item of about 300 bytes (DynamoDB item size:
// attribute names plus values).
type photo struct {
	pk, sk string
	n      int
}

func (p photo) fields() (s map[string]string, num map[string]string) {
	id := fmt.Sprintf("01HX%022d", p.n)
	uid := strings.TrimPrefix(p.pk, "USER#")
	s = map[string]string{
		"PK":          p.pk,
		"SK":          p.sk,
		"photoId":     id,
		"contentType": "image/jpeg",
		"s3Key":       "photos/" + uid + "/" + id + ".jpg",
		"takenAt":     p.sk[len(p.sk)-24:],
		"caption":     "Sunset over the harbour, taken from the old lighthouse on the north pier, #" + strconv.Itoa(p.n%1000),
	}
	num = map[string]string{
		"width":     "4032",
		"height":    "3024",
		"sizeBytes": strconv.Itoa(2_000_000 + p.n),
	}
	return s, num
}

// item returns the photo as an SDK item.
func (p photo) item() map[string]types.AttributeValue {
	s, num := p.fields()
	it := make(map[string]types.AttributeValue, len(s)+len(num))
	for k, v := range s {
		it[k] = &types.AttributeValueMemberS{Value: v}
	}
	for k, v := range num {
		it[k] = &types.AttributeValueMemberN{Value: v}
	}
	return it
}

// json returns the photo in DynamoDB JSON, the form the engine stores; the
// bbolt floor stores these bytes.
func (p photo) json() []byte {
	s, num := p.fields()
	m := make(map[string]map[string]string, len(s)+len(num))
	for k, v := range s {
		m[k] = map[string]string{"S": v}
	}
	for k, v := range num {
		m[k] = map[string]string{"N": v}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func keyOf(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk},
		"SK": &types.AttributeValueMemberS{Value: sk},
	}
}

// target is a lazily prepared DynamoDB endpoint holding the populated table.
type target struct {
	name  string
	setup func() (*dynamodb.Client, func(), error)

	once    sync.Once
	client  *dynamodb.Client
	cleanup func()
	err     error
}

// get prepares the target on first use (outside the caller's timer) and
// fails b if that is impossible.
func (t *target) get(b *testing.B) *dynamodb.Client {
	b.Helper()
	t.once.Do(func() {
		t.client, t.cleanup, t.err = t.setup()
		if t.err == nil {
			t.err = createAndFill(t.client)
		}
	})
	if t.err != nil {
		b.Fatalf("%s: %v", t.name, t.err)
	}
	return t.client
}

// openEngine opens a durable engine (fsync on commit) in a new temporary
// directory.
func openEngine() (*ddb.Engine, func(), error) {
	dir, err := os.MkdirTemp("", "ddb-bench-")
	if err != nil {
		return nil, nil, err
	}
	e, err := ddb.Open(dir, &ddb.Options{TTLSweepInterval: -1})
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	return e, func() { _ = e.Close(); _ = os.RemoveAll(dir) }, nil
}

// overHTTP serves h on a loopback port and returns a client of it (built by
// e) that uses the SDK's default HTTP client, as for DynamoDB Local, keeping
// enough idle connections for BenchmarkConcurrent's clients: with the
// default 10 per host, the other clients would open a new connection for
// every request.
func overHTTP(h http.Handler, e *ddb.Engine) (*dynamodb.Client, func()) {
	srv := httptest.NewServer(h)
	c := e.Client(sameRegion, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String(srv.URL)
		o.HTTPClient = awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
			t.MaxIdleConnsPerHost = 2 * concurrentClients
		})
	})
	return c, srv.Close
}

// replay is the server of the http-floor target: the first request of each
// operation goes to next (the engine) and its answer is recorded; later
// requests of that operation are read in full and answered with the
// recording. What remains is the SDK client, loopback HTTP both ways and
// net/http's server: the part of engine-http no engine can make faster.
type replay struct {
	next    http.Handler
	mu      sync.Mutex
	answers map[string]recorded // by X-Amz-Target
	// work, if set, runs for each answer replayed from a recording, after
	// the request is read and before the answer is written: the storage
	// floors' reads and writes (storagefloor_test.go), the log floor's
	// appends (logfloor_test.go).
	work func(op string) error
}

// setupOps are the operations createAndFill uses, which replay always
// passes on: the table must really hold the items the benchmarks read and
// update, or a conditional update's first, recorded answer would be a
// failure.
var setupOps = map[string]bool{
	"DynamoDB_20120810.CreateTable":    true,
	"DynamoDB_20120810.BatchWriteItem": true,
}

// recorded is one recorded answer.
type recorded struct {
	header http.Header
	status int
	body   []byte
}

func (p *replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op := r.Header.Get("X-Amz-Target")
	if setupOps[op] {
		p.next.ServeHTTP(w, r)
		return
	}
	p.mu.Lock()
	a, ok := p.answers[op]
	p.mu.Unlock()
	if !ok {
		rec := httptest.NewRecorder()
		p.next.ServeHTTP(rec, r)
		a = recorded{header: rec.Header(), status: rec.Code, body: rec.Body.Bytes()}
		p.mu.Lock()
		p.answers[op] = a
		p.mu.Unlock()
	} else if _, err := io.Copy(io.Discard, r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	} else if p.work != nil {
		if err := p.work(op); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	for k, v := range a.header {
		w.Header()[k] = v
	}
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body)
}

// sameRegion gives the engine's clients DynamoDB Local's region. The
// engine accepts any region, but the SDK's endpoint resolver costs more for a
// region outside its partition table (such as "local": it compiles each
// partition's region regexp on every request), and that client-side cost
// must not be charged to the engine.
func sameRegion(o *dynamodb.Options) { o.Region = dynamodblocal.Region }

var targets = []*target{
	{name: "engine-inprocess", setup: func() (*dynamodb.Client, func(), error) {
		e, closeFn, err := openEngine()
		if err != nil {
			return nil, nil, err
		}
		return e.Client(sameRegion), closeFn, nil
	}},
	{name: "engine-http", setup: func() (*dynamodb.Client, func(), error) {
		e, closeFn, err := openEngine()
		if err != nil {
			return nil, nil, err
		}
		c, stop := overHTTP(e, e)
		return c, func() { stop(); closeFn() }, nil
	}},
	// The like-for-like target for dynamodb-local (-inMemory): nothing is
	// fsynced or kept, as there.
	{name: "engine-http-memory", setup: func() (*dynamodb.Client, func(), error) {
		e, err := ddb.OpenMemory(&ddb.Options{TTLSweepInterval: -1})
		if err != nil {
			return nil, nil, err
		}
		c, stop := overHTTP(e, e)
		return c, func() { stop(); _ = e.Close() }, nil
	}},
	// The transport floor: everything engine-http does except the engine's
	// own work, which replay answers from a recording (see replay).
	{name: "http-floor", setup: func() (*dynamodb.Client, func(), error) {
		e, err := ddb.OpenMemory(&ddb.Options{TTLSweepInterval: -1})
		if err != nil {
			return nil, nil, err
		}
		c, stop := overHTTP(&replay{next: e, answers: map[string]recorded{}}, e)
		return c, func() { stop(); _ = e.Close() }, nil
	}},
	{name: "dynamodb-local", setup: func() (*dynamodb.Client, func(), error) {
		in, err := dynamodblocal.Launch()
		if err != nil {
			return nil, nil, fmt.Errorf("cannot start DynamoDB Local: %w (install: %s)", err, dynamodblocal.InstallHint)
		}
		return in.Client(), func() { _ = in.Stop() }, nil
	}},
	{name: "dynamodb-local-disk", setup: func() (*dynamodb.Client, func(), error) {
		in, err := dynamodblocal.Config{OnDisk: true}.Launch()
		if err != nil {
			return nil, nil, fmt.Errorf("cannot start DynamoDB Local: %w (install: %s)", err, dynamodblocal.InstallHint)
		}
		return in.Client(), func() { _ = in.Stop() }, nil
	}},
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, t := range slices.Concat(targets, storageFloorTargets) {
		if t.cleanup != nil {
			t.cleanup()
		}
	}
	os.Exit(code)
}

// createAndFill creates the PK/SK table and writes usersN*photosPerUser
// photos with BatchWriteItem.
func createAndFill(c *dynamodb.Client) error {
	ctx := context.Background()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(tableName),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		return fmt.Errorf("CreateTable: %w", err)
	}
	var batch []types.WriteRequest
	flush := func() error {
		req := map[string][]types.WriteRequest{tableName: batch}
		for len(req) > 0 {
			out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: req})
			if err != nil {
				return fmt.Errorf("BatchWriteItem: %w", err)
			}
			req = out.UnprocessedItems
		}
		batch = batch[:0]
		return nil
	}
	for p := range prePopulated() {
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: p.item()}})
		if len(batch) == 25 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if len(batch) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	return warmUp(c)
}

// warmUp reads every pre-populated item once and every user's first page
// twice, so connection pools, caches and DynamoDB Local's JIT are warm
// before any timer starts.
func warmUp(c *dynamodb.Client) error {
	ctx := context.Background()
	for p := range prePopulated() {
		if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tableName), Key: keyOf(p.pk, p.sk)}); err != nil {
			return fmt.Errorf("warm-up GetItem: %w", err)
		}
	}
	for i := range 2 * usersN {
		_, err := c.Query(ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(tableName),
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "USER#" + userID(i%usersN)}},
			Limit:                     aws.Int32(pageSize),
		})
		if err != nil {
			return fmt.Errorf("warm-up Query: %w", err)
		}
	}
	return nil
}

// runTargets runs sdk on each SDK target and floor as "bbolt-floor".
func runTargets(b *testing.B, sdk func(b *testing.B, c *dynamodb.Client), floor func(b *testing.B, db *bolt.DB, bucket []byte)) {
	for _, t := range targets {
		b.Run(t.name, func(b *testing.B) {
			c := t.get(b)
			b.ReportAllocs()
			b.ResetTimer()
			stop := reportCPU(b)
			sdk(b, c)
			stop()
		})
	}
	b.Run("bbolt-floor", func(b *testing.B) {
		db, bucket := openFloor(b)
		b.ReportAllocs()
		b.ResetTimer()
		stop := reportCPU(b)
		floor(b, db, bucket)
		stop()
	})
}

// floorKey is the bbolt floor's key for a photo: PK, a zero byte, SK, so a
// partition is one contiguous, SK-ordered range.
func floorKey(pk, sk string) []byte {
	k := make([]byte, 0, len(pk)+1+len(sk))
	k = append(k, pk...)
	k = append(k, 0)
	return append(k, sk...)
}

// openFloor opens a fresh bbolt file (default options: fsync on commit) under
// b.TempDir() and fills one bucket with the same photos, as DynamoDB JSON.
func openFloor(b *testing.B) (*bolt.DB, []byte) {
	b.Helper()
	db, err := bolt.Open(filepath.Join(b.TempDir(), "floor.bolt"), 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	if err := fillFloor(db); err != nil {
		b.Fatal(err)
	}
	return db, floorBucket
}

// floorBucket is the bucket of a bbolt floor's photos.
var floorBucket = []byte("items")

// fillFloor creates floorBucket in db and puts the pre-populated photos in it,
// as DynamoDB JSON under their floorKey.
func fillFloor(db *bolt.DB) error {
	return db.Update(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucket(floorBucket)
		if err != nil {
			return err
		}
		for p := range prePopulated() {
			if err := bk.Put(floorKey(p.pk, p.sk), p.json()); err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkGetItem measures one strongly consistent GetItem of an existing
// ~300-byte item, cycling over all pre-populated items. The floor is one
// bucket Get in a bbolt read transaction.
func BenchmarkGetItem(b *testing.B) {
	ctx := context.Background()
	runTargets(b, func(b *testing.B, c *dynamodb.Client) {
		for i := 0; b.Loop(); i++ {
			pk, sk := photoKey(i%usersN, (i/usersN)%photosPerUser)
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{
				TableName:      aws.String(tableName),
				Key:            keyOf(pk, sk),
				ConsistentRead: aws.Bool(true),
			})
			if err != nil {
				b.Fatal(err)
			}
			if out.Item == nil {
				b.Fatalf("GetItem %s %s: no item", pk, sk)
			}
		}
	}, func(b *testing.B, db *bolt.DB, bucket []byte) {
		for i := 0; b.Loop(); i++ {
			pk, sk := photoKey(i%usersN, (i/usersN)%photosPerUser)
			k := floorKey(pk, sk)
			err := db.View(func(tx *bolt.Tx) error {
				if tx.Bucket(bucket).Get(k) == nil {
					return fmt.Errorf("get %q: no value", k)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// photoPageQuery is the Query of BenchmarkQuery and BenchmarkConcurrent:
// the first page of user uid's photos.
func photoPageQuery(uid string) *dynamodb.QueryInput {
	return &dynamodb.QueryInput{
		TableName:              aws.String(tableName),
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: "USER#" + uid},
			":sk": &types.AttributeValueMemberS{Value: "PHOTO#" + uid + "#"},
		},
		Limit:          aws.Int32(pageSize),
		ConsistentRead: aws.Bool(true),
	}
}

// BenchmarkQuery measures a Query for the first page (Limit 20) of one
// user's photos, KeyConditionExpression "PK = :pk AND begins_with(SK,
// :sk)", cycling over users. The floor is a bbolt read transaction seeking
// to the partition and reading 20 key/value pairs with a cursor.
func BenchmarkQuery(b *testing.B) {
	ctx := context.Background()
	runTargets(b, func(b *testing.B, c *dynamodb.Client) {
		for i := 0; b.Loop(); i++ {
			uid := userID(i % usersN)
			out, err := c.Query(ctx, photoPageQuery(uid))
			if err != nil {
				b.Fatal(err)
			}
			if len(out.Items) != pageSize {
				b.Fatalf("Query %s: %d items, want %d", uid, len(out.Items), pageSize)
			}
		}
	}, func(b *testing.B, db *bolt.DB, bucket []byte) {
		for i := 0; b.Loop(); i++ {
			uid := userID(i % usersN)
			prefix := floorKey("USER#"+uid, "PHOTO#"+uid+"#")
			err := db.View(func(tx *bolt.Tx) error {
				cur := tx.Bucket(bucket).Cursor()
				n, size := 0, 0
				for k, v := cur.Seek(prefix); k != nil && n < pageSize && strings.HasPrefix(string(k), string(prefix)); k, v = cur.Next() {
					n++
					size += len(v)
				}
				if n != pageSize || size == 0 {
					return fmt.Errorf("scan %s: %d pairs, want %d", uid, n, pageSize)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPutItem measures one unconditional PutItem of a new ~300-byte
// item (a new key every iteration, spread over the users' partitions). The
// floor is one bucket Put in one bbolt Update transaction (fsynced).
func BenchmarkPutItem(b *testing.B) {
	ctx := context.Background()
	runTargets(b, func(b *testing.B, c *dynamodb.Client) {
		for b.Loop() {
			pk, sk := newPhotoKey()
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{
				TableName: aws.String(tableName),
				Item:      photo{pk, sk, int(writeSeq.Load())}.item(),
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}, func(b *testing.B, db *bolt.DB, bucket []byte) {
		for b.Loop() {
			pk, sk := newPhotoKey()
			v := photo{pk, sk, int(writeSeq.Load())}.json()
			err := db.Update(func(tx *bolt.Tx) error {
				return tx.Bucket(bucket).Put(floorKey(pk, sk), v)
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// parallelWriters is the number of concurrent writers per GOMAXPROCS in
// BenchmarkPutItemParallel (b.SetParallelism): 8 on the 2-core benchmark
// machine, below the SDK HTTP client's 10 idle connections per host.
const parallelWriters = 4

// BenchmarkPutItemParallel measures PutItem throughput with concurrent
// writers (b.RunParallel): ns/op is wall time divided by the number of
// PutItems, so it shows whether writers share fsyncs. The floor runs one
// bbolt Update per Put from the same number of goroutines.
func BenchmarkPutItemParallel(b *testing.B) {
	ctx := context.Background()
	runTargets(b, func(b *testing.B, c *dynamodb.Client) {
		b.SetParallelism(parallelWriters)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				pk, sk := newPhotoKey()
				_, err := c.PutItem(ctx, &dynamodb.PutItemInput{
					TableName: aws.String(tableName),
					Item:      photo{pk, sk, int(writeSeq.Load())}.item(),
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}, func(b *testing.B, db *bolt.DB, bucket []byte) {
		b.SetParallelism(parallelWriters)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				pk, sk := newPhotoKey()
				v := photo{pk, sk, int(writeSeq.Load())}.json()
				err := db.Update(func(tx *bolt.Tx) error {
					return tx.Bucket(bucket).Put(floorKey(pk, sk), v)
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkTransactWriteItems measures a TransactWriteItems of three Put
// actions of new ~300-byte items (the SDK fills in a ClientRequestToken, as
// it does for every application). The floor is three Puts in one bbolt
// Update transaction (fsynced once).
func BenchmarkTransactWriteItems(b *testing.B) {
	ctx := context.Background()
	runTargets(b, func(b *testing.B, c *dynamodb.Client) {
		for b.Loop() {
			items := make([]types.TransactWriteItem, transactPuts)
			for j := range items {
				pk, sk := newPhotoKey()
				items[j] = types.TransactWriteItem{Put: &types.Put{
					TableName: aws.String(tableName),
					Item:      photo{pk, sk, int(writeSeq.Load())}.item(),
				}}
			}
			if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
				b.Fatal(err)
			}
		}
	}, func(b *testing.B, db *bolt.DB, bucket []byte) {
		for b.Loop() {
			var keys, vals [transactPuts][]byte
			for j := range transactPuts {
				pk, sk := newPhotoKey()
				keys[j], vals[j] = floorKey(pk, sk), photo{pk, sk, int(writeSeq.Load())}.json()
			}
			err := db.Update(func(tx *bolt.Tx) error {
				bk := tx.Bucket(bucket)
				for j := range transactPuts {
					if err := bk.Put(keys[j], vals[j]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestItemSize checks that the benchmark items are about 300 bytes by
// DynamoDB's size rule (attribute names plus values; numbers approximated
// by their digits), so the numbers above describe realistic items.
func TestItemSize(t *testing.T) {
	pk, sk := photoKey(usersN-1, photosPerUser-1)
	s, num := photo{pk, sk, 2_000_000}.fields()
	size := 0
	for k, v := range s {
		size += len(k) + len(v)
	}
	for k, v := range num {
		size += len(k) + len(v)
	}
	if size < 270 || size > 340 {
		t.Fatalf("item size %d bytes, want about 300", size)
	}
	t.Logf("item size %d bytes, DynamoDB JSON %d bytes", size, len(photo{pk, sk, 2_000_000}.json()))
}
