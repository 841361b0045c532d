package api_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/live"
)

// The manifest of these tests: one query and one subscription, keyed as Codegen writes them
// (bare hex) and in the sha256: form.
const (
	trustedQuery        = "query Typename { __typename }"
	trustedSubscription = "subscription Changed($u: ID!) { userChanged(username: $u) { kind } }"
	trustedCreate       = `mutation Create($u: ID!) { createUser(input: {username: $u, name: "Gus"}) { username } }`
	// rawQuery is not in the manifest.
	rawQuery = "query Raw { __typename }"
)

func hashOf(doc string) string {
	sum := sha256.Sum256([]byte(doc))
	return hex.EncodeToString(sum[:])
}

func trustedManifest(t testing.TB) *api.TrustedDocuments {
	t.Helper()
	manifest, _ := json.Marshal(map[string]string{
		hashOf(trustedQuery):                    trustedQuery,
		"sha256:" + hashOf(trustedSubscription): trustedSubscription,
		hashOf(trustedCreate):                   trustedCreate,
	})
	docs, err := api.ParseTrustedDocuments(manifest)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func post(base string, body map[string]any) *http.Request {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, base+api.Endpoint, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	return req
}

func trustedServer(t testing.TB, mode api.TrustedDocumentsMode, opts ...apitest.Option) *apitest.Server {
	t.Helper()
	return apitest.NewServer(t, append(opts, apitest.WithConfig(func(c *api.Config) {
		c.TrustedDocumentsMode = mode
		if mode != api.TrustedOff {
			c.TrustedDocuments = trustedManifest(t)
		}
	}))...)
}

// TestTrustedDocuments: every kind of request under every mode, through the HTTP handler,
// answered with the status and code docs/api.md gives.
func TestTrustedDocuments(t *testing.T) {
	apq := func(hash string) map[string]any {
		return map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}
	}
	post := func(body map[string]any) func(string) *http.Request {
		return func(base string) *http.Request { return post(base, body) }
	}
	get := func(params url.Values) func(string) *http.Request {
		return func(base string) *http.Request {
			req, _ := http.NewRequest(http.MethodGet, base+api.Endpoint+"?"+params.Encode(), nil)
			return req
		}
	}
	id := "sha256:" + hashOf(trustedQuery)
	unknown := "sha256:" + strings.Repeat("0", 64)

	// want is the status and code under off, allow and enforce; a code "" is the query's data.
	type want struct {
		status int
		code   string
	}
	ran := want{http.StatusOK, ""}
	notFound := want{http.StatusBadRequest, "PERSISTED_DOCUMENT_NOT_FOUND"}
	required := want{http.StatusForbidden, "PERSISTED_DOCUMENT_REQUIRED"}
	malformed := want{http.StatusBadRequest, "BAD_USER_INPUT"}
	disagree := want{http.StatusBadRequest, "BAD_REQUEST"}
	cases := []struct {
		name                string
		req                 func(base string) *http.Request
		off, allow, enforce want
	}{
		{"raw query by POST", post(map[string]any{"query": rawQuery}), ran, ran, required},
		{"raw query by GET", get(url.Values{"query": {rawQuery}}), ran, ran, required},
		{"raw introspection", post(map[string]any{"query": "{ __schema { queryType { name } } }"}), ran, ran, required},
		{"known id by POST", post(map[string]any{"documentId": id}), notFound, ran, ran},
		{"known id by GET", get(url.Values{"documentId": {id}}), notFound, ran, ran},
		{"known id with its operation name and variables", post(map[string]any{"documentId": id, "operationName": "Typename", "variables": map[string]any{}}), notFound, ran, ran},
		{"mutation's id by GET", get(url.Values{"documentId": {"sha256:" + hashOf(trustedCreate)}, "variables": {`{"u":"g"}`}}), notFound, want{http.StatusMethodNotAllowed, "BAD_REQUEST"}, want{http.StatusMethodNotAllowed, "BAD_REQUEST"}},
		{"unknown id", post(map[string]any{"documentId": unknown}), notFound, notFound, notFound},
		{"unknown id by GET", get(url.Values{"documentId": {unknown}}), notFound, notFound, notFound},
		{"id not hex", post(map[string]any{"documentId": "sha256:xyz"}), malformed, malformed, malformed},
		{"id in upper case", post(map[string]any{"documentId": "sha256:" + strings.ToUpper(hashOf(trustedQuery))}), malformed, malformed, malformed},
		{"id without its prefix", post(map[string]any{"documentId": hashOf(trustedQuery)}), malformed, malformed, malformed},
		{"md5 id", post(map[string]any{"documentId": "md5:0cc175b9c0f1b6a831c399e269772661"}), malformed, malformed, malformed},
		{"md5 id by GET", get(url.Values{"documentId": {"md5:0cc175b9c0f1b6a831c399e269772661"}}), malformed, malformed, malformed},
		{"id not a string", post(map[string]any{"documentId": 7}), malformed, malformed, malformed},
		{"id spelt in another case", post(map[string]any{"documentID": id}), malformed, malformed, malformed},
		{"id given twice by GET", get(url.Values{"documentId": {id, id}}), malformed, malformed, malformed},
		{"query and its own id", post(map[string]any{"query": trustedQuery, "documentId": id}), notFound, ran, ran},
		{"query and another's id", post(map[string]any{"query": rawQuery, "documentId": id}), disagree, disagree, disagree},
		{"id and a persisted query extension", post(map[string]any{"documentId": id, "extensions": apq(hashOf(trustedQuery))}), disagree, disagree, disagree},
		{"APQ registration", post(map[string]any{"query": rawQuery, "extensions": apq(hashOf(rawQuery))}), ran, ran, required},
		{"APQ hash of a trusted document", post(map[string]any{"extensions": apq(hashOf(trustedQuery))}), want{http.StatusOK, "PERSISTED_QUERY_NOT_FOUND"}, ran, ran},
		{"APQ hash of another document", post(map[string]any{"extensions": apq(hashOf("{ x }"))}), want{http.StatusOK, "PERSISTED_QUERY_NOT_FOUND"}, want{http.StatusOK, "PERSISTED_QUERY_NOT_FOUND"}, notFound},
	}
	modes := []api.TrustedDocumentsMode{api.TrustedOff, api.TrustedAllow, api.TrustedEnforce}
	for _, mode := range modes {
		srv := trustedServer(t, mode)
		for _, tc := range cases {
			t.Run(string(mode)+"/"+tc.name, func(t *testing.T) {
				w := map[api.TrustedDocumentsMode]want{api.TrustedOff: tc.off, api.TrustedAllow: tc.allow, api.TrustedEnforce: tc.enforce}[mode]
				resp := send(t, tc.req(srv.URL))
				if resp.Status != w.status || resp.Code() != w.code {
					t.Fatalf("status %d, code %q, want %d %q: %s %+v", resp.Status, resp.Code(), w.status, w.code, resp.Data, resp.Errors)
				}
				if w.code == "" && !strings.Contains(string(resp.Data), `"Query"`) {
					t.Errorf("data %s, want the query's", resp.Data)
				}
				if w.code != "" && w.status != http.StatusOK && resp.Data != nil {
					t.Errorf("a refused request answered data %s", resp.Data)
				}
			})
		}
	}
}

// TestTrustedDocuments_Playground: under enforce the playground is not served, since it sends
// raw queries; under allow it is.
func TestTrustedDocuments_Playground(t *testing.T) {
	for mode, status := range map[api.TrustedDocumentsMode]int{api.TrustedAllow: http.StatusOK, api.TrustedEnforce: http.StatusNotFound} {
		srv := trustedServer(t, mode)
		resp, err := http.Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != status {
			t.Errorf("%s: GET / answered %d, want %d", mode, resp.StatusCode, status)
		}
	}
}

// TestTrustedDocuments_Subscriptions: under enforce a raw subscription is refused over
// graphql-ws and Server-Sent Events; a trusted one runs, named by its hash in the subscribe
// message's extensions (graphql-ws) or by documentId (SSE); an id on the WebSocket's upgrade
// is refused.
func TestTrustedDocuments_Subscriptions(t *testing.T) {
	srv := trustedServer(t, api.TrustedEnforce, apitest.WithLive(live.Config{}))
	vars := map[string]any{"u": "gus"}

	ws := srv.DialWS(t, "")
	if code := ws.SubscribeRefused(t, "raw", trustedSubscription, vars); code != "PERSISTED_DOCUMENT_REQUIRED" {
		t.Errorf("a raw subscription over graphql-ws: code %q", code)
	}
	ws.Close()

	// A subscribe message naming its document by hash, as Apollo's persisted query link sends it.
	ctx, cancel := context.WithTimeout(context.Background(), apitest.LiveTimeout)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+api.Endpoint, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(websocket.StatusNormalClosure, "")
	type msg struct {
		ID      string          `json:"id,omitempty"`
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload,omitempty"`
	}
	exchange := func(m msg) msg {
		t.Helper()
		if err := wsjson.Write(ctx, conn, m); err != nil {
			t.Fatal(err)
		}
		for {
			var got msg
			if err := wsjson.Read(ctx, conn, &got); err != nil {
				t.Fatal(err)
			}
			if got.Type != "ping" {
				return got
			}
		}
	}
	if got := exchange(msg{Type: "connection_init"}); got.Type != "connection_ack" {
		t.Fatalf("connection_init answered %+v", got)
	}
	for id, payload := range map[string]map[string]any{
		"by documentId": {"documentId": "sha256:" + hashOf(trustedSubscription), "variables": vars},
		"by persisted query hash": {"variables": vars, "extensions": map[string]any{
			"persistedQuery": map[string]any{"version": 1, "sha256Hash": hashOf(trustedSubscription)}}},
	} {
		p, _ := json.Marshal(payload)
		if err := wsjson.Write(ctx, conn, msg{ID: id, Type: "subscribe", Payload: p}); err != nil {
			t.Fatal(err)
		}
	}
	// graphql-ws acknowledges no subscription: wait until the hub holds both.
	apitest.Eventually(t, "both subscriptions started", func() (bool, string) {
		n := srv.Hub().Stats().Subscriptions
		return n >= 2, fmt.Sprintf("%d subscriptions", n)
	})
	created := send(t, post(srv.URL, map[string]any{"documentId": "sha256:" + hashOf(trustedCreate), "variables": vars}))
	if len(created.Errors) > 0 {
		t.Fatalf("createUser by documentId: %+v", created.Errors)
	}
	for got := map[string]bool{}; len(got) < 2; {
		var m msg
		if err := wsjson.Read(ctx, conn, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "ping" {
			continue
		}
		if m.Type != "next" || !strings.Contains(string(m.Payload), `"kind"`) {
			t.Fatalf("the trusted subscription %q answered %s %s", m.ID, m.Type, m.Payload)
		}
		got[m.ID] = true
	}

	bad, _ := json.Marshal(map[string]any{"documentId": "md5:0cc175b9c0f1b6a831c399e269772661"})
	if got := exchange(msg{ID: "bad", Type: "subscribe", Payload: bad}); got.Type != "error" || !strings.Contains(string(got.Payload), "BAD_USER_INPUT") {
		t.Errorf("a malformed documentId over graphql-ws answered %s %s", got.Type, got.Payload)
	}

	if resp := sseResponse(t, srv, trustedSubscription); resp.Code() != "PERSISTED_DOCUMENT_REQUIRED" {
		t.Errorf("a raw subscription over SSE: code %q %+v", resp.Code(), resp.Errors)
	}

	upgrade, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+api.Endpoint+"?documentId=sha256:"+hashOf(trustedSubscription), &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err == nil {
		upgrade.Close(websocket.StatusNormalClosure, "")
		t.Error("a WebSocket upgrade with a documentId was accepted")
	}
}

// TestParseTrustedDocuments: a manifest is taken in the form Codegen writes (bare hex keys) and
// in the sha256: form; a bad entry is refused, named, with what is wrong with it.
func TestParseTrustedDocuments(t *testing.T) {
	const doc = "query Typename { __typename }"
	entry := func(key, doc string) string {
		b, _ := json.Marshal(map[string]string{key: doc})
		return string(b)
	}
	cases := []struct {
		name, manifest, wantErr string
	}{
		{"bare hex, as Codegen writes it", entry(hashOf(doc), doc), ""},
		{"sha256: prefix", entry("sha256:"+hashOf(doc), doc), ""},
		{"hash of another text", entry(hashOf(doc+" "), doc), `entry "` + hashOf(doc+" ") + `": the document's sha256 is ` + hashOf(doc)},
		{"upper-case hash", entry(strings.ToUpper(hashOf(doc)), doc), "is not a sha256 hash"},
		{"md5 key", entry("md5:0cc175b9c0f1b6a831c399e269772661", doc), `entry "md5:0cc175b9c0f1b6a831c399e269772661": the key is not a sha256 hash`},
		{"does not parse", entry(hashOf("query {"), "query {"), `entry "` + hashOf("query {") + `": the document does not parse and validate`},
		{"does not validate", entry(hashOf("{ nope }"), "{ nope }"), `Cannot query field "nope"`},
		{"empty", `{}`, "holds no documents"},
		{"not an object of strings", `{"a": 1}`, "not a JSON object of hashes to documents"},
		{"a key twice", `{"` + hashOf(doc) + `": "` + doc + `", "` + hashOf(doc) + `": "` + doc + `"}`, "twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := api.ParseTrustedDocuments([]byte(tc.manifest))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr == "" && docs.Len() != 1:
				t.Fatalf("%d documents, want 1", docs.Len())
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
			}
		})
	}
}

// TestTrustedDocuments_NoMutationByGETForServerSentEvents: a GET that asks for Server-Sent
// Events and names a mutation by its id is refused with 405 before it runs, as a GET naming
// one by its text is: whether it is a mutation is known only once the document is found.
func TestTrustedDocuments_NoMutationByGETForServerSentEvents(t *testing.T) {
	for _, mode := range []api.TrustedDocumentsMode{api.TrustedAllow, api.TrustedEnforce} {
		t.Run(string(mode), func(t *testing.T) {
			srv := trustedServer(t, mode, apitest.WithLive(live.Config{}))
			params := url.Values{"documentId": {"sha256:" + hashOf(trustedCreate)}, "variables": {`{"u":"sse"}`}}
			req, _ := http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?"+params.Encode(), nil)
			req.Header.Set("Accept", "text/event-stream")
			if resp := sendRequest(t, req); resp.Status != http.StatusMethodNotAllowed || resp.Code() != "BAD_REQUEST" {
				t.Fatalf("answered %d %+v, want 405 BAD_REQUEST", resp.Status, resp.Errors)
			}
			if users, err := srv.Store.GetUsers(t.Context(), []string{"sse"}, nil); err != nil || len(users) != 0 {
				t.Fatalf("the mutation ran: %v %v", users, err)
			}
		})
	}
}

// TestTrustedDocuments_AnEscapedKeyIsTheKey: a documentId whose key is written with a JSON
// escape is the documentId, as every JSON reader of the body reads it.
func TestTrustedDocuments_AnEscapedKeyIsTheKey(t *testing.T) {
	srv := trustedServer(t, api.TrustedEnforce)
	body := []byte(`{"document\u0049d": "sha256:` + hashOf(trustedQuery) + `"}`)
	if resp := postRaw(t, srv.URL, body, nil); resp.Status != http.StatusOK || len(resp.Errors) > 0 {
		t.Fatalf("answered %d %+v, want the trusted document's data", resp.Status, resp.Errors)
	}
}
