package attr_test

import (
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// valueBuilder builds attr.Values, so that DecodeItemAs can be checked against
// DecodeItem.
type valueBuilder struct{}

func (valueBuilder) S(s string) attr.Value                { return attr.S(s) }
func (valueBuilder) N(n string) attr.Value                { return attr.N(n) }
func (valueBuilder) B(b []byte) attr.Value                { return attr.B(b) }
func (valueBuilder) BOOL(b bool) attr.Value               { return attr.Bool(b) }
func (valueBuilder) NULL() attr.Value                     { return attr.Null() }
func (valueBuilder) SS(ss []string) attr.Value            { return attr.SS(ss...) }
func (valueBuilder) NS(ns []string) attr.Value            { return attr.NS(ns...) }
func (valueBuilder) BS(bs [][]byte) attr.Value            { return attr.BS(bs...) }
func (valueBuilder) L(l []attr.Value) attr.Value          { return attr.L(l...) }
func (valueBuilder) M(m map[string]attr.Value) attr.Value { return attr.M(m) }

func TestDecodeItemAs(t *testing.T) {
	for _, data := range []string{
		`null`, `{}`,
		`{"a":{"S":"x\u003cy"},"b":{"N":"1.5"},"c":{"B":"AQI="},"d":{"BOOL":false},"e":{"NULL":true}}`,
		`{"s":{"SS":["a","b"]},"n":{"NS":["1","2"]},"b":{"BS":["AQ==","Ag=="]}}`,
		`{"l":{"L":[{"S":"a"},{"L":[]},{"M":{"k":{"N":"3"}}}]},"m":{"M":{}}}`,
	} {
		want, err := attr.DecodeItem([]byte(data))
		if err != nil {
			t.Fatalf("attr.DecodeItem(%s): %v", data, err)
		}
		got, err := attr.DecodeItemAs[attr.Value]([]byte(data), valueBuilder{})
		if err != nil || !attr.EqualItems(attr.Item(got), want) || (got == nil) != (want == nil) {
			t.Errorf("DecodeItemAs(%s) = %v, %v; want %v", data, got, err, want)
		}
	}
	for _, bad := range []string{`{"a":{}}`, `{"a":{"S":1}}`, `{"a":`, `[]`} {
		if _, err := attr.DecodeItemAs[attr.Value]([]byte(bad), valueBuilder{}); err == nil {
			t.Errorf("DecodeItemAs(%s) succeeded", bad)
		}
	}
}

// ValueAs builds every case's values as they are.
func TestValueAs(t *testing.T) {
	for _, s := range binaryCases {
		it := mustItem(t, s)
		got := attr.Item{}
		for k, v := range it {
			got[k] = attr.ValueAs[attr.Value](v, valueBuilder{})
		}
		if !itemsEqual(got, it) {
			t.Errorf("%s: ValueAs gave %s", s, attr.AppendItemJSON(nil, got))
		}
	}
}

// TestDecodedStringsOwnTheirBytes decodes items and a value, then writes
// over the input, as a request's buffer is reused for the next request: the
// decoded names and strings, cut from one copy of the input, keep theirs.
func TestDecodedStringsOwnTheirBytes(t *testing.T) {
	const doc = `{"name":{"S":"alice"},"n":{"N":"12"},"esc":{"S":"a\"b"},"ss":{"SS":["x","y"]},"m":{"M":{"k":{"S":"v"}}}}`
	want := mustItem(t, doc)
	data := []byte(doc)
	it, err := attr.DecodeItem(data)
	clear(data)
	if err != nil || !itemsEqual(it, want) {
		t.Errorf("DecodeItem, input overwritten: %s, %v", attr.AppendItemJSON(nil, it), err)
	}
	data = []byte(doc)
	got, err := attr.DecodeItemAs[attr.Value](data, valueBuilder{})
	clear(data)
	if err != nil || !itemsEqual(attr.Item(got), want) {
		t.Errorf("DecodeItemAs, input overwritten: %s, %v", attr.AppendItemJSON(nil, attr.Item(got)), err)
	}
	data = []byte(`{"S":"alice"}`)
	var v attr.Value
	err = v.UnmarshalJSON(data)
	clear(data)
	if err != nil || v.S != "alice" {
		t.Errorf("Value.UnmarshalJSON, input overwritten: %+v, %v", v, err)
	}
}
