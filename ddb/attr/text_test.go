package attr_test

import (
	"errors"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

func TestCheckJSONText(t *testing.T) {
	tests := []struct {
		name string
		data string
		want error
	}{
		{"ASCII", `{"S":"abc"}`, nil},
		{"UTF8", `{"S":"é中😀"}`, nil},
		{"EscapedPair", `{"S":"\ud83d\ude00"}`, nil},
		{"EscapedBMP", `{"S":"\u00e9\uFFFD"}`, nil},
		{"EscapedBackslashThenU", `{"S":"\\ud800"}`, nil},
		{"InvalidByte", "{\"S\":\"a\xff\"}", attr.ErrInvalidUTF8},
		{"TruncatedSequence", "{\"S\":\"\xe4\xb8\"}", attr.ErrInvalidUTF8},
		{"LoneHigh", `{"S":"a\ud800"}`, attr.ErrLoneSurrogate},
		{"LoneHighAtEnd", `"\ud800"`, attr.ErrLoneSurrogate},
		{"LoneLow", `{"S":"\udc00"}`, attr.ErrLoneSurrogate},
		{"LowThenHigh", `{"S":"\udc00\ud800"}`, attr.ErrLoneSurrogate},
		{"HighThenNonSurrogate", `{"S":"\ud800\u0041"}`, attr.ErrLoneSurrogate},
		{"LoneInAName", `{"\ud800":{"S":"x"}}`, attr.ErrLoneSurrogate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := attr.CheckJSONText([]byte(tt.data)); !errors.Is(err, tt.want) {
				t.Fatalf("CheckJSONText(%q) = %v, want %v", tt.data, err, tt.want)
			}
		})
	}
}
