package api_test

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestTransportRefusals_CarryACode: every request the endpoint refuses for how it was sent
// rather than for its operation is answered in GraphQL's error shape with an extensions.code,
// whichever transport read it: a GET's parameters that are not JSON, or not the JSON object
// GraphQL wants, a POST body likewise (BAD_USER_INPUT, as any request JSON refused), a query
// string that is not one, a request with no document or naming an operation it lacks, a
// mutation sent with GET, a body that is not JSON at all (BAD_REQUEST).
func TestTransportRefusals_CarryACode(t *testing.T) {
	srv := apitest.NewServer(t)
	const query = `{ user(username: "alice") { username } }`
	get := func(rawQuery string) *http.Request {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?"+rawQuery, nil)
		return req
	}
	post := func(body, contentType string) *http.Request {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+api.Endpoint, bytes.NewReader([]byte(body)))
		req.Header.Set("Content-Type", contentType)
		return req
	}
	sse := func(body string) *http.Request {
		req := post(body, "application/json")
		req.Header.Set("Accept", "text/event-stream")
		return req
	}
	q := "query=" + url.QueryEscape(query)
	for _, tc := range []struct {
		name   string
		req    *http.Request
		status int
		code   string
	}{
		{"GET variables not JSON", get(q + "&variables=" + url.QueryEscape(`{u: alice}`)), 400, "BAD_USER_INPUT"},
		{"GET variables not an object", get(q + "&variables=" + url.QueryEscape(`["alice"]`)), 400, "BAD_USER_INPUT"},
		{"GET variables a string", get(q + "&variables=" + url.QueryEscape(`"{}"`)), 400, "BAD_USER_INPUT"},
		{"GET extensions not JSON", get(q + "&extensions=" + url.QueryEscape(`{persistedQuery`)), 400, "BAD_USER_INPUT"},
		{"GET extensions not an object", get(q + "&extensions=5"), 400, "BAD_USER_INPUT"},
		{"GET query string not one", get(q + "&variables=%zz"), 400, "BAD_USER_INPUT"},
		{"GET no query", get("operationName=Q"), 400, "GRAPHQL_VALIDATION_FAILED"},
		{"GET operationName not in the document", get(q + "&operationName=Other"), 200, "GRAPHQL_VALIDATION_FAILED"},
		{"GET mutation", get("query=" + url.QueryEscape(`mutation { createUser(input: {username: "mallory"}) { username } }`)), 405, "BAD_REQUEST"},
		{"POST body not JSON", post(`{"query": `, "application/json"), 400, "BAD_USER_INPUT"},
		{"POST body not an object", post(`["`+query+`"]`, "application/json"), 400, "BAD_USER_INPUT"},
		{"POST variables not an object", post(`{"query": "{ __typename }", "variables": 5}`, "application/json"), 400, "BAD_USER_INPUT"},
		{"POST extensions not an object", post(`{"query": "{ __typename }", "extensions": []}`, "application/json"), 400, "BAD_USER_INPUT"},
		{"POST operationName not a string", post(`{"query": "{ __typename }", "operationName": 5}`, "application/json"), 400, "BAD_USER_INPUT"},
		{"POST operationName not in the document", post(`{"query": "{ __typename }", "operationName": "Other"}`, "application/json"), 200, "GRAPHQL_VALIDATION_FAILED"},
		{"POST no query", post(`{}`, "application/json"), 400, "GRAPHQL_VALIDATION_FAILED"},
		{"POST not JSON", post(`query=x`, "application/x-www-form-urlencoded"), 415, "BAD_REQUEST"},
		{"Server-Sent Events body not JSON", sse(`{"query": `), 400, "BAD_USER_INPUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := send(t, tc.req)
			if resp.Status != tc.status || len(resp.Errors) == 0 || resp.Code() != tc.code {
				t.Errorf("status %d, code %q, errors %+v; want %d and %s", resp.Status, resp.Code(), resp.Errors, tc.status, tc.code)
			}
		})
	}
}
