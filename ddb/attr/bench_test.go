package attr_test

import (
	"encoding/json"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

var benchItem = []byte(`{"PK":{"S":"USER#alice"},"SK":{"S":"PHOTO#alice#2019-04-21T14:01:02"},"username":{"S":"alice"},
"timestamp":{"S":"2019-04-21T14:01:02"},"location":{"S":"https://cdn.example.com/photos/alice/1234.jpg"},
"reactions":{"M":{"+1":{"N":"5"},"smiley":{"N":"12"},"heart":{"N":"0"},"sunglasses":{"N":"3"}}},
"tags":{"SS":["beach","sunset"]},"views":{"N":"1234567"}}`)

func BenchmarkDecodeItem(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := attr.DecodeItem(benchItem); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeItem(b *testing.B) {
	it, _ := attr.DecodeItem(benchItem)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(it); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendKey(b *testing.B) {
	pk, sk := attr.S("USER#alice"), attr.N("-12345.6789")
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = attr.AppendKeyPair(buf[:0], pk, sk)
	}
}
