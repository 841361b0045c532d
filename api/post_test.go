package api

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// writeResponse writes what json.Marshal writes, byte for byte, for every shape of answer.
func TestWriteResponse_AsJSONMarshal(t *testing.T) {
	yes := true
	cost := map[string]any{"cost": map[string]any{"readCapacityUnits": 1.5, "requests": 2}, "a<b": "x&y"}
	errs := gqlerror.List{{Message: "user <a> not found", Path: ast.Path{ast.PathName("user")}, Extensions: map[string]any{"code": "NOT_FOUND"}}}
	for name, resp := range map[string]*graphql.Response{
		"Data":             {Data: json.RawMessage(`{"user":{"username":"ann","name":"Ann \"A\" \\ B","n":[1,2.5,null,true]}}`)},
		"NilData":          {Errors: errs},
		"NullData":         {Data: json.RawMessage(`null`), Errors: errs},
		"Extensions":       {Data: json.RawMessage(`{"a":1}`), Extensions: cost},
		"ErrorsAndAll":     {Data: json.RawMessage(`{"a":null}`), Errors: errs, Extensions: cost},
		"HTMLInData":       {Data: json.RawMessage(`{"name":"<script>&amp;</script>"}`)},
		"LineSeparator":    {Data: json.RawMessage("{\"s\":\"a\u2028b\u2029c\"}")},
		"OtherE2Runes":     {Data: json.RawMessage("{\"s\":\"\u2026 \u20ac \u2122\"}")},
		"Incremental":      {Data: json.RawMessage(`{"a":1}`), Label: "l", Path: ast.Path{ast.PathName("a")}, HasNext: &yes},
		"EmptyExtensions":  {Data: json.RawMessage(`{}`), Extensions: map[string]any{}},
		"UnicodeAndEscape": {Data: json.RawMessage(`{"s":"\u00e9t\u00e9 \ud83d\ude00 ünïcödé"}`)},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			writeResponse(&got, resp, nil)
			if got.String() != string(want) {
				t.Fatalf("wrote\n%s\njson.Marshal writes\n%s", got.String(), want)
			}
		})
	}
}

// FuzzWriteResponse holds writeResponse to json.Marshal for any compact JSON data, as gqlgen
// writes it.
func FuzzWriteResponse(f *testing.F) {
	for _, seed := range []string{`{"a":"<b>&amp;</b>"}`, "{\"s\":\"a\u2028b\u2029c\u2027\u202a\"}", `{"u":"https://x/y?a=1&b=2"}`, `null`, `[1,"\u00e9\u20ac"]`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(data)) != nil || compact.String() != data {
			return
		}
		resp := &graphql.Response{Data: json.RawMessage(data)}
		want, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		writeResponse(&got, resp, nil)
		if got.String() != string(want) {
			t.Fatalf("wrote %s, json.Marshal writes %s", got.String(), want)
		}
	})
}
