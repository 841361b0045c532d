package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestGraphQLOverHTTP_Status: the status codes the GraphQL over HTTP specification asks for,
// by the response type the client accepts, and no data entry in the answer to a request that
// failed before execution.
func TestGraphQLOverHTTP_Status(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, c := range []struct {
		name, method, accept, body string
		want                       int
		allow                      string
		hasData                    bool
	}{
		{"a validation error under application/json", "POST", "application/json", `{"query":"{ nope }"}`, http.StatusOK, "", false},
		{"a validation error with no Accept", "POST", "", `{"query":"{ nope }"}`, http.StatusOK, "", false},
		{"a parse error under application/json", "POST", "application/json", `{"query":"{ user("}`, http.StatusOK, "", false},
		{"a validation error under graphql-response+json", "POST", "application/graphql-response+json", `{"query":"{ nope }"}`, http.StatusBadRequest, "", false},
		{"a parse error under graphql-response+json", "POST", "application/graphql-response+json", `{"query":"{"}`, http.StatusBadRequest, "", false},
		{"a body that is not JSON", "POST", "application/json", `{"query":`, http.StatusBadRequest, "", false},
		{"no document under application/json", "POST", "application/json", `{"variables":{}}`, http.StatusBadRequest, "", false},
		{"a query over GET", "GET", "application/json", "", http.StatusOK, "", true},
		{"a query with an error in execution", "POST", "application/graphql-response+json", `{"query":"{ user(username: \"no#one\") { name } }"}`, http.StatusOK, "", true},
		{"a mutation over GET", "GET", "application/json", "mutation", http.StatusMethodNotAllowed, "POST", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var req *http.Request
			if c.method == "GET" {
				q := `{ user(username: "nobody") { name } }`
				if c.body == "mutation" {
					q = `mutation { createUser(input: {username: "getter", name: "G"}) { username } }`
				}
				req, _ = http.NewRequest(http.MethodGet, srv.URL+"/graphql?query="+url.QueryEscape(q), nil)
			} else {
				req, _ = http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewBufferString(c.body))
				req.Header.Set("Content-Type", "application/json")
			}
			if c.accept != "" {
				req.Header.Set("Accept", c.accept)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != c.want || resp.Header.Get("Allow") != c.allow {
				t.Fatalf("status %d, Allow %q; want %d, %q", resp.StatusCode, resp.Header.Get("Allow"), c.want, c.allow)
			}
			if c.method == "GET" && c.body == "mutation" {
				return
			}
			var body map[string]json.RawMessage
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("body: %v", err)
			}
			if _, ok := body["data"]; ok != c.hasData {
				t.Errorf("data entry present: %v, want %v (body %v)", ok, c.hasData, body)
			}
			if _, ok := body["errors"]; !ok && !c.hasData {
				t.Errorf("no errors in the answer to a failed request: %v", body)
			}
		})
	}
}
