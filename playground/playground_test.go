package playground_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/playground"
)

func get(t *testing.T, srv *httptest.Server, path string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	// A Transport that does not ask for gzip itself, so the test sees what the server sends.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatalf("GET %s: bad gzip: %v", path, err)
		}
		r = zr
	}
	body, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

var refPattern = regexp.MustCompile(`(?:src|href)="([^"]*)"`)

func TestHandler_Index(t *testing.T) {
	srv := httptest.NewServer(playground.Handler("/graphql"))
	defer srv.Close()

	resp, page := get(t, srv, "/", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /: status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("GET /: Content-Type %q", ct)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for _, bad := range []string{"unsafe-eval", "unsafe-inline", "http:", "https:", "*"} {
		if strings.Contains(csp, bad) {
			t.Errorf("CSP %q allows %q", csp, bad)
		}
	}
	if !strings.Contains(page, "<title>quickphotos</title>") {
		t.Error("index.html has no title quickphotos")
	}
	if !strings.Contains(page, `<meta name="graphql-endpoint" content="/graphql">`) {
		t.Error("index.html does not name the endpoint /graphql")
	}
	if regexp.MustCompile(`<script>|<script [^>]*>[^<]+</script>| style=`).MatchString(page) {
		t.Error("index.html has an inline script or style")
	}

	base, _ := url.Parse(srv.URL + "/")
	refs := refPattern.FindAllStringSubmatch(page, -1)
	if len(refs) < 5 {
		t.Fatalf("index.html references %d assets, want the 2 stylesheets and 4 scripts at least", len(refs))
	}
	wantTypes := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	for _, ref := range refs {
		if strings.HasPrefix(ref[1], "data:") {
			continue
		}
		u, err := base.Parse(ref[1])
		if err != nil {
			t.Fatalf("bad reference %q: %v", ref[1], err)
		}
		if u.Host != base.Host {
			t.Errorf("index.html references %q on another host", ref[1])
			continue
		}
		for _, enc := range []string{"", "gzip"} {
			resp, body := get(t, srv, u.Path, http.Header{"Accept-Encoding": {enc}})
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s (Accept-Encoding %q): status %d", u.Path, enc, resp.StatusCode)
				continue
			}
			ext := u.Path[strings.LastIndex(u.Path, "."):]
			if ct := resp.Header.Get("Content-Type"); ct != wantTypes[ext] {
				t.Errorf("GET %s: Content-Type %q, want %q", u.Path, ct, wantTypes[ext])
			}
			if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
				t.Errorf("GET %s: Cache-Control %q, want immutable", u.Path, cc)
			}
			if resp.Header.Get("ETag") == "" {
				t.Errorf("GET %s: no ETag", u.Path)
			}
			if len(body) < 100 {
				t.Errorf("GET %s: only %d bytes", u.Path, len(body))
			}
			if enc == "gzip" && ext == ".js" && len(body) > 10000 && resp.Header.Get("Content-Encoding") != "gzip" {
				t.Errorf("GET %s: not gzip-encoded though asked", u.Path)
			}
		}
	}
}

func TestHandler_AssetCaching(t *testing.T) {
	srv := httptest.NewServer(playground.Handler("/graphql"))
	defer srv.Close()
	_, page := get(t, srv, "/", nil)
	var js string
	for _, ref := range refPattern.FindAllStringSubmatch(page, -1) {
		if strings.HasSuffix(ref[1], "/playground.js") {
			js = "/" + ref[1]
		}
	}
	if js == "" {
		t.Fatal("index.html does not load playground.js")
	}

	t.Run("NotModified", func(t *testing.T) {
		resp, _ := get(t, srv, js, nil)
		etag := resp.Header.Get("ETag")
		resp, body := get(t, srv, js, http.Header{"If-None-Match": {etag}})
		if resp.StatusCode != http.StatusNotModified || body != "" {
			t.Errorf("If-None-Match %s: status %d with %d bytes, want 304", etag, resp.StatusCode, len(body))
		}
	})
	t.Run("Unversioned", func(t *testing.T) {
		resp, _ := get(t, srv, "/playground/playground.js", nil)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("status %d, Cache-Control %q; want 200, no-cache", resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, path := range []string{"/playground/0123456789abcdef/playground.js", "/playground/nope.js", "/index.html", "/graphql"} {
			if resp, _ := get(t, srv, path, nil); resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: status %d, want 404", path, resp.StatusCode)
			}
		}
	})
	t.Run("ErrMethod", func(t *testing.T) {
		resp, err := http.Post(srv.URL+"/", "text/plain", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST /: status %d, want 405", resp.StatusCode)
		}
	})
}

func TestHandler_AbsoluteEndpoint(t *testing.T) {
	srv := httptest.NewServer(playground.Handler("https://api.example.com/graphql"))
	defer srv.Close()
	resp, _ := get(t, srv, "/", nil)
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' https://api.example.com;") {
		t.Errorf("CSP %q does not allow the endpoint's origin", csp)
	}
}
