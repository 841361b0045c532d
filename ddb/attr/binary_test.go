package attr_test

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// binaryCases are items holding every type, nesting, escapes and empty
// values, as JSON.
var binaryCases = []string{
	`{}`,
	`{"a":{"S":"x"}}`,
	`{"PK":{"S":"USER#u1"},"SK":{"S":"#METADATA#u1"},"n":{"N":"-1.5E-3"},"z":{"N":"0"}}`,
	`{"s":{"S":"a\"b\\c\n\u0001é😀<>&\u2028"},"e":{"S":""},"b":{"B":"AAEC"},"eb":{"B":""}}`,
	`{"t":{"BOOL":true},"f":{"BOOL":false},"n":{"NULL":true}}`,
	`{"ss":{"SS":["a","b",""]},"ns":{"NS":["1","2.5"]},"bs":{"BS":["AA==","AQ=="]}}`,
	`{"l":{"L":[]},"m":{"M":{}},"deep":{"L":[{"M":{"b":{"NULL":true},"a":{"L":[{"S":"x"},{"N":"7"},{"BOOL":false}]}}},{"SS":["q"]}]}}`,
	`{"reactions":{"M":{"+1":{"N":"0"},"heart":{"N":"12"},"smiley":{"N":"3"}}},"é":{"S":"accent name"},"~":{"S":"last"}}`,
}

func mustItem(t *testing.T, s string) attr.Item {
	t.Helper()
	it, err := attr.DecodeItem([]byte(s))
	if err != nil {
		t.Fatalf("DecodeItem(%s): %v", s, err)
	}
	return it
}

func TestBinary_RoundTrip(t *testing.T) {
	for _, s := range binaryCases {
		it := mustItem(t, s)
		data := attr.AppendBinary(nil, it, attr.Size(it))
		got := attr.Item{}
		size, err := attr.DecodeBinary(data, got)
		if err != nil || size != attr.Size(it) {
			t.Errorf("%s: DecodeBinary: size %d, %v; want %d", s, size, err, attr.Size(it))
			continue
		}
		if !itemsEqual(got, it) {
			t.Errorf("%s: round trip gave %s", s, attr.AppendItemJSON(nil, got))
		}
		if n, err := attr.BinarySize(data); n != size || err != nil {
			t.Errorf("%s: BinarySize = %d, %v", s, n, err)
		}
		json, jsize, err := attr.AppendBinaryJSON([]byte("prefix"), data, nil)
		if want := "prefix" + string(attr.AppendItemJSON(nil, it)); err != nil || string(json) != want || jsize != size {
			t.Errorf("%s: AppendBinaryJSON = %s, %d, %v; want %s", s, json, jsize, err, want)
		}
	}
}

// TestDecodeBinaryText decodes every case as DecodeBinary does, with the
// strings it decodes cut from the text, and refuses what DecodeBinary
// refuses.
func TestDecodeBinaryText(t *testing.T) {
	for _, s := range binaryCases {
		it := mustItem(t, s)
		text := string(attr.AppendBinary(nil, it, attr.Size(it)))
		got := attr.Item{}
		size, err := attr.DecodeBinaryText(text, got)
		if err != nil || size != attr.Size(it) || !itemsEqual(got, it) {
			t.Errorf("%s: DecodeBinaryText = %s, %d, %v", s, attr.AppendItemJSON(nil, got), size, err)
		}
		start, end := uintptr(unsafe.Pointer(unsafe.StringData(text))), uintptr(unsafe.Pointer(unsafe.StringData(text)))+uintptr(len(text))
		inText := func(s string) bool {
			p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			return s == "" || p >= start && p+uintptr(len(s)) <= end
		}
		for name, v := range got {
			if !inText(name) || !inText(v.S) || !inText(v.NumText()) {
				t.Errorf("%s: attribute %q was copied, not cut from the text", s, name)
			}
		}
	}
	it := mustItem(t, binaryCases[6])
	data := attr.AppendBinary(nil, it, attr.Size(it))
	for n := 0; n < len(data); n++ {
		_, want := attr.DecodeBinary(data[:n], attr.Item{})
		if _, err := attr.DecodeBinaryText(string(data[:n]), attr.Item{}); !errors.Is(err, want) {
			t.Errorf("truncated to %d: %v, want %v as DecodeBinary", n, err, want)
		}
	}
}

// TestBinaryLen counts the top-level attributes of every case, and none in
// malformed data.
func TestBinaryLen(t *testing.T) {
	for _, s := range binaryCases {
		it := mustItem(t, s)
		if n := attr.BinaryLen(attr.AppendBinary(nil, it, attr.Size(it))); n != len(it) {
			t.Errorf("%s: BinaryLen = %d, want %d", s, n, len(it))
		}
	}
	for _, bad := range [][]byte{nil, {0x80}, {5, 1, 'a', 0xEE}, {5, 1, 'a', 1, 0xFF, 0xFF, 3}} {
		if n := attr.BinaryLen(bad); n != 0 {
			t.Errorf("BinaryLen(%x) = %d, want 0", bad, n)
		}
	}
}

// TestDecodeBinaryAs builds the same item from the binary form as
// DecodeBinary does.
func TestDecodeBinaryAs(t *testing.T) {
	for _, s := range binaryCases {
		it := mustItem(t, s)
		checkDecodeBinaryAs(t, s, it, attr.AppendBinary(nil, it, attr.Size(it)))
	}
	if _, err := attr.DecodeBinaryAs[attr.Value]([]byte{0, 1, 'a', 99}, valueBuilder{}); err == nil {
		t.Error("an unknown tag was built into a value")
	}
}

func checkDecodeBinaryAs(t *testing.T, name string, it attr.Item, data []byte) {
	t.Helper()
	data = slices.Clone(data)
	got, err := attr.DecodeBinaryAs[attr.Value](data, valueBuilder{})
	// The names and strings of the result are cut from one copy of data:
	// writing over data afterwards (as bbolt reuses its pages) changes none.
	clear(data)
	if err != nil || !itemsEqual(attr.Item(got), it) {
		t.Fatalf("%s: DecodeBinaryAs = %s, %v", name, attr.AppendItemJSON(nil, attr.Item(got)), err)
	}
}

// TestBinaryAttribute finds each attribute of every case without decoding
// the others, and finds none that is not there.
func TestBinaryAttribute(t *testing.T) {
	for _, s := range binaryCases {
		it := mustItem(t, s)
		checkBinaryAttributes(t, s, it, attr.AppendBinary(nil, it, attr.Size(it)))
	}
	if _, _, err := attr.BinaryAttribute([]byte{0, 1, 'a', 99}, "a"); err == nil {
		t.Error("an unknown tag was read as a value")
	}
}

func checkBinaryAttributes(t *testing.T, name string, it attr.Item, data []byte) {
	t.Helper()
	for n, want := range it {
		v, found, err := attr.BinaryAttribute(data, n)
		if err != nil || !found || !itemsEqual(attr.Item{n: v}, attr.Item{n: want}) {
			t.Fatalf("%s: BinaryAttribute(%q) = %s, %v, %v", name, n, v, found, err)
		}
	}
	for _, missing := range []string{"", "0", "Z", "zzz", "\xff"} {
		if _, ok := it[missing]; ok {
			continue
		}
		if _, found, err := attr.BinaryAttribute(data, missing); found || err != nil {
			t.Fatalf("%s: BinaryAttribute(%q) found it (%v)", name, missing, err)
		}
	}
}

// TestBinary_Omit leaves attributes out and supplies them again, as the
// engine does with key attributes.
func TestBinary_Omit(t *testing.T) {
	tests := []struct {
		item string
		omit []string
	}{
		{`{"PK":{"S":"p"},"SK":{"S":"s"},"a":{"N":"1"},"z":{"S":"z"}}`, []string{"PK", "SK"}},
		{`{"A":{"S":"first"},"m":{"S":"middle"},"zz":{"N":"9"}}`, []string{"A", "zz"}},
		{`{"k":{"B":"AQ=="}}`, []string{"k"}},
		{`{"a":{"S":"x"},"b":{"S":"y"}}`, nil},
	}
	for _, tt := range tests {
		it := mustItem(t, tt.item)
		data := attr.AppendBinary(nil, it, attr.Size(it), tt.omit...)
		var extra []attr.NamedValue
		got := attr.Item{}
		for _, name := range tt.omit { // sorted in every case above
			extra = append(extra, attr.NamedValue{Name: name, Value: it[name]})
			got[name] = it[name]
		}
		if _, err := attr.DecodeBinary(data, got); err != nil || !itemsEqual(got, it) {
			t.Errorf("%s omitting %v: decoded %s, %v", tt.item, tt.omit, attr.AppendItemJSON(nil, got), err)
		}
		json, _, err := attr.AppendBinaryJSON(nil, data, extra)
		if want := string(attr.AppendItemJSON(nil, it)); err != nil || string(json) != want {
			t.Errorf("%s omitting %v: JSON %s, %v; want %s", tt.item, tt.omit, json, err, want)
		}
	}
}

// TestBinary_Corrupt checks that truncated or altered encodings are errors,
// never panics or huge allocations.
func TestBinary_Corrupt(t *testing.T) {
	it := mustItem(t, binaryCases[6])
	data := attr.AppendBinary(nil, it, attr.Size(it))
	for n := 1; n < len(data); n++ {
		cut := data[:n]
		_, err := attr.DecodeBinary(cut, attr.Item{})
		_, _, jerr := attr.AppendBinaryJSON(nil, cut, nil)
		if (err == nil) != (jerr == nil) {
			t.Errorf("truncated to %d: DecodeBinary %v but AppendBinaryJSON %v", n, err, jerr)
		}
		if err != nil && !errors.Is(err, attr.ErrBadBinary) {
			t.Errorf("truncated to %d: %v, want ErrBadBinary", n, err)
		}
	}
	for _, bad := range [][]byte{
		nil,                                     // no size
		{0x80},                                  // unterminated uvarint
		{5, 1, 'a', 0xEE},                       // unknown tag
		{5, 1, 'a', 1, 0xFF, 0xFF, 3},           // string longer than the data
		{5, 1, 'a', 10, 0xFF, 0xFF, 0xFF, 0x0F}, // list count beyond the data
	} {
		if _, err := attr.DecodeBinary(bad, attr.Item{}); !errors.Is(err, attr.ErrBadBinary) {
			t.Errorf("DecodeBinary(%x) = %v, want ErrBadBinary", bad, err)
		}
		if _, _, err := attr.AppendBinaryJSON(nil, bad, nil); !errors.Is(err, attr.ErrBadBinary) {
			t.Errorf("AppendBinaryJSON(%x) = %v, want ErrBadBinary", bad, err)
		}
	}
}

// itemsEqual compares items attribute by attribute.
func itemsEqual(a, b attr.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !attr.Equal(v, w) {
			return false
		}
	}
	return true
}

// FuzzBinary checks that every item the JSON codec accepts survives the
// binary codec unchanged, in both directions, and that arbitrary bytes never
// make it panic.
func FuzzBinary(f *testing.F) {
	for _, s := range binaryCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = attr.DecodeBinary(data, attr.Item{})
		_, _, _ = attr.AppendBinaryJSON(nil, data, nil)
		_, _ = attr.DecodeBinaryAs[attr.Value](data, valueBuilder{})
		it, err := attr.DecodeItem(data)
		if err != nil || it == nil {
			return
		}
		enc := attr.AppendBinary(nil, it, attr.Size(it))
		got := attr.Item{}
		if _, err := attr.DecodeBinary(enc, got); err != nil || !itemsEqual(got, it) {
			t.Fatalf("round trip of %s: %s, %v", data, attr.AppendItemJSON(nil, got), err)
		}
		checkBinaryAttributes(t, string(data), it, enc)
		checkDecodeBinaryAs(t, string(data), it, enc)
		json, _, err := attr.AppendBinaryJSON(nil, enc, nil)
		if want := attr.AppendItemJSON(nil, it); err != nil || string(json) != string(want) {
			t.Fatalf("JSON of %s: %s, %v; want %s", data, json, err, want)
		}
	})
}
