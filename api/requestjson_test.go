package api

import (
	"net/url"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestCheckJSON(t *testing.T) {
	for name, tc := range map[string]struct {
		body string
		says string // "" when the body passes
	}{
		"OK":                   {`{"query": "{ a }", "operationName": null, "variables": {"in": {"a": 1, "b": [1, {"a": 2}]}}, "extensions": {}}`, ""},
		"SameKeyInSiblings":    {`{"variables": {"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]}}`, ""},
		"CaseInVariables":      {`{"variables": {"name": 1, "Name": 2}}`, ""},
		"UnknownKeysIgnored":   {`{"query": "{ a }", "id": "x", "ID": "y"}`, ""},
		"Malformed":            {`{"query": `, ""},
		"MalformedKey":         {`{"query" "x"}`, ""},
		"NotAnObject":          {`["{ a }"]`, ""},
		"Empty":                {``, ""},
		"TrailingWhitespace":   {"{\"query\": \"{ a }\"}\n\t ", ""},
		"DuplicateQuery":       {`{"query": "{ a }", "query": "mutation { b }"}`, `the request body has the key "query" twice: give each key once`},
		"DuplicateEscaped":     {`{"query": "{ a }", "\u0071uery": "mutation { b }"}`, `the key "query" twice`},
		"DuplicateOpName":      {`{"operationName": "A", "query": "{ a }", "operationName": "B"}`, `"operationName" twice`},
		"DuplicateVariables":   {`{"variables": {}, "variables": {"a": 1}}`, `"variables" twice`},
		"DuplicateExtensions":  {`{"extensions": {}, "extensions": {}}`, `"extensions" twice`},
		"QueryInOtherCase":     {`{"query": "{ a }", "QUERY": "mutation { b }"}`, `has the key "QUERY": spell it "query"`},
		"ExtensionsLongS":      {`{"exten\u017fions": {}}`, `spell it "extensions"`},
		"DuplicateVariable":    {`{"variables": {"t": "2024-01-01T00:00:00Z", "t": "2024-01-02T00:00:00Z"}}`, `the key "t" twice in variables:`},
		"DuplicateInputField":  {`{"variables": {"in": {"owner": "a", "url": "u", "owner": "b"}}}`, `the key "owner" twice in variables.in:`},
		"DuplicateInList":      {`{"variables": {"l": [0, {"x": 1, "x": 2}]}}`, `twice in variables.l[1]:`},
		"HostileKeyInPath":     {`{"variables": {"a\u202eb": {"x": 1, "x": 2}}}`, `in variables["a\u202eb"]`},
		"DuplicatePersisted":   {`{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "a", "sha256Hash": "b"}}}`, `"sha256Hash" twice in extensions.persistedQuery`},
		"CaseInExtensions":     {`{"extensions": {"persistedQuery": {"sha256Hash": "a", "SHA256HASH": "b"}}}`, `the keys "sha256Hash" and "SHA256HASH" in extensions.persistedQuery, which differ only in case`},
		"KelvinInExtensions":   {`{"extensions": {"k": 1, "\u212a": 2}}`, `differ only in case`},
		"DuplicateExtension":   {`{"extensions": {"persistedQuery": {}, "persistedQuery": {}}}`, `"persistedQuery" twice in extensions:`},
		"TwoValues":            {`{"query": "{ a }"} {"query": "mutation { b }"}`, `the request body holds more than one JSON value`},
		"TrailingGarbage":      {`{"query": "{ a }"} x`, `more than one JSON value`},
		"DuplicateAfterNested": {`{"variables": {"a": {"b": {"c": 1}}, "a": 2}}`, `the key "a" twice in variables:`},
	} {
		t.Run(name, func(t *testing.T) {
			err := checkJSON([]byte(tc.body), "the request body", topLevel)
			if tc.says == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if domain.ErrorCode(err) != domain.Invalid || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err %v, want invalid saying %q", err, tc.says)
			}
		})
	}
}

func TestCheckJSON_DeepNestingIsLeftToGqlgen(t *testing.T) {
	deep := `{"variables": {"a": ` + strings.Repeat("[", maxJSONDepth+10) + strings.Repeat("]", maxJSONDepth+10) + `}}`
	if err := checkJSON([]byte(deep), "the request body", topLevel); err != nil {
		t.Fatalf("refused: %v", err)
	}
	dup := `{"variables": {"a": ` + strings.Repeat("[", 100) + `{"x": 1, "x": 2}` + strings.Repeat("]", 100) + `}}`
	if err := checkJSON([]byte(dup), "the request body", topLevel); err == nil {
		t.Fatal("a duplicate 100 levels down passed")
	}
}

func TestCheckGETParams(t *testing.T) {
	q := url.QueryEscape
	for name, tc := range map[string]struct {
		query string
		says  string
	}{
		"OK":                  {"query=" + q("{ a }") + "&variables=" + q(`{"a": 1}`) + "&extensions=" + q(`{"persistedQuery": {"version": 1}}`), ""},
		"QueryTwice":          {"query=" + q("{ a }") + "&query=" + q("{ b }"), "the query parameter is given 2 times"},
		"OperationNameTwice":  {"query=" + q("{ a }") + "&operationName=A&operationName=B", "the operationName parameter is given 2 times"},
		"VariablesTwice":      {"variables=%7B%7D&variables=%7B%7D", "the variables parameter is given 2 times"},
		"DuplicateVariable":   {"query=" + q("{ a }") + "&variables=" + q(`{"a": 1, "a": 2}`), `the variables parameter has the key "a" twice`},
		"VariablesTwoValues":  {"variables=" + q(`{"a": 1} {"a": 2}`), "the variables parameter holds more than one JSON value"},
		"DuplicateExtension":  {"extensions=" + q(`{"persistedQuery": {"version": 1, "version": 2}}`), `the extensions parameter has the key "version" twice in persistedQuery`},
		"ExtensionCase":       {"extensions=" + q(`{"persistedQuery": {"version": 1, "Version": 2}}`), `differ only in case`},
		"VariablesCaseIsFine": {"variables=" + q(`{"a": 1, "A": 2}`), ""},
		"OtherParamsTwice":    {"query=" + q("{ a }") + "&utm=1&utm=2", ""},
		"Unparsable":          {"query=%zz", "the URL's query string cannot be read"},
		"VariablesNotJSON":    {"variables=" + q(`{a: 1}`), "the variables parameter is not a JSON object"},
		"VariablesNotObject":  {"variables=" + q(`[1]`), "the variables parameter is not a JSON object"},
		"ExtensionsNotObject": {"extensions=" + q(`"x"`), "the extensions parameter is not a JSON object"},
		"VariablesNull":       {"variables=null", ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := checkGETParams(tc.query)
			if tc.says == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if domain.ErrorCode(err) != domain.Invalid || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err %v, want invalid saying %q", err, tc.says)
			}
		})
	}
}
