package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// BenchmarkGetItemPaths reads one photo-like item by key through the
// in-process API (direct), through an SDK client over the in-memory HTTP
// transport (sdk), and straight from storage in a read transaction, the
// floor under both: the stored bytes copied out (raw) and decoded (decoded).
//
//	go test ./ddb/ -run '^$' -bench BenchmarkGetItemPaths -benchmem
func BenchmarkGetItemPaths(b *testing.B) {
	e, err := OpenMemory(&Options{TTLSweepInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	ctx := b.Context()
	api := e.API()
	str := types.ScalarAttributeTypeS
	if _, err := api.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("photos"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: str}, {AttributeName: aws.String("SK"), AttributeType: str}}}); err != nil {
		b.Fatal(err)
	}
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
	b.Run("direct", func(b *testing.B) {
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
	read := func(b *testing.B, use func(t *tableTx, raw []byte) error) {
		for b.Loop() {
			err := e.view(func(tx *bolt.Tx) error {
				t, err := e.openTable(tx, "photos")
				if err != nil {
					return err
				}
				return use(t, t.items.Get(k))
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("raw", func(b *testing.B) {
		read(b, func(_ *tableTx, raw []byte) error {
			if len(append([]byte(nil), raw...)) == 0 {
				b.Fatal("no item")
			}
			return nil
		})
	})
	b.Run("decoded", func(b *testing.B) {
		read(b, func(t *tableTx, raw []byte) error {
			it, err := t.m.decodeStored(k, raw)
			if len(it) != len(photo) {
				b.Fatalf("decoded %v, %v", it, err)
			}
			return err
		})
	})
}
