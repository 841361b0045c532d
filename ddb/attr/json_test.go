package attr_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

func TestValue_JSONRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"S":"x"}`, `{"S":"x"}`},
		{`{"S":""}`, `{"S":""}`},
		{`{"S":"a\"b\\c\n\u0001é😀"}`, `{"S":"a\"b\\c\n\u0001é😀"}`},
		{`{"N":"1.50"}`, `{"N":"1.5"}`},
		{`{"N":"-0"}`, `{"N":"0"}`},
		{`{"N":"1e2"}`, `{"N":"100"}`},
		{`{"B":"AAEC"}`, `{"B":"AAEC"}`},
		{`{"B":""}`, `{"B":""}`},
		{`{"BOOL":true}`, `{"BOOL":true}`},
		{`{"BOOL":false}`, `{"BOOL":false}`},
		{`{"NULL":true}`, `{"NULL":true}`},
		{`{"SS":["a","b"]}`, `{"SS":["a","b"]}`},
		{`{"SS":[""]}`, `{"SS":[""]}`},
		{`{"NS":["1","01.50"]}`, `{"NS":["1","1.5"]}`},
		{`{"BS":["AA==","AQ=="]}`, `{"BS":["AA==","AQ=="]}`},
		{`{"L":[]}`, `{"L":[]}`},
		{`{"L":[{"S":"a"},{"N":"2"}]}`, `{"L":[{"S":"a"},{"N":"2"}]}`},
		{`{"M":{}}`, `{"M":{}}`},
		{`{"M":{"b":{"NULL":true},"a":{"M":{"x":{"L":[{"BOOL":true}]}}}}}`, `{"M":{"a":{"M":{"x":{"L":[{"BOOL":true}]}}},"b":{"NULL":true}}}`},
		{`{"S":"x","N":null}`, `{"S":"x"}`},
	}
	for _, tt := range tests {
		var v attr.Value
		if err := json.Unmarshal([]byte(tt.in), &v); err != nil {
			t.Errorf("Unmarshal(%s): %v", tt.in, err)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil || string(out) != tt.want {
			t.Errorf("Marshal(Unmarshal(%s)) = %s, %v; want %s", tt.in, out, err, tt.want)
		}
	}
}

func TestValue_UnmarshalJSON_ValidationErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{`{}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
		{`{"S":null}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
		{`{"S":"a","N":"1"}`, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"},
		{`{"NULL":false}`, "One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{`{"SS":[]}`, "One or more parameter values were invalid: An string set  may not be empty"},
		{`{"NS":[]}`, "One or more parameter values were invalid: An number set  may not be empty"},
		{`{"BS":[]}`, "One or more parameter values were invalid: Binary sets should not be empty"},
		{`{"SS":["a","a"]}`, "One or more parameter values were invalid: Input collection [a, a] contains duplicates."},
		{`{"NS":["1","1.0"]}`, "Input collection contains duplicates"},
		{`{"BS":["AA==","AA=="]}`, "One or more parameter values were invalid: Input collection of type BS contains duplicates."},
		{`{"N":"x"}`, "A value provided cannot be converted into a number"},
		{`{"N":""}`, "A value provided cannot be converted into a number"},
		{`{"NS":["1","x"]}`, "A value provided cannot be converted into a number"},
		{`{"N":"1E+126"}`, "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{`{"L":[{}]}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
		{`{"M":{"a":{"NULL":false}}}`, "One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{`{"M":{"":{"S":"x"}}}`, "Empty attribute name"},
		{`{"M":{"` + strings.Repeat("n", 65536) + `":{"S":"x"}}}`, "Attribute name is too large, must be less than 65536 bytes"},
		{`{"L":[{"M":{"` + strings.Repeat("n", 100_000) + `":{"S":"x"}}}]}`, "Attribute name is too large, must be less than 65536 bytes"},
	}
	for _, tt := range tests {
		var v attr.Value
		err := json.Unmarshal([]byte(tt.in), &v)
		var ve *attr.ValidationError
		if !errors.As(err, &ve) || ve.Message != tt.msg {
			t.Errorf("Unmarshal(%s) error = %v, want %q", tt.in, err, tt.msg)
		}
	}
}

func TestValue_UnmarshalJSON_SerializationErrors(t *testing.T) {
	for _, in := range []string{`{"S":1}`, `{"B":"!!"}`, `{"BOOL":"true"}`, `[]`, `{"L":{}}`, `{`} {
		var v attr.Value
		err := json.Unmarshal([]byte(in), &v)
		var ve *attr.ValidationError
		if err == nil || errors.As(err, &ve) {
			t.Errorf("Unmarshal(%s) error = %v, want a non-validation error", in, err)
		}
	}
}

func TestValue_UnmarshalJSON_Depth(t *testing.T) {
	deep := func(n int) string {
		s := `{"S":"x"}`
		for range n {
			s = `{"L":[` + s + `]}`
		}
		return s
	}
	var v attr.Value
	if err := json.Unmarshal([]byte(deep(attr.MaxDepth)), &v); err != nil {
		t.Fatalf("depth %d: %v", attr.MaxDepth, err)
	}
	if err := json.Unmarshal([]byte(deep(attr.MaxDepth+1)), &v); err == nil {
		t.Fatalf("depth %d: no error", attr.MaxDepth+1)
	}
	// In an item, the item is the first level.
	var it attr.Item
	if err := json.Unmarshal([]byte(`{"a":`+deep(attr.MaxDepth-1)+`}`), &it); err != nil {
		t.Fatalf("item, depth %d: %v", attr.MaxDepth, err)
	}
	if err := json.Unmarshal([]byte(`{"a":`+deep(attr.MaxDepth)+`}`), &it); err == nil {
		t.Fatalf("item, depth %d: no error", attr.MaxDepth+1)
	}
}

func TestItem_JSON(t *testing.T) {
	in := `{"PK":{"S":"USER#a"},"n":{"N":"010"},"m":{"M":{"k":{"SS":["x"]}}}}`
	it, err := attr.DecodeItem([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(it)
	if want := `{"PK":{"S":"USER#a"},"m":{"M":{"k":{"SS":["x"]}}},"n":{"N":"10"}}`; string(out) != want {
		t.Fatalf("got %s, want %s", out, want)
	}
	var req struct {
		Item attr.Item
		Key  map[string]attr.Value
	}
	if err := json.Unmarshal([]byte(`{"Item":`+in+`,"Key":{"PK":{"S":"a"}}}`), &req); err != nil {
		t.Fatal(err)
	}
	if !attr.EqualItems(req.Item, it) || req.Key["PK"].S != "a" {
		t.Fatalf("nested decode: %+v", req)
	}
}

// TestDecodeItem_NameLengths: an item's attribute names, at any depth, are 1
// to attr.MaxNameBytes bytes.
func TestDecodeItem_NameLengths(t *testing.T) {
	for _, c := range []struct{ name, msg string }{
		{"a", ""},
		{strings.Repeat("n", attr.MaxNameBytes), ""},
		{"", "Empty attribute name"},
		{strings.Repeat("n", attr.MaxNameBytes+1), "Attribute name is too large, must be less than 65536 bytes"},
	} {
		_, err := attr.DecodeItem([]byte(`{"PK":{"S":"a"},"` + c.name + `":{"S":"x"}}`))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.msg {
			t.Errorf("a name of %d bytes: %q, want %q", len(c.name), got, c.msg)
		}
	}
}

func TestValue_UnmarshalJSON_Strings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"S":"a\u00e9\ud83d\ude00\/\b\f\r\t"}`, "aé😀/\b\f\r\t"},
		{`{"S":"\ud83d"}`, "\uFFFD"},
		{`{"S":"\ud83dx"}`, "\uFFFDx"},
		{` { "S" : "x" , "unknown" : {"deep":[1,2,{"a":null}]}, "N": null } `, "x"},
		{`{"S":"a","S":"b"}`, "b"},
		{"{\"S\":\"\xff\"}", "\uFFFD"},
	}
	for _, tt := range tests {
		var v attr.Value
		if err := json.Unmarshal([]byte(tt.in), &v); err != nil {
			if err2 := v.UnmarshalJSON([]byte(tt.in)); err2 != nil {
				t.Errorf("Unmarshal(%s): %v", tt.in, err2)
				continue
			}
		}
		if v.Type != attr.TypeS || v.S != tt.want {
			t.Errorf("Unmarshal(%s) = %q, want %q", tt.in, v.S, tt.want)
		}
	}
}

// FuzzStringDecode compares the string decoder with encoding/json.
func FuzzStringDecode(f *testing.F) {
	for _, s := range []string{`abc`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\"`, "\xff", `\x`, `\u12`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		// raw is one string's contents: an unescaped quote in it would end the string early,
		// and the two documents would then be something else (`"","":""` is no JSON value,
		// `{"S":"","":""}` an object of two members).
		for i := 0; i < len(raw); i++ {
			switch raw[i] {
			case '\\':
				i++
			case '"':
				t.Skip()
			}
		}
		doc := `"` + raw + `"`
		var want string
		wantErr := json.Unmarshal([]byte(doc), &want)
		var v attr.Value
		gotErr := v.UnmarshalJSON([]byte(`{"S":` + doc + `}`))
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("%q: encoding/json error %v, ours %v", doc, wantErr, gotErr)
		}
		if wantErr == nil && v.S != want {
			t.Fatalf("%q: encoding/json %q, ours %q", doc, want, v.S)
		}
	})
}
