package api

import (
	"strings"
	"testing"
)

func TestCheckJSONText(t *testing.T) {
	for name, tc := range map[string]struct {
		json string
		says string // "" when the text passes
	}{
		"OK":                    {`{"s": "plain", "e": "é😀"}`, ""},
		"EscapedPair":           {`{"s": "\ud83d\ude00"}`, ""},
		"EscapedPairUpperCase":  {`{"s": "\uD83D\uDE00"}`, ""},
		"EscapedBMP":            {`{"s": "\u00e9\u0000"}`, ""},
		"EscapedBackslashThenU": {`{"s": "\\ud800"}`, ""},
		"KeyEscape":             {`{"\ud800": 1}`, "lone surrogate (\\ud800)"},
		"LoneHigh":              {`{"s": "a\ud800b"}`, "lone surrogate (\\ud800)"},
		"LoneHighAtEnd":         {`{"s": "\ud800"}`, "lone surrogate"},
		"LoneLow":               {`{"s": "\udc00"}`, "lone surrogate (\\udc00)"},
		"HighThenHigh":          {`{"s": "\ud800\ud800"}`, "lone surrogate"},
		"HighThenOtherEscape":   {`{"s": "\ud800\n"}`, "lone surrogate"},
		"PairThenLoneLow":       {`{"s": "\ud83d\ude00\ude00"}`, "lone surrogate (\\ude00)"},
		"RawNotUTF8":            {"{\"s\": \"ok\xff\xfeok\"}", "not valid UTF-8"},
		"RawSurrogateEncoded":   {"{\"s\": \"\xed\xa0\x80\"}", "not valid UTF-8"},
		"MalformedEscapeIsLeft": {`{"s": "\u12"}`, ""},
		"OutsideStringsIgnored": {`{"s": 1} \ud800`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			err := checkJSONText([]byte(tc.json), "the body")
			switch {
			case tc.says == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)):
				t.Fatalf("%v, want an error saying %q", err, tc.says)
			}
		})
	}
}

func TestLoneSurrogateLiteral(t *testing.T) {
	for name, tc := range map[string]struct {
		doc          string
		escape       string // "" when the document passes
		line, column int
	}{
		"Plain":               {`{ user(username: "a") { name } }`, "", 0, 0},
		"Pair":                {`{ a(s: "\ud83d\ude00") }`, "", 0, 0},
		"Braced":              {`{ a(s: "\u{1F600}") }`, "", 0, 0},
		"EscapedBackslash":    {`{ a(s: "\\ud800") }`, "", 0, 0},
		"InAComment":          {"# \"\\ud800\n{ a }", "", 0, 0},
		"InABlockString":      {`{ a(s: """\ud800""") }`, "", 0, 0},
		"BlockStringEscape":   {`{ a(s: """x\"""\ud800""") }`, "", 0, 0},
		"Lone":                {`{ a(s: "x\ud800y") }`, `\ud800`, 1, 10},
		"LoneLow":             {`{ a(s: "\uDFFF") }`, `\uDFFF`, 1, 9},
		"OnALaterLine":        {"{\n  a(s: \"é\\udc00\")\n}", `\udc00`, 2, 10},
		"AfterABlockString":   {"{ a(s: \"\"\"\nx\n\"\"\", t: \"\\ud800\") }", `\ud800`, 3, 10},
		"UnterminatedIsLeft":  {`{ a(s: """\ud800 }`, "", 0, 0},
		"AfterAnEscapedQuote": {`{ a(s: "\"\ud800") }`, `\ud800`, 1, 11},
	} {
		t.Run(name, func(t *testing.T) {
			escape, line, column, found := loneSurrogateLiteral(tc.doc)
			if found != (tc.escape != "") || escape != tc.escape || line != tc.line || column != tc.column {
				t.Fatalf("%q at %d:%d (found %v), want %q at %d:%d", escape, line, column, found, tc.escape, tc.line, tc.column)
			}
		})
	}
}
