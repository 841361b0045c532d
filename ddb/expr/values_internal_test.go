package expr

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
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

// TestValues_OnePassAgreesWithTheLongWay: what UnmarshalJSON's one pass
// accepts, the long way accepts with the same values, or refuses for the
// same key. (What the one pass refuses goes the long way itself.)
func TestValues_OnePassAgreesWithTheLongWay(t *testing.T) {
	accepted := 0
	for _, in := range valuesCases {
		if checkValuesAgree(t, []byte(in)) {
			accepted++
		}
	}
	// Enough cases reach the comparison for it to mean something.
	if accepted < 8 {
		t.Errorf("the one pass accepted %d cases, want at least 8", accepted)
	}
}

// FuzzValues: the same, on any input.
func FuzzValues(f *testing.F) {
	for _, in := range valuesCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkValuesAgree(t, data) })
}

// checkValuesAgree compares UnmarshalJSON with the long way when the one
// pass accepts data, and reports whether it did.
func checkValuesAgree(t *testing.T, data []byte) bool {
	t.Helper()
	if _, err := attr.DecodeItem(data); err != nil {
		return false
	}
	var got Values
	err := got.UnmarshalJSON(data)
	want, wantErr := decodeValuesLongWay(data)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%s: error %v, the long way %v", data, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: %#v, the long way %#v", data, got, want)
	}
	return true
}
