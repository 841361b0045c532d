package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/sample"
)

// An operation's answer goes out with its Content-Length, not chunked, however long it is; a
// request error's answer, whose status and body overHTTPStatus rewrites, still arrives whole.
func TestPost_AnswerHasItsLength(t *testing.T) {
	srv := apitest.NewServer(t)
	data := sample.Generate(sample.Config{Users: 30, Seed: 1})
	srv.WriteRaw(t, *data)
	owner := data.Photos[0].Owner
	for _, tc := range []struct {
		name, body string
		status     int
		longer     int // the answer is longer than this
	}{
		{"a short answer", `{"query":"{ user(username: \"` + owner + `\") { username } }"}`, http.StatusOK, 0},
		{"an answer past net/http's 2 KB", `{"query":"{ user(username: \"` + owner + `\") { photos(first: 50) { edges { cursor node { timestamp url } } } } }"}`, http.StatusOK, 2048},
		{"an answer with an error", `{"query":"{ user(username: \"no#one\") { name } }"}`, http.StatusOK, 0},
		{"a request error", `{"variables":{}}`, http.StatusBadRequest, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewBufferString(tc.body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("reading the answer: %v", err)
			}
			if resp.StatusCode != tc.status || !json.Valid(body) || len(body) <= tc.longer {
				t.Fatalf("status %d, %d bytes: %s", resp.StatusCode, len(body), body)
			}
			if len(resp.TransferEncoding) > 0 || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("Transfer-Encoding %v, Content-Length %q, for %d bytes", resp.TransferEncoding, resp.Header.Get("Content-Length"), len(body))
			}
		})
	}
}
