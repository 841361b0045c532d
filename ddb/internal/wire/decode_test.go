package wire

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	gojson "github.com/goccy/go-json"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// requestBodies are well-formed and malformed request bodies of the shapes
// the engine decodes most: the seeds of the decoding fuzz targets.
var requestBodies = []string{
	``,
	`{}`,
	`null`,
	`{"TableName":"photos","Key":{"PK":{"S":"USER#a"},"SK":{"S":"PHOTO#a#1"}},"ConsistentRead":true,"ProjectionExpression":"#n, likes","ExpressionAttributeNames":{"#n":"name"}}`,
	`{"TableName":"t","Item":{"s":{"S":"é\u00e9\ud83d\ude00"},"n":{"N":"-1.5E+10"},"b":{"B":"AAEC"},"ss":{"SS":["a","b"]},"ns":{"NS":["1","2"]},"bs":{"BS":["AA=="]},"m":{"M":{"x":{"NULL":true}}},"l":{"L":[{"BOOL":false},{"S":""}]}},"ConditionExpression":"attribute_not_exists(PK)","ReturnValues":"ALL_OLD"}`,
	`{"TableName":"photos","Key":{"PK":{"S":"p"}},"UpdateExpression":"SET a = :a ADD c :one REMOVE d","ExpressionAttributeValues":{":a":{"S":"x"},":one":{"N":"1"}},"ReturnValues":"UPDATED_NEW","ReturnConsumedCapacity":"TOTAL"}`,
	`{"TableName":"photos","IndexName":"InvertedIndex","KeyConditionExpression":"SK = :sk AND begins_with(PK, :p)","ExpressionAttributeValues":{":sk":{"S":"x"},":p":{"S":"USER#"}},"Limit":20,"ScanIndexForward":false,"ExclusiveStartKey":{"PK":{"S":"a"},"SK":{"S":"b"}}}`,
	`{"TransactItems":[{"Put":{"TableName":"t","Item":{"PK":{"S":"a"}}}},{"Update":{"TableName":"t","Key":{"PK":{"S":"b"}},"UpdateExpression":"ADD c :one","ConditionExpression":"attribute_exists(PK)","ExpressionAttributeValues":{":one":{"N":"1"}}}},{"Delete":{"TableName":"t","Key":{"PK":{"S":"c"}}}},{"ConditionCheck":{"TableName":"t","Key":{"PK":{"S":"d"}},"ConditionExpression":"attribute_exists(PK)"}}],"ClientRequestToken":"tok"}`,
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}},{"DeleteRequest":{"Key":{"PK":{"S":"b"}}}}]}}`,
	`{"RequestItems":{"t":{"Keys":[{"PK":{"S":"a"}}],"ProjectionExpression":"PK"}}}`,
	`{"tablename":"lower","KEY":{"PK":{"S":"a"}}}`,
	`{"TableName":"a","TableName":"b"}`,
	`{"TableName":1}`,
	`{"TableName":"t","Limit":1.5}`,
	`{"TableName":"t","Item":{"a":{"S":"x","N":"1"}}}`,
	`{"TableName":"t","Item":{"a":{}}}`,
	`{"TableName":"t"} trailing`,
	`{"TableName":"t",}`,
	"{\"TableName\":\"\xff\xfe\"}",
	`{"TableName":"\u0000"}`,
	`[1,2,3]`,
	`{"TableName":"t","Key":null,"Item":null}`,
}

// requestShapes are the engine's request types go-json decodes.
var requestShapes = []func() any{
	func() any { return new(engine.GetItemInput) },
	func() any { return new(engine.PutItemInput) },
	func() any { return new(engine.UpdateItemInput) },
	func() any { return new(engine.DeleteItemInput) },
	func() any { return new(engine.QueryInput) },
	func() any { return new(engine.ScanInput) },
	func() any { return new(engine.TransactWriteInput) },
	func() any { return new(engine.TransactGetInput) },
	func() any { return new(engine.BatchGetInput) },
	func() any { return new(engine.BatchWriteInput) },
}

// FuzzDecodeMatchesEncodingJSON checks decode's fast path: whatever go-json
// accepts, encoding/json (which the engine used before, and which still
// words the errors) accepts as the same request.
func FuzzDecodeMatchesEncodingJSON(f *testing.F) {
	for _, b := range requestBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, shape := range requestShapes {
			fast, std := shape(), shape()
			if gojson.Unmarshal(body, fast) != nil {
				continue // decode asks encoding/json
			}
			if err := json.Unmarshal(body, std); err != nil {
				t.Fatalf("%T: go-json accepts %q, encoding/json refuses it: %v", fast, body, err)
			}
			if !reflect.DeepEqual(fast, std) {
				t.Fatalf("%T of %q:\ngo-json       %+v\nencoding/json %+v", fast, body, fast, std)
			}
		}
	})
}

// TestDecode_RefusedRequestKeepsItsMessage checks that a request go-json
// refuses gets encoding/json's wording, as before go-json.
func TestDecode_RefusedRequestKeepsItsMessage(t *testing.T) {
	for _, body := range []string{`{"TableName":1}`, `{"TableName":"t",}`, `{"TableName":"t","Limit":1.5}`} {
		var in engine.QueryInput
		var std engine.QueryInput
		want := json.Unmarshal([]byte(body), &std)
		err := decode([]byte(body), &in)
		var de *engine.Error
		if !errors.As(err, &de) || de.Type != engine.TypeSerialization || de.Message != want.Error() {
			t.Errorf("decode(%s) = %v, want SerializationException %q", body, err, want)
		}
	}
}
