package ddb

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// BenchmarkWritePaths measures the engine's own work for the writes of a counter, in memory
// and one writer at a time, so that no fsync and no transport hide it: an UpdateItem adding
// to a photo's counter if the photo exists, a TransactWriteItems of three such updates, without
// and with a ClientRequestToken as the SDK sends one (all through the in-process API), and the
// floor under them, the photo's stored bytes read and
// written back in one bbolt transaction (raw).
//
//	go test ./ddb/ -run '^$' -bench BenchmarkWritePaths -benchmem
func BenchmarkWritePaths(b *testing.B) {
	e, _ := openPhotosTable(b, nil)
	ctx := b.Context()
	api := e.API()
	const photos = 300
	key := func(i int) map[string]types.AttributeValue {
		ts := "2026-11-23T10:" + strconv.Itoa(10+i/60) + ":" + strconv.Itoa(10+i%60) + "Z"
		return item("PK", s("USER#u"+strconv.Itoa(i%30)), "SK", s("PHOTO#"+ts))
	}
	for i := range photos {
		it := key(i)
		it["url"] = s("https://cdn.example.com/photos/" + strconv.Itoa(i) + ".jpg")
		it["reactions"] = &types.AttributeValueMemberM{Value: item("heart", n("12"), "smiley", n("1"))}
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("photos"), Item: it}); err != nil {
			b.Fatal(err)
		}
	}
	update := func(i int) *dynamodb.UpdateItemInput {
		return &dynamodb.UpdateItemInput{TableName: aws.String("photos"), Key: key(i % photos),
			UpdateExpression: aws.String("ADD reactions.heart :one"), ConditionExpression: aws.String("attribute_exists(PK)"),
			ExpressionAttributeValues: item(":one", n("1"))}
	}
	b.Run("UpdateItem", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := api.UpdateItem(ctx, update(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, token := range []bool{false, true} {
		name := "TransactWriteItems3"
		if token {
			name += "Token"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				items := make([]types.TransactWriteItem, 3)
				for j := range items {
					u := update(3*i + j)
					items[j] = types.TransactWriteItem{Update: &types.Update{TableName: u.TableName, Key: u.Key,
						UpdateExpression: u.UpdateExpression, ConditionExpression: u.ConditionExpression, ExpressionAttributeValues: u.ExpressionAttributeValues}}
				}
				in := &dynamodb.TransactWriteItemsInput{TransactItems: items}
				if token {
					in.ClientRequestToken = aws.String("write-paths-" + strconv.Itoa(i))
				}
				if _, err := api.TransactWriteItems(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("raw", func(b *testing.B) {
		keys := make([][]byte, photos)
		for i := range keys {
			k := key(i)
			keys[i] = attr.AppendKeyPair(nil, attr.S(k["PK"].(*types.AttributeValueMemberS).Value), attr.S(k["SK"].(*types.AttributeValueMemberS).Value))
		}
		for i := 0; b.Loop(); i++ {
			err := e.core.Update(func(tx *bolt.Tx) error {
				t, err := e.core.OpenTable(tx, "photos")
				if err != nil {
					return err
				}
				k := keys[i%photos]
				v := t.Items.Get(k)
				if v == nil {
					b.Fatal("no item")
				}
				return t.Items.Put(k, append([]byte(nil), v...))
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}
