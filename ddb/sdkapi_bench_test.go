package ddb

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// BenchmarkGetItemPaths reads one photo-like item by key through the
// in-process API (inprocess), through an SDK client over the in-memory HTTP
// transport (sdk), and straight from storage in a read transaction, the
// floor under both: the stored bytes copied out (raw) and decoded (decoded).
//
//	go test ./ddb/ -run '^$' -bench BenchmarkGetItemPaths -benchmem
func BenchmarkGetItemPaths(b *testing.B) {
	e, _ := openPhotosTable(b, nil)
	ctx := b.Context()
	api := e.API()
	key := item("PK", s("USER#alice"), "SK", s("PHOTO#alice#2026-11-23T10:00:00Z"))
	photo := item("PK", s("USER#alice"), "SK", s("PHOTO#alice#2026-11-23T10:00:00Z"), "username", s("alice"),
		"timestamp", s("2026-11-23T10:00:00Z"), "location", s("https://cdn.example.com/photos/alice/2026-11-23T10:00:00Z.jpg"),
		"reactions", &types.AttributeValueMemberM{Value: item("+1", n("3"), "smiley", n("1"), "heart", n("12"), "sunglasses", n("0"))})
	if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("photos"), Item: photo}); err != nil {
		b.Fatal(err)
	}
	in := &dynamodb.GetItemInput{TableName: aws.String("photos"), Key: key}
	check := func(b *testing.B, out *dynamodb.GetItemOutput, err error) {
		if err != nil || len(out.Item) != len(photo) {
			b.Fatalf("GetItem = %v, %v", out, err)
		}
	}
	b.Run("inprocess", func(b *testing.B) {
		for b.Loop() {
			out, err := api.GetItem(ctx, in)
			check(b, out, err)
		}
	})
	b.Run("sdk", func(b *testing.B) {
		client := e.Client()
		for b.Loop() {
			out, err := client.GetItem(ctx, in)
			check(b, out, err)
		}
	})
	k := attr.AppendKeyPair(nil, attr.S("USER#alice"), attr.S("PHOTO#alice#2026-11-23T10:00:00Z"))
	read := func(b *testing.B, use func(t *storage.TableTx, raw []byte) error) {
		for b.Loop() {
			err := e.core.View(func(tx *bolt.Tx) error {
				t, err := e.core.OpenTable(tx, "photos")
				if err != nil {
					return err
				}
				return use(t, t.Items.Get(k))
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("raw", func(b *testing.B) {
		read(b, func(_ *storage.TableTx, raw []byte) error {
			if len(append([]byte(nil), raw...)) == 0 {
				b.Fatal("no item")
			}
			return nil
		})
	})
	b.Run("decoded", func(b *testing.B) {
		read(b, func(t *storage.TableTx, raw []byte) error {
			it, err := t.M.DecodeStored(k, raw)
			if len(it) != len(photo) {
				b.Fatalf("decoded %v, %v", it, err)
			}
			return err
		})
	})
}

// BenchmarkQueryPaths reads a page of 20 photo-like items (those of
// BenchmarkGetItemPaths), newest first, with one Query through the
// in-process API (inprocess), and straight from storage in a read
// transaction, the floor under it: a cursor walked back over the 20 items,
// each one's stored bytes copied out (raw).
//
//	go test ./ddb/ -run '^$' -bench BenchmarkQueryPaths -benchmem
func BenchmarkQueryPaths(b *testing.B) {
	e, _ := openPhotosTable(b, nil)
	ctx := b.Context()
	api := e.API()
	const page = 20
	for i := range page {
		ts := fmt.Sprintf("2026-11-23T10:%02d:00Z", i)
		photo := item("PK", s("USER#alice"), "SK", s("PHOTO#alice#"+ts), "username", s("alice"),
			"timestamp", s(ts), "location", s("https://cdn.example.com/photos/alice/"+ts+".jpg"),
			"reactions", &types.AttributeValueMemberM{Value: item("+1", n("3"), "smiley", n("1"), "heart", n("12"), "sunglasses", n("0"))})
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("photos"), Item: photo}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("inprocess", func(b *testing.B) {
		in := &dynamodb.QueryInput{TableName: aws.String("photos"), KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :photo)"),
			ExpressionAttributeValues: item(":pk", s("USER#alice"), ":photo", s("PHOTO#")), ScanIndexForward: aws.Bool(false), Limit: aws.Int32(page)}
		for b.Loop() {
			out, err := api.Query(ctx, in)
			if err != nil || len(out.Items) != page {
				b.Fatalf("Query = %d items, %v", len(out.Items), err)
			}
		}
	})
	prefix := attr.AppendKey(nil, attr.S("USER#alice"))
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			var items [][]byte
			err := e.core.View(func(tx *bolt.Tx) error {
				t, err := e.core.OpenTable(tx, "photos")
				if err != nil {
					return err
				}
				c := t.Items.Cursor()
				c.Seek(append(slices.Clone(prefix), 0xFF))
				for k, v := c.Prev(); k != nil && bytes.HasPrefix(k, prefix) && len(items) < page; k, v = c.Prev() {
					items = append(items, append(slices.Clone(k), v...))
				}
				return nil
			})
			if err != nil || len(items) != page {
				b.Fatalf("read %d items, %v", len(items), err)
			}
		}
	})
}

// BenchmarkGetRecordsPaths reads a batch of 100 stream records (50 photo
// INSERTs, then a MODIFY of each, NEW_AND_OLD_IMAGES as quickphotos's
// table has it) with one GetRecords through the in-process Streams API
// (inprocess), through an SDK client over the in-memory HTTP transport (sdk),
// and through the engine's shared GetRecords alone, the floor under both:
// the records read and copied out of the transaction, not rendered (core).
// The -idle pair is the poll of a consumer that has caught up: a
// GetRecords that finds no record, what the feed and live consumers send
// every shard every 50 ms.
//
//	go test ./ddb/ -run '^$' -bench BenchmarkGetRecordsPaths -benchmem
func BenchmarkGetRecordsPaths(b *testing.B) {
	e, created := openPhotosTable(b, &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages})
	ctx := b.Context()
	api := e.API()
	const batch = 100
	for i := range batch {
		ts := fmt.Sprintf("2026-11-23T10:%02d:00Z", i%(batch/2))
		photo := item("PK", s("USER#alice"), "SK", s("PHOTO#alice#"+ts), "username", s("alice"),
			"timestamp", s(ts), "location", s("https://cdn.example.com/photos/alice/"+ts+".jpg"),
			"reactions", &types.AttributeValueMemberM{Value: item("+1", n(fmt.Sprint(i)), "smiley", n("1"), "heart", n("12"), "sunglasses", n("0"))})
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("photos"), Item: photo}); err != nil {
			b.Fatal(err)
		}
	}
	streams := e.StreamsAPI()
	arn := created.TableDescription.LatestStreamArn
	desc, err := streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: arn})
	if err != nil {
		b.Fatal(err)
	}
	// An iterator serves any number of reads for ShardIteratorLifetime.
	it, err := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn,
		ShardId: desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		b.Fatal(err)
	}
	in := &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator, Limit: aws.Int32(batch)}
	check := func(b *testing.B, out *dynamodbstreams.GetRecordsOutput, err error) {
		if err != nil {
			b.Fatal(err)
		}
		if len(out.Records) != batch {
			b.Fatalf("GetRecords = %d records, want %d", len(out.Records), batch)
		}
	}
	b.Run("inprocess", func(b *testing.B) {
		for b.Loop() {
			out, err := streams.GetRecords(ctx, in)
			check(b, out, err)
		}
	})
	b.Run("sdk", func(b *testing.B) {
		client := e.StreamsClient()
		for b.Loop() {
			out, err := client.GetRecords(ctx, in)
			check(b, out, err)
		}
	})
	latest, err := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: arn,
		ShardId: desc.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeLatest})
	if err != nil {
		b.Fatal(err)
	}
	idle := &dynamodbstreams.GetRecordsInput{ShardIterator: latest.ShardIterator}
	for _, c := range []struct {
		name string
		api  streamsAPI
	}{{"inprocess-idle", streams}, {"sdk-idle", e.StreamsClient()}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				out, err := c.api.GetRecords(ctx, idle)
				if err != nil || len(out.Records) != 0 {
					b.Fatalf("GetRecords = %v, %v", out, err)
				}
			}
		})
	}
	b.Run("core", func(b *testing.B) {
		x := &engine.GetRecordsInput{ShardIterator: *in.ShardIterator, Limit: aws.Int(batch)}
		for b.Loop() {
			p, err := e.core.GetRecords(ctx, x)
			if err != nil || len(p.Records) != batch {
				b.Fatalf("getRecords = %v, %v", p, err)
			}
		}
	})
}

// openPhotosTable opens an in-memory engine holding an empty "photos" table
// keyed PK/SK, with stream as its StreamSpecification (nil for none): the
// setup of the in-process benchmarks.
func openPhotosTable(b *testing.B, stream *types.StreamSpecification) (*Engine, *dynamodb.CreateTableOutput) {
	e, err := OpenMemory(&Options{TTLSweepInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	str := types.ScalarAttributeTypeS
	created, err := e.API().CreateTable(b.Context(), &dynamodb.CreateTableInput{TableName: aws.String("photos"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: str}, {AttributeName: aws.String("SK"), AttributeType: str}},
		StreamSpecification:  stream})
	if err != nil {
		b.Fatal(err)
	}
	return e, created
}
