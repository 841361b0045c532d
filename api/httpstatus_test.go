package api_test

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"

	"github.com/quickphotos/quickphotos/internal/apitest"
)

// TestGraphQLOverHTTP_Status: the status codes the GraphQL over HTTP specification asks for,
// by the response type the client accepts.
func TestGraphQLOverHTTP_Status(t *testing.T) {
	srv := apitest.NewServer(t)
	for _, c := range []struct {
		name, method, accept, body string
		want                       int
		allow                      string
	}{
		{"a validation error under application/json", "POST", "application/json", `{"query":"{ nope }"}`, http.StatusOK, ""},
		{"a validation error with no Accept", "POST", "", `{"query":"{ nope }"}`, http.StatusOK, ""},
		{"a parse error under application/json", "POST", "application/json", `{"query":"{ user("}`, http.StatusOK, ""},
		{"a validation error under graphql-response+json", "POST", "application/graphql-response+json", `{"query":"{ nope }"}`, http.StatusBadRequest, ""},
		{"no document under application/json", "POST", "application/json", `{"variables":{}}`, http.StatusBadRequest, ""},
		{"a query over GET", "GET", "application/json", "", http.StatusOK, ""},
		{"a mutation over GET", "GET", "application/json", "mutation", http.StatusMethodNotAllowed, "POST"},
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
			resp.Body.Close()
			if resp.StatusCode != c.want || resp.Header.Get("Allow") != c.allow {
				t.Fatalf("status %d, Allow %q; want %d, %q", resp.StatusCode, resp.Header.Get("Allow"), c.want, c.allow)
			}
		})
	}
}
