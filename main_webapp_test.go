package main

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/web"
)

// TestServe_WebApp: serve prints the web app's address and serves it there, and runs the app's
// documents by id beside raw queries (the default: allow, with the app's manifest).
func TestServe_WebApp(t *testing.T) {
	lines := startCommand(t, "web app at", "serve", "--addr", "127.0.0.1:0", "--in-memory")
	last := lines[len(lines)-1]
	app := regexp.MustCompile(`http://127\.0\.0\.1:\d+` + regexp.QuoteMeta(web.Prefix)).FindString(last)
	if app == "" {
		t.Fatalf("no web app address in %q", last)
	}
	base := strings.TrimSuffix(app, web.Prefix)
	resp, err := http.Get(app)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), `<div id="root">`) {
		t.Fatalf("GET %s: %d %.200s", app, resp.StatusCode, page)
	}
	// Through the server's middleware too, a browser holding the page revalidates it for nothing.
	req, _ := http.NewRequest(http.MethodGet, app, nil)
	req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
	if again, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else if again.Body.Close(); resp.Header.Get("ETag") == "" || again.StatusCode != http.StatusNotModified {
		t.Errorf("GET %s with its ETag %q: %d, want 304", app, resp.Header.Get("ETag"), again.StatusCode)
	}
	// The path without its final "/" leads to the app.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if r, err := noRedirect.Get(strings.TrimSuffix(app, "/")); err != nil {
		t.Fatal(err)
	} else if r.Body.Close(); r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != web.Prefix {
		t.Errorf("GET %s: %d to %q, want 301 to %s", strings.TrimSuffix(app, "/"), r.StatusCode, r.Header.Get("Location"), web.Prefix)
	}
	id := appDocumentID(t, "Profile")
	if code := graphqlCode(t, base, "", `{"documentId":"`+id+`","variables":{"username":"nobody"}}`); code != "" {
		t.Errorf("the app's Profile by its id: %q", code)
	}
	if code := graphqlCode(t, base, "", `{"query":"{ __typename }"}`); code != "" {
		t.Errorf("a raw query beside the app's documents: %q", code)
	}
}

// TestServe_WebAppOverTheLimits: query limits tighter than the app's documents leave the
// server as it was without the app (trusted documents off), saying the app cannot run, rather
// than refusing to start.
func TestServe_WebAppOverTheLimits(t *testing.T) {
	lines := startCommand(t, "trusted documents:", "serve", "--addr", "127.0.0.1:0", "--in-memory", "--max-tokens", "20")
	if last := lines[len(lines)-1]; !strings.Contains(last, "off: the web app cannot run, as the query limits refuse its documents") {
		t.Fatalf("start-up says %q", last)
	}
}

// appDocumentID is the document id of the web app's operation named name.
func appDocumentID(t *testing.T, name string) string {
	t.Helper()
	var docs map[string]string
	if err := json.Unmarshal(web.Manifest(), &docs); err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`(^|\s)query ` + name + `[\s({]`)
	for id, text := range docs {
		if named.MatchString(text) {
			return id
		}
	}
	t.Fatalf("the web app has no query %s", name)
	return ""
}
