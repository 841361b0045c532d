package attr_test

import (
	"encoding/json"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// FuzzValueJSON checks that decoding never panics and that every value it
// accepts survives an encode/decode round trip unchanged.
func FuzzValueJSON(f *testing.F) {
	for _, s := range []string{
		`{"S":"x"}`, `{"N":"-1.50e3"}`, `{"B":"AQI="}`, `{"BOOL":true}`, `{"NULL":true}`,
		`{"SS":["a","b"]}`, `{"NS":["1","2"]}`, `{"BS":["AQ=="]}`, `{"L":[{"S":"a"}]}`,
		`{"M":{"k":{"N":"1"}}}`, `{"S":"a","N":"1"}`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v attr.Value
		if err := json.Unmarshal(data, &v); err != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var w attr.Value
		if err := json.Unmarshal(out, &w); err != nil {
			t.Fatalf("re-decode %s: %v", out, err)
		}
		if !attr.Equal(v, w) {
			t.Fatalf("round trip changed %s into %s", v, w)
		}
		attr.ValueSize(v)
		if v.Type == attr.TypeS || v.Type == attr.TypeN || v.Type == attr.TypeB {
			back, rest, err := attr.DecodeKey(attr.AppendKey(nil, v), v.Type)
			if err != nil || len(rest) != 0 || !attr.Equal(back, v) {
				t.Fatalf("key round trip of %s: %v %v", v, back, err)
			}
		}
	})
}
