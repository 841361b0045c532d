package expr_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

func TestValues_UnmarshalJSON(t *testing.T) {
	tests := []struct{ in, msg string }{
		{`{":v":{"S":"x"},":w_1":{"N":"01"}}`, ""},
		{`{":v":{"S":"x"},":w":{"SS":[]}}`, "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :w"},
		{`{":v":{"SS":["a","a"]}}`, "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Input collection [a, a] contains duplicates. for key :v"},
		{`{":v":{"N":"x"},"y":{"S":"a"}}`, `ExpressionAttributeValues contains invalid key: Syntax error; key: "y"`},
		{`{":":{"S":"x"}}`, `ExpressionAttributeValues contains invalid key: Syntax error; key: ":"`},
	}
	for _, tt := range tests {
		var req struct{ ExpressionAttributeValues expr.Values }
		err := json.Unmarshal([]byte(`{"ExpressionAttributeValues":`+tt.in+`}`), &req)
		if got := message(t, err); got != tt.msg {
			t.Errorf("%s\n got: %s\nwant: %s", tt.in, got, tt.msg)
		}
		if err == nil && req.ExpressionAttributeValues[":w_1"].NumText() != "1" && req.ExpressionAttributeValues[":v"].S != "x" {
			t.Errorf("%s: decoded %v", tt.in, req.ExpressionAttributeValues)
		}
	}
}

func TestCheckParams(t *testing.T) {
	v := map[string]attr.Value{":v": attr.S("x")}
	tests := []struct {
		names  map[string]string
		values map[string]attr.Value
		msg    string
	}{
		{nil, nil, ""},
		{map[string]string{"#a": "a", "#B_2": "b"}, v, ""},
		{map[string]string{}, v, "ExpressionAttributeNames must not be empty"},
		{nil, map[string]attr.Value{}, "ExpressionAttributeValues must not be empty"},
		{map[string]string{"#a": ""}, v, "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"},
		{map[string]string{"#": "a"}, v, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#"`},
		{map[string]string{"#a-b": "a"}, v, `ExpressionAttributeNames contains invalid key: Syntax error; key: "#a-b"`},
		{map[string]string{"x": "a"}, v, `ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{nil, map[string]attr.Value{"v": attr.S("x")}, `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		// Names of 1 to 65,535 bytes, keys of up to 255 bytes, checked for length before syntax.
		{map[string]string{"#a": strings.Repeat("n", 65535), "#" + strings.Repeat("k", 254): "b"}, v, ""},
		{map[string]string{"#a": strings.Repeat("n", 65536)}, v,
			"ExpressionAttributeNames contains invalid value: Attribute name is too large, must be less than 65536 bytes for key #a"},
		{map[string]string{"#a": "", "#" + strings.Repeat("k", 255): "b"}, v,
			"ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 256"},
		{map[string]string{"#-" + strings.Repeat("k", 299): "b"}, v,
			"ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 301"},
		{nil, map[string]attr.Value{":v": attr.S("x"), ":" + strings.Repeat("k", 255): attr.S("y")},
			"ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"},
	}
	for _, tt := range tests {
		if got := message(t, expr.CheckParams(tt.names, tt.values)); got != tt.msg {
			t.Errorf("%v %v\n got: %s\nwant: %s", tt.names, tt.values, got, tt.msg)
		}
	}
}

// TestValuesOf_ReportsTheFirstInvalidValueInKeyOrder: whatever order the map
// is walked in, the error names the first invalid value by key, as DynamoDB
// does.
func TestValuesOf_ReportsTheFirstInvalidValueInKeyOrder(t *testing.T) {
	m := map[string]string{":ok": "x"}
	for i := range 10 {
		m[":k"+string(rune('9'-i))] = "" // :k0 … :k9, all invalid
	}
	conv := func(s string) (attr.Value, error) {
		if s == "" {
			return attr.Value{}, &attr.ValidationError{Message: "empty"}
		}
		return attr.S(s), nil
	}
	for range 20 {
		_, err := expr.ValuesOf(m, conv)
		if got, want := message(t, err), "ExpressionAttributeValues contains invalid value: empty for key :k0"; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
}
