package wire

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// BenchmarkDecodeRequests measures decoding the write requests of the
// loopback benchmarks from the JSON the SDK sends: what every request over
// HTTP pays before the engine does any work.
func BenchmarkDecodeRequests(b *testing.B) {
	const update = `{"ConditionExpression":"attribute_exists(PK)","ExpressionAttributeValues":{":one":{"N":"1"}},` +
		`"Key":{"PK":{"S":"USER#u7"},"SK":{"S":"PHOTO#2026-11-23T10:10:17Z"}},"TableName":"photos","UpdateExpression":"ADD viewCount :one"}`
	transact := `{"ClientRequestToken":"8c1a3d5e-0b7f-4e2a-9d61-3f5c2b7e8a90","TransactItems":[` +
		strings.Repeat(`{"Update":`+update+`},`, 2) + `{"Update":` + update + `}]}`
	b.Run("UpdateItem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in engine.UpdateItemInput
			if err := decode([]byte(update), &in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("TransactWriteItems3", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in engine.TransactWriteInput
			if err := decode([]byte(transact), &in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
