package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestAmbiguousRequestJSONIsRefused: a request that one JSON reader (a proxy, a firewall, a
// log) could read as a harmless query while gqlgen runs a mutation is refused with 400 and
// BAD_USER_INPUT before anything runs.
func TestAmbiguousRequestJSONIsRefused(t *testing.T) {
	var log apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithStoreObserver(&log))
	const mutation = `mutation { createUser(input: {username: \"mallory\"}) { username } }`
	const query = `{ user(username: \"alice\") { name } }`
	for name, tc := range map[string]struct{ body, says string }{
		"DuplicateQuery":      {`{"query": "` + query + `", "query": "` + mutation + `"}`, `the key "query" twice`},
		"QueryInOtherCase":    {`{"query": "` + query + `", "Query": "` + mutation + `"}`, `spell it "query"`},
		"DuplicateVariable":   {`{"query": "mutation($u: ID!) { createUser(input: {username: $u}) { username } }", "variables": {"u": "alice", "u": "mallory"}}`, `the key "u" twice in variables`},
		"DuplicateInputField": {`{"query": "mutation($in: CreateUserInput!) { createUser(input: $in) { username } }", "variables": {"in": {"username": "alice", "username": "mallory"}}}`, `the key "username" twice in variables.in`},
		"SecondValue":         {`{"query": "` + query + `"} {"query": "` + mutation + `"}`, `more than one JSON value`},
		"DuplicateExtension":  {`{"query": "` + mutation + `", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "a", "sha256Hash": "b"}}}`, `"sha256Hash" twice in extensions.persistedQuery`},
		"ExtensionInCase":     {`{"query": "` + mutation + `", "extensions": {"persistedQuery": {"version": 1, "Version": 2}}}`, `differ only in case`},
	} {
		t.Run(name, func(t *testing.T) {
			resp := postRaw(t, srv.URL, []byte(tc.body), nil)
			if resp.Status != http.StatusBadRequest || resp.Code() != "BAD_USER_INPUT" {
				t.Fatalf("status %d code %q %+v, want 400 BAD_USER_INPUT", resp.Status, resp.Code(), resp.Errors)
			}
			if !strings.Contains(resp.Errors[0].Message, tc.says) {
				t.Errorf("message %q, want it to say %q", resp.Errors[0].Message, tc.says)
			}
		})
	}
	if reqs := log.Requests(); len(reqs) != 0 {
		t.Errorf("refused requests sent DynamoDB requests: %v", reqs)
	}
	if srv.ItemCount(t) != 0 {
		t.Error("a refused request wrote")
	}
}

func TestAmbiguousGETParametersAreRefused(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	const query = `query($u: ID!) { user(username: $u) { username } }`
	const q1 = `{ user(username: "alice") { username } }`
	sum := sha256.Sum256([]byte(q1))
	hash := hex.EncodeToString(sum[:])
	for name, tc := range map[string]struct{ params, says string }{
		"QueryTwice":          {"query=" + url.QueryEscape(q1) + "&query=" + url.QueryEscape(`{ user(username: "bob") { username } }`), "the query parameter is given 2 times"},
		"VariablesTwice":      {"query=" + url.QueryEscape(query) + "&variables=" + url.QueryEscape(`{"u": "alice"}`) + "&variables=" + url.QueryEscape(`{"u": "bob"}`), "the variables parameter is given 2 times"},
		"DuplicateVariable":   {"query=" + url.QueryEscape(query) + "&variables=" + url.QueryEscape(`{"u": "alice", "u": "bob"}`), `the variables parameter has the key "u" twice`},
		"DuplicatePersisted":  {"extensions=" + url.QueryEscape(`{"persistedQuery": {"version": 1, "sha256Hash": "`+hash+`", "sha256Hash": "x"}}`), `the extensions parameter has the key "sha256Hash" twice in persistedQuery`},
		"PersistedInCase":     {"extensions=" + url.QueryEscape(`{"persistedQuery": {"version": 1, "sha256Hash": "`+hash+`", "SHA256Hash": "x"}}`), `differ only in case`},
		"VariablesTwoObjects": {"query=" + url.QueryEscape(query) + "&variables=" + url.QueryEscape(`{"u": "alice"} {"u": "bob"}`), "more than one JSON value"},
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?"+tc.params, nil)
			resp := send(t, req)
			if resp.Status != http.StatusBadRequest || resp.Code() != "BAD_USER_INPUT" || !strings.Contains(resp.Errors[0].Message, tc.says) {
				t.Fatalf("status %d code %q %+v, want 400 BAD_USER_INPUT saying %q", resp.Status, resp.Code(), resp.Errors, tc.says)
			}
		})
	}
	// The unambiguous forms still run.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?query="+url.QueryEscape(query)+"&variables="+url.QueryEscape(`{"u": "alice"}`), nil)
	if resp := send(t, req); string(resp.Data) != `{"user":{"username":"alice"}}` {
		t.Fatalf("GET with variables: %s %+v", resp.Data, resp.Errors)
	}
}
