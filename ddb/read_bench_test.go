package ddb

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// BenchmarkReadPaths measures the reads whose work depends on the stored
// forms (internal/storage/itemcodec.go), on the engine's handler alone (no SDK, no socket,
// so the engine's share is not lost in the client's): a GetItem, a 20-item
// Query page of the table, and a 20-item Query page of a GSI with
// projection ALL, whose entries are read through the table's items. The
// table holds 2,000 items of about 300 bytes, like ddb/bench's.
func BenchmarkReadPaths(b *testing.B) {
	e, err := Open(b.TempDir(), &Options{NoSync: true, TTLSweepInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	call := func(op, body string) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", wire.TargetPrefix+op)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", op, rec.Code, rec.Body)
		}
	}
	call("CreateTable", `{"TableName":"photos","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"},{"AttributeName":"day","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"ByDay","KeySchema":[{"AttributeName":"day","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	const users, photos = 50, 40
	for u := range users {
		for batch := 0; batch < photos; batch += 20 {
			var puts []string
			for n := batch; n < batch+20; n++ {
				puts = append(puts, fmt.Sprintf(`{"PutRequest":{"Item":{"PK":{"S":"USER#u%04d"},"SK":{"S":"PHOTO#u%04d#2024-05-01T12:%02d:00.000Z"},"day":{"S":"D%d"},
					"photoId":{"S":"p-%04d-%02d-0123456789abcdef"},"contentType":{"S":"image/jpeg"},"s3Key":{"S":"photos/u%04d/%02d.jpg"},
					"takenAt":{"S":"2024-05-01T12:%02d:00.000Z"},"caption":{"S":"A photo caption of moderate length, like people write"},
					"width":{"N":"4032"},"height":{"N":"3024"},"sizeBytes":{"N":"2345678"}}}}`, u, u, n, n%10, u, n, u, n, n))
			}
			call("BatchWriteItem", `{"RequestItems":{"photos":[`+strings.Join(puts, ",")+`]}}`)
		}
	}
	b.Run("GetItem", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			call("GetItem", fmt.Sprintf(`{"TableName":"photos","ConsistentRead":true,"Key":{"PK":{"S":"USER#u%04d"},"SK":{"S":"PHOTO#u%04d#2024-05-01T12:%02d:00.000Z"}}}`,
				i%users, i%users, i/users%photos))
		}
	})
	b.Run("Query", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			call("Query", fmt.Sprintf(`{"TableName":"photos","ConsistentRead":true,"Limit":20,"KeyConditionExpression":"PK = :pk","ExpressionAttributeValues":{":pk":{"S":"USER#u%04d"}}}`, i%users))
		}
	})
	b.Run("QueryIndexAll", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			call("Query", fmt.Sprintf(`{"TableName":"photos","IndexName":"ByDay","Limit":20,"KeyConditionExpression":"#d = :d","ExpressionAttributeNames":{"#d":"day"},"ExpressionAttributeValues":{":d":{"S":"D%d"}}}`, i%10))
		}
	})
}
