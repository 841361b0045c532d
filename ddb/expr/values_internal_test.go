package expr

import (
	"reflect"
	"strings"
	"testing"
)

// valuesCases are ExpressionAttributeValues on both sides of every check the
// one-pass decoding leaves to the long way.
var valuesCases = []string{
	`{":v":{"S":"x"},":w_1":{"N":"01"}}`,
	`null`,
	`{}`,
	`[]`,
	`"x"`,
	`{":v":{"S":"x"},":w":{"SS":[]}}`,
	`{":v":{"N":"x"},"y":{"S":"a"}}`,
	`{"y":{"S":"a"},":v":{"S":"x"}}`,
	`{":":{"S":"x"}}`,
	`{"":{"S":"x"}}`,
	`{":v":{"S":"1"},":v":{"N":"2"}}`,
	`{":v":{"SS":[]},":v":{"N":"2"}}`,
	`{":v":null}`,
	`{":v":{}}`,
	`{":v":{"S":"a","N":"1"}}`,
	`{":v":{"M":{"":{"S":"x"}}}}`,
	`{":v":{"L":[{"NULL":false}]}}`,
	`{":v":{"S":"x"}} trailing`,
	`{":v":{"S":"\u00e9\ud800"}}`,
	`{":\u0076":{"S":"x"}}`,
	nested(31),
	nested(32),
	nested(33),
}

// nested is a value of n nested maps.
func nested(n int) string {
	return `{":v":` + strings.Repeat(`{"M":{"a":`, n) + `{"S":"x"}` + strings.Repeat(`}}`, n) + `}`
}

// TestValues_OnePassAgreesWithTheLongWay: UnmarshalJSON's one pass gives the
// values and errors of decoding member by member.
func TestValues_OnePassAgreesWithTheLongWay(t *testing.T) {
	for _, in := range valuesCases {
		checkValuesAgree(t, []byte(in))
	}
}

// FuzzValues: the same, on any input.
func FuzzValues(f *testing.F) {
	for _, in := range valuesCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkValuesAgree(t, data) })
}

func checkValuesAgree(t *testing.T, data []byte) {
	t.Helper()
	var got Values
	err := got.UnmarshalJSON(data)
	want, wantErr := decodeValuesLongWay(data)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%s: error %v, the long way %v", data, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: %#v, the long way %#v", data, got, want)
	}
}
