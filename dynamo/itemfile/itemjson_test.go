package itemfile_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// readAll reads every item of input, or fails with the first error.
func readAll(t *testing.T, input string) ([]dynamo.Item, error) {
	t.Helper()
	r := itemfile.NewItemReader(strings.NewReader(input))
	var items []dynamo.Item
	for {
		item, err := r.Next()
		if err == io.EOF {
			return items, nil
		}
		if err != nil {
			return items, err
		}
		items = append(items, item)
	}
}

var ava = dynamo.Item{
	"PK":        s("USER#ava"),
	"SK":        s("#METADATA#ava"),
	"followers": n("3"),
	"interests": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("hiking"), s("film")}},
	"verified":  &types.AttributeValueMemberBOOL{Value: true},
	"address":   &types.AttributeValueMemberNULL{Value: true},
	"reactions": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"+1": n("0"), "heart": n("12")}},
}

const avaPlain = `{"PK": "USER#ava", "SK": "#METADATA#ava", "followers": 3, "interests": ["hiking", "film"], "verified": true, "address": null, "reactions": {"+1": 0, "heart": 12}}`

const avaTyped = `{"PK": {"S": "USER#ava"}, "SK": {"S": "#METADATA#ava"}, "followers": {"N": "3"},
 "interests": {"L": [{"S": "hiking"}, {"S": "film"}]}, "verified": {"BOOL": true}, "address": {"NULL": true},
 "reactions": {"M": {"+1": {"N": "0"}, "heart": {"N": "12"}}}}`

const avaPretty = `{
  "PK": "USER#ava",
  "SK": "#METADATA#ava",
  "followers": 3,
  "interests": [
    "hiking",
    "film"
  ],
  "verified": true,
  "address": null,
  "reactions": {"+1": 0, "heart": 12}
}`

func TestItemReader(t *testing.T) {
	bob := dynamo.Item{"PK": s("USER#bob"), "SK": s("#METADATA#bob")}
	sets := dynamo.Item{
		"PK": s("p"), "SK": s("s"),
		"tags": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"nums": &types.AttributeValueMemberNS{Value: []string{"1", "2.50"}},
		"bin":  &types.AttributeValueMemberB{Value: []byte("hi")},
		"bins": &types.AttributeValueMemberBS{Value: [][]byte{[]byte("x")}},
	}
	tests := []struct {
		name  string
		input string
		want  []dynamo.Item
	}{
		{"Empty", "", nil},
		{"Blank", " \n\t\n", nil},
		{"Plain", avaPlain + "\n" + `{"PK": "USER#bob", "SK": "#METADATA#bob"}` + "\n", []dynamo.Item{ava, bob}},
		{"PlainNoFinalNewline", avaPlain, []dynamo.Item{ava}},
		{"CRLF", avaPlain + "\r\n" + `{"PK":"USER#bob","SK":"#METADATA#bob"}` + "\r\n", []dynamo.Item{ava, bob}},
		{"ByteOrderMark", "\xef\xbb\xbf" + avaPlain, []dynamo.Item{ava}},
		{"Typed", avaTyped, []dynamo.Item{ava}},
		{"TypedExportWrapper", `{"Item": ` + avaTyped + "}\n" + `{"Item":{"PK":{"S":"USER#bob"},"SK":{"S":"#METADATA#bob"}}}`, []dynamo.Item{ava, bob}},
		{"TypedSetsAndBinary", `{"PK":{"S":"p"},"SK":{"S":"s"},"tags":{"SS":["a","b"]},"nums":{"NS":["1","2.50"]},"bin":{"B":"aGk="},"bins":{"BS":["eA=="]}}`, []dynamo.Item{sets}},
		{"MixedPlainAndTyped", avaTyped + "\n" + avaPlain + "\n", []dynamo.Item{ava, ava}},
		{"Concatenated", avaPlain + `{"PK":"USER#bob","SK":"#METADATA#bob"}` + avaTyped, []dynamo.Item{ava, bob, ava}},
		{"PrettyPrinted", avaPretty + "\n\n" + avaPretty + "\n", []dynamo.Item{ava, ava}},
		// A plain item with a map attribute is not typed just because one of its values is.
		{"PlainWithTypeLikeMap", `{"PK": "p", "SK": "s", "m": {"S": "x"}}`, []dynamo.Item{{
			"PK": s("p"), "SK": s("s"), "m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"S": s("x")}},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, tt.input)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %d items %#v\nwant %d items %#v", len(got), got, len(tt.want), tt.want)
			}
		})
	}
}

func TestItemReader_Errors(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		line     int    // where the bad object starts
		contains string // in the message
		good     int    // items read before it
	}{
		{"Syntax", avaPlain + "\n" + avaPlain + "\n{\"PK\": \"x\", oops}\n" + avaPlain, 3, "invalid character", 2},
		{"SyntaxInPrettyObject", avaPretty + "\n" + "{\n  \"PK\": \"x\",\n  \"SK\": tru\n}\n", 13, "invalid character", 1},
		{"Truncated", avaPlain + "\n\n{\"PK\": \"x\",\n", 3, "unexpected end", 1},
		{"NotAnObject", avaPlain + "\n[1, 2]\n", 2, "want a JSON object, got an array", 1},
		{"NumberAtTopLevel", "\n\n  42", 3, "got a number", 0},
		{"EmptyObject", "{}", 1, "empty item", 0},
		{"TypedBadNumber", avaPlain + "\n" + `{"PK": {"S": "p"}, "SK": {"S": "s"}, "n": {"N": "twelve"}}`, 2, `attribute "n": number (N): "twelve" is not a number`, 1},
		{"TypedBadBase64", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "b": {"B": "!!"}}`, 1, "not base64", 0},
		{"TypedNullFalse", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "x": {"NULL": false}}`, 1, "NULL: want true", 0},
		{"TypedStringNotString", `{"PK": {"S": 5}, "SK": {"S": "s"}}`, 1, "S: want a string, got a number", 0},
		{"TypedNestedBad", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "l": {"L": [{"S": "a"}, {"X": 1}]}}`, 1, "list (L) element 1", 0},
		{"StrayCloseBrace", avaPlain + "\n}\n", 2, "invalid character '}'", 1},
		// What DynamoDB refuses, in its words (found by FuzzItemReader's ancestor, issue 13).
		{"EmptyStringSet", avaPlain + "\n" + `{"PK": {"S": "p"}, "SK": {"S": "s"}, "tags": {"SS": []}}`, 2, `attribute "tags": One or more parameter values were invalid: An string set  may not be empty`, 1},
		{"EmptyNumberSetInAList", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "l": {"L": [{"NS": []}]}}`, 1, `attribute "l": One or more parameter values were invalid: An number set  may not be empty`, 0},
		{"DuplicateStrings", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "tags": {"SS": ["a", "a"]}}`, 1, `attribute "tags": One or more parameter values were invalid: Input collection [a, a] contains duplicates`, 0},
		{"DuplicateNumbersSpeltTwoWays", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "n": {"NS": ["1", "1.0"]}}`, 1, `attribute "n": Input collection contains duplicates`, 0},
		{"DuplicateBinary", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "b": {"BS": ["YQ==", "YQ=="]}}`, 1, `attribute "b": One or more parameter values were invalid: Input collection of type BS contains duplicates`, 0},
		{"EmptyAttributeName", avaPlain + "\n" + `{"PK": "p", "SK": "s", "": "x"}`, 2, `attribute "": Empty attribute name`, 1},
		{"EmptyNameInAMap", `{"PK": "p", "SK": "s", "m": {"": 1}}`, 1, `attribute "m": Empty attribute name`, 0},
		{"NumberTooManyDigits", `{"PK": "p", "SK": "s", "n": 123456789012345678901234567890123456789}`, 1, `attribute "n": Attempting to store more than 38 significant digits in a Number`, 0},
		{"NumberOverflow", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "n": {"N": "1e126"}}`, 1, `attribute "n": Number overflow`, 0},
		{"NumberUnderflow", `{"PK": {"S": "p"}, "SK": {"S": "s"}, "n": {"N": "1e-131"}}`, 1, `attribute "n": Number underflow`, 0},
		{"FirstBadAttributeByName", `{"PK": "p", "SK": "s", "z": {"": 1}, "a": 1e200}`, 1, `attribute "a": Number overflow`, 0},
		{"ItemOver400KB", `{"PK": "p", "SK": "s", "x": "` + strings.Repeat("a", 400*1024) + `"}`, 1, "over DynamoDB's limit", 0},
		{"InvalidUTF8", avaPlain + "\n" + "{\"PK\": \"p\xff\", \"SK\": \"s\"}", 2, "invalid UTF-8", 1},
		{"LoneSurrogateEscape", `{"PK": "p\ud800", "SK": "s"}`, 1, "surrogate", 0},
		{"LowSurrogateFirst", `{"PK": "p\udc00\ud800", "SK": "s"}`, 1, "surrogate", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := itemfile.NewItemReader(strings.NewReader(tt.input))
			good := 0
			var err error
			for {
				_, err = r.Next()
				if err != nil {
					break
				}
				good++
			}
			var le *itemfile.LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v (%T), want a *LineError", err, err)
			}
			if le.Line != tt.line || r.Line() != tt.line {
				t.Errorf("error at line %d (Line() %d), want %d: %v", le.Line, r.Line(), tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not contain %q", err, tt.contains)
			}
			if good != tt.good {
				t.Errorf("%d good items before the error, want %d", good, tt.good)
			}
		})
	}
}

func TestItemReader_ContinuesAfterBadItem(t *testing.T) {
	// A well-formed JSON value that is not a valid item does not spoil the items after it.
	r := itemfile.NewItemReader(strings.NewReader("[1]\n" + avaPlain))
	if _, err := r.Next(); err == nil {
		t.Fatal("no error for [1]")
	}
	if item, err := r.Next(); err != nil || !reflect.DeepEqual(item, ava) || r.Line() != 2 {
		t.Fatalf("after a bad item: %v, %v, line %d", item, err, r.Line())
	}
}

func TestWriteItemJSON(t *testing.T) {
	bigs := dynamo.Item{
		"PK": s("p"), "SK": s("s"),
		"big":   n("12345678901234567890123456789012345678"), // DynamoDB's 38 digits
		"frac":  n("0.1000000000000000000000000000000000001"),
		"exp":   n("-9.9999999999999999999999999999999999999E+125"),
		"tiny":  n("1e-130"),
		"plus":  n("+7"), // not a JSON literal: forces the typed form
		"intro": s(`<a href="x">&</a> ✓ "quoted" \ back`),
	}
	sets := dynamo.Item{
		"PK": s("p"), "SK": s("s"),
		"tags": &types.AttributeValueMemberSS{Value: []string{"a"}},
		"bin":  &types.AttributeValueMemberB{Value: []byte{0, 1, 255}},
	}
	lookalike := dynamo.Item{"PK": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"S": s("x")}}}
	tests := []struct {
		name  string
		item  dynamo.Item
		typed bool
	}{
		{"Plain", ava, false},
		{"ExactNumbers", dynamo.Item{"PK": s("p"), "SK": s("s"), "big": n("12345678901234567890123456789012345678"), "frac": n("0.10"), "exp": n("-1.5E+125")}, false},
		{"NumbersJSONCannotSpell", bigs, true},
		{"SetsAndBinary", sets, true},
		{"LooksTyped", lookalike, true},
		// One attribute named Item holding an object reads as the export wrapper unless wrapped.
		{"LooksWrappedEmptyMap", dynamo.Item{"Item": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}}, false},
		{"LooksWrappedMap", dynamo.Item{"Item": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"PK": s("p")}}}, false},
		{"LooksWrappedTyped", dynamo.Item{"Item": &types.AttributeValueMemberB{Value: []byte{1}}}, false},
		{"ItemBesideOthers", dynamo.Item{"Item": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}, "PK": s("p")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := itemfile.WriteItemJSON(&buf, tt.item); err != nil {
				t.Fatal(err)
			}
			line := buf.String()
			if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
				t.Fatalf("not one line: %q", line)
			}
			if typed := strings.HasPrefix(line, `{"PK":{`) && !strings.HasPrefix(line, `{"PK":{"S":{`); typed != tt.typed {
				t.Errorf("typed form %v, want %v: %s", typed, tt.typed, line)
			}
			got, err := readAll(t, line+line)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || !reflect.DeepEqual(got[0], tt.item) {
				t.Errorf("round trip:\n got %#v\nwant %#v\nfrom %s", got, tt.item, line)
			}
			var again bytes.Buffer
			itemfile.WriteItemJSON(&again, got[0])
			if again.String() != line {
				t.Errorf("not deterministic:\n%s%s", line, again.String())
			}
		})
	}
	t.Run("PlainIsReadable", func(t *testing.T) {
		var buf bytes.Buffer
		itemfile.WriteItemJSON(&buf, dynamo.Item{"PK": s("USER#ava"), "SK": s("#METADATA#ava"), "followers": n("3"), "url": s("https://x/?a=1&b=2")})
		want := `{"PK":"USER#ava","SK":"#METADATA#ava","followers":3,"url":"https://x/?a=1&b=2"}` + "\n"
		if buf.String() != want {
			t.Errorf("got  %s\nwant %s", buf.String(), want)
		}
	})
	t.Run("ErrUnsupported", func(t *testing.T) {
		if err := itemfile.WriteItemJSON(io.Discard, dynamo.Item{"x": nil}); err == nil {
			t.Error("no error for a nil attribute value")
		}
	})
}
