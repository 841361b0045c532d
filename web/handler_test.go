package web_test

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/quickphotos/quickphotos/internal/testkit/contentcoding"
	"github.com/quickphotos/quickphotos/web"
)

const (
	revalidated = "no-cache"
	immutable   = "public, max-age=31536000, immutable"
)

// strongETag is an entity tag without W/: one that promises the same bytes.
var strongETag = regexp.MustCompile(`^"[\x21\x23-\x7e]+"$`)

// appServer serves web.Handler, built from the embedded dist, as `serve` mounts it.
func appServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	return srv
}

// do sends method path with the headers given as name, value pairs, and returns the
// response with its body read.
func do(t *testing.T, srv *httptest.Server, method, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// client does not ask for gzip by itself (as http.DefaultTransport does, decoding the answer
// out of sight), so that the tests see the bytes the server sends and ask for gzip when they mean to.
var client = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// appFile is a file of the build with what serving it must say.
type appFile struct {
	path         string // requested
	file         string // in dist
	contentType  string
	cacheControl string
	csp          bool
}

// appFiles is every file of dist, and the page at Prefix itself, with what serving each must
// say: the hashed assets are immutable, the rest (the page, the service worker) revalidated.
func appFiles(t *testing.T) []appFile {
	t.Helper()
	files := []appFile{{path: web.Prefix, file: "index.html", contentType: contentTypes[".html"], cacheControl: revalidated, csp: true}}
	for _, name := range distFiles(t) {
		f := appFile{path: web.Prefix + name, file: name, cacheControl: revalidated, csp: name == "index.html"}
		if strings.HasPrefix(name, "assets/") {
			f.cacheControl = immutable
		}
		var ok bool
		if f.contentType, ok = contentTypes[path.Ext(name)]; !ok {
			t.Fatalf("dist/%s: the test expects no type of %q files: add it to contentTypes", name, path.Ext(name))
		}
		files = append(files, f)
	}
	return files
}

// contentTypes are the types the files of dist are served with, by extension.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

// distFiles is the name of every file of dist, after checking it holds a build: the page, the
// service worker, and the hashed script and stylesheet the page loads.
func distFiles(t *testing.T) []string {
	t.Helper()
	var names []string
	err := fs.WalkDir(os.DirFS("dist"), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, pattern := range []string{"index.html", "sw.js", "assets/*.js", "assets/*.css"} {
		if !slices.ContainsFunc(names, func(name string) bool { ok, _ := path.Match(pattern, name); return ok }) {
			t.Fatalf("dist has no %s among %q", pattern, names)
		}
	}
	return names
}

// largestFile is the name of the largest file of dist: the app's script.
func largestFile(t *testing.T) (name string, data []byte) {
	t.Helper()
	for _, n := range distFiles(t) {
		if b := mustRead(t, "dist/"+n); len(b) > len(data) {
			name, data = n, b
		}
	}
	return name, data
}

// TestHandler_ServesEveryFile: each file of the build with its bytes, its type, its caching
// (hashed assets immutable, the page and the service worker revalidated), the security
// headers, and a strong ETag that is the same on every request.
func TestHandler_ServesEveryFile(t *testing.T) {
	srv := appServer(t)
	for _, f := range appFiles(t) {
		t.Run(f.path, func(t *testing.T) {
			want, err := os.ReadFile("dist/" + f.file)
			if err != nil {
				t.Fatal(err)
			}
			resp, body := do(t, srv, http.MethodGet, f.path)
			h := resp.Header
			if resp.StatusCode != http.StatusOK || !bytes.Equal(body, want) {
				t.Fatalf("%d, %d bytes; want 200 and dist/%s's %d", resp.StatusCode, len(body), f.file, len(want))
			}
			if ct := h.Get("Content-Type"); ct != f.contentType {
				t.Errorf("Content-Type %q, want %s", ct, f.contentType)
			}
			if cc := h.Get("Cache-Control"); cc != f.cacheControl {
				t.Errorf("Cache-Control %q, want %q", cc, f.cacheControl)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
				t.Errorf("X-Content-Type-Options %q, Referrer-Policy %q", h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
			}
			if csp := h.Get("Content-Security-Policy"); f.csp != strings.Contains(csp, "script-src 'self'") {
				t.Errorf("Content-Security-Policy %q, want one: %v", csp, f.csp)
			}
			etag := h.Get("ETag")
			if !strongETag.MatchString(etag) {
				t.Fatalf("ETag %q, want a strong one", etag)
			}
			if again, _ := do(t, srv, http.MethodGet, f.path); again.Header.Get("ETag") != etag {
				t.Errorf("ETag %q, then %q", etag, again.Header.Get("ETag"))
			}
		})
	}
}

// TestHandler_ETagsDifferByContent: a file's ETag, in each encoding, follows its bytes and
// nothing else. The files of dist, whose bytes differ, have tags of their own, so a browser's
// copy of one never validates another; and of two builds, a file with other bytes under the
// same name (a new build's page) has another tag, while the same bytes have the same tag under
// another name or in another server (so servers of one build agree).
func TestHandler_ETagsDifferByContent(t *testing.T) {
	encodings := []string{"", "gzip"}
	t.Run("dist", func(t *testing.T) {
		srv := appServer(t)
		seen := map[string]string{}
		for _, f := range appFiles(t) {
			for _, enc := range encodings {
				resp, _ := do(t, srv, http.MethodGet, f.path, "Accept-Encoding", enc)
				etag, which := resp.Header.Get("ETag"), f.file+" "+resp.Header.Get("Content-Encoding")
				if !strongETag.MatchString(etag) {
					t.Fatalf("%s (Accept-Encoding %q): ETag %q, want a strong one", f.path, enc, etag)
				}
				if other, ok := seen[etag]; ok && other != which {
					t.Errorf("%q and %q share ETag %s", other, which, etag)
				}
				seen[etag] = which
			}
		}
	})
	t.Run("builds", func(t *testing.T) {
		page := strings.Repeat("<p>the page</p>\n", 100)
		script := strings.Repeat("console.log('the app')\n", 100)
		one := buildServer(t, fstest.MapFS{
			"index.html":    {Data: []byte(page)},
			"sw.js":         {Data: []byte(page)},
			"assets/app.js": {Data: []byte(script)},
		})
		two := buildServer(t, fstest.MapFS{
			"index.html":    {Data: []byte(page + "<p>changed</p>\n")},
			"sw.js":         {Data: []byte(script)},
			"assets/app.js": {Data: []byte(script)},
		})
		for _, enc := range encodings {
			tag := func(srv *httptest.Server, name string) string {
				t.Helper()
				resp, _ := do(t, srv, http.MethodGet, web.Prefix+name, "Accept-Encoding", enc)
				if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != enc {
					t.Fatalf("%s: status %d, Content-Encoding %q; want 200, %q", name, resp.StatusCode, resp.Header.Get("Content-Encoding"), enc)
				}
				return resp.Header.Get("ETag")
			}
			if a, b := tag(one, "index.html"), tag(one, "sw.js"); a != b {
				t.Errorf("Accept-Encoding %q: the same bytes as index.html and sw.js, tagged %s and %s", enc, a, b)
			}
			if a, b := tag(one, "index.html"), tag(two, "index.html"); a == b {
				t.Errorf("Accept-Encoding %q: index.html of other bytes in two builds, both tagged %s", enc, a)
			}
			if a, b := tag(one, "assets/app.js"), tag(two, "assets/app.js"); a != b {
				t.Errorf("Accept-Encoding %q: assets/app.js of the same bytes in two builds, tagged %s and %s", enc, a, b)
			}
			if a, b := tag(one, "sw.js"), tag(two, "sw.js"); a == b {
				t.Errorf("Accept-Encoding %q: sw.js of other bytes in two builds, both tagged %s", enc, a)
			}
		}
	})
}

// buildServer serves the build in build as web.Handler serves dist.
func buildServer(t *testing.T, build fstest.MapFS) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(web.HandlerFor(build))
	t.Cleanup(srv.Close)
	return srv
}

// TestHandler_IfNoneMatch: a request holding the file's ETag is answered 304 with no body,
// by the weak comparison RFC 9110 §13.1.2 asks of If-None-Match (W/ is ignored), from a list
// or as "*", keeping the headers a 200 would have had for caching; any other tag gets the file.
func TestHandler_IfNoneMatch(t *testing.T) {
	srv := appServer(t)
	for _, f := range appFiles(t) {
		first, want := do(t, srv, http.MethodGet, f.path)
		etag := first.Header.Get("ETag")
		if etag == "" {
			t.Fatalf("%s: no ETag", f.path)
		}
		for _, c := range []struct {
			name, ifNoneMatch string
			want              int
		}{
			{"its ETag", etag, http.StatusNotModified},
			{"its ETag, weak", "W/" + etag, http.StatusNotModified},
			{"a list holding it", `"elsewhere", ` + etag + `, W/"more"`, http.StatusNotModified},
			{"a list holding it, no spaces", `"elsewhere",W/` + etag, http.StatusNotModified},
			{"any", "*", http.StatusNotModified},
			{"another", `"elsewhere"`, http.StatusOK},
			{"a list without it", `"elsewhere", W/"more"`, http.StatusOK},
			{"its ETag unquoted", strings.Trim(etag, `"`), http.StatusOK},
		} {
			t.Run(f.path+"/"+c.name, func(t *testing.T) {
				for _, method := range []string{http.MethodGet, http.MethodHead} {
					resp, body := do(t, srv, method, f.path, "If-None-Match", c.ifNoneMatch)
					if resp.StatusCode != c.want {
						t.Fatalf("%s: %d, want %d", method, resp.StatusCode, c.want)
					}
					wantBody := want
					if c.want == http.StatusNotModified || method == http.MethodHead {
						wantBody = nil
					}
					if !bytes.Equal(body, wantBody) {
						t.Errorf("%s: %d bytes of body, want %d", method, len(body), len(wantBody))
					}
					if resp.Header.Get("ETag") != etag || resp.Header.Get("Cache-Control") != f.cacheControl {
						t.Errorf("%s: ETag %q, Cache-Control %q; want %q, %q", method, resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"), etag, f.cacheControl)
					}
				}
			})
		}
	}
}

// TestHandler_Head: HEAD says what GET would, with no body.
func TestHandler_Head(t *testing.T) {
	srv := appServer(t)
	for _, f := range appFiles(t) {
		t.Run(f.path, func(t *testing.T) {
			get, body := do(t, srv, http.MethodGet, f.path)
			head, none := do(t, srv, http.MethodHead, f.path)
			if head.StatusCode != http.StatusOK || len(none) != 0 {
				t.Fatalf("%d with %d bytes, want 200 with none", head.StatusCode, len(none))
			}
			if head.ContentLength != int64(len(body)) {
				t.Errorf("Content-Length %d, want %d", head.ContentLength, len(body))
			}
			for _, name := range []string{"ETag", "Content-Type", "Cache-Control", "Content-Security-Policy", "X-Content-Type-Options"} {
				if head.Header.Get(name) != get.Header.Get(name) {
					t.Errorf("%s %q, GET's %q", name, head.Header.Get(name), get.Header.Get(name))
				}
			}
		})
	}
}

// TestHandler_Routes: the app routes by the URL's fragment (#/u/…), which browsers never
// send, so every screen is the page at Prefix itself (its query too); there is no fallback to
// the page for other paths: a path the build has no file for is 404, never the page in its
// place, and so is anything outside Prefix and any method but GET and HEAD.
func TestHandler_Routes(t *testing.T) {
	srv := appServer(t)
	page, err := os.ReadFile("dist/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{http.MethodGet, web.Prefix + "#/u/miawright", http.StatusOK},
		{http.MethodGet, web.Prefix + "?from=share", http.StatusOK},
		{http.MethodGet, web.Prefix + "assets/../index.html", http.StatusOK},
		{http.MethodGet, web.Prefix + "nothing.js", http.StatusNotFound},
		{http.MethodGet, web.Prefix + "assets/nothing.js", http.StatusNotFound},
		{http.MethodGet, web.Prefix + "assets/", http.StatusNotFound},
		{http.MethodGet, web.Prefix + "u/miawright", http.StatusNotFound},
		{http.MethodGet, web.Prefix + "../embed.go", http.StatusNotFound},
		{http.MethodGet, "/other", http.StatusNotFound},
		{http.MethodHead, web.Prefix + "nothing.js", http.StatusNotFound},
		{http.MethodPost, web.Prefix, http.StatusMethodNotAllowed},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			resp, body := do(t, srv, c.method, c.path)
			if resp.StatusCode != c.want {
				t.Fatalf("%d, want %d", resp.StatusCode, c.want)
			}
			switch c.want {
			case http.StatusOK:
				if !bytes.Equal(body, page) {
					t.Errorf("not the page: %.100q", body)
				}
			case http.StatusNotFound:
				if resp.Header.Get("ETag") != "" || bytes.Contains(body, []byte(`<div id="root">`)) {
					t.Errorf("the page, or an ETag (%q), for a missing file", resp.Header.Get("ETag"))
				}
			case http.StatusMethodNotAllowed:
				if resp.Header.Get("Allow") != "GET, HEAD" {
					t.Errorf("Allow %q", resp.Header.Get("Allow"))
				}
			}
		})
	}
}

// TestHandler_ServesWithoutCopying: a request for the largest file allocates far less than the
// file, as every response is written from the bytes read once, on the first request.
func TestHandler_ServesWithoutCopying(t *testing.T) {
	h := web.Handler()
	name, data := largestFile(t)
	size := int64(len(data))
	req := httptest.NewRequest(http.MethodGet, web.Prefix+name, nil)
	const n = 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		w := &discardWriter{header: http.Header{}}
		h.ServeHTTP(w, req)
		if w.status != 0 && w.status != http.StatusOK || w.written != size {
			t.Fatalf("%d, %d bytes of %d", w.status, w.written, size)
		}
	}
	runtime.ReadMemStats(&after)
	if per := int64(after.TotalAlloc-before.TotalAlloc) / n; per > size/4 {
		t.Errorf("%d bytes allocated per request for a file of %d", per, size)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// discardWriter counts what a response writes, keeping none of it.
type discardWriter struct {
	header  http.Header
	status  int
	written int64
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}
func (w *discardWriter) Write(b []byte) (int, error) {
	w.written += int64(len(b))
	return len(b), nil
}

// TestHandler_Gzip: a client that accepts gzip gets every file in the bytes it stands for,
// with the same headers, and the app's script (its largest file) gzip-encoded: far smaller,
// with its own strong ETag, which revalidates it.
func TestHandler_Gzip(t *testing.T) {
	srv := appServer(t)
	largest, _ := largestFile(t)
	for _, f := range appFiles(t) {
		t.Run(f.path, func(t *testing.T) {
			want := mustRead(t, "dist/"+f.file)
			plain, _ := do(t, srv, http.MethodGet, f.path)
			resp, sent := do(t, srv, http.MethodGet, f.path, "Accept-Encoding", "gzip")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			gzipped := resp.Header.Get("Content-Encoding") == "gzip"
			if got := contentcoding.Decoded(t, resp, sent); !bytes.Equal(got, want) {
				t.Fatalf("%d bytes that decode to %d, not dist/%s's %d", len(sent), len(got), f.file, len(want))
			}
			// Every file of dist is text (appFiles admits no other), which gzip shrinks
			// unless it is tiny.
			if len(want) > 1024 && !gzipped {
				t.Errorf("%d bytes not gzip-encoded, though asked", len(want))
			}
			if gzipped && len(sent) >= len(want) {
				t.Errorf("%d bytes gzip-encoded from %d", len(sent), len(want))
			}
			if f.file == largest && gzipped && len(sent) > len(want)/2 {
				t.Errorf("the app's script: %d bytes gzip-encoded from %d", len(sent), len(want))
			}
			if resp.ContentLength != int64(len(sent)) {
				t.Errorf("Content-Length %d, sent %d", resp.ContentLength, len(sent))
			}
			if !slices.Contains(resp.Header.Values("Vary"), "Accept-Encoding") {
				t.Errorf("Vary %q", resp.Header.Values("Vary"))
			}
			for _, name := range []string{"Content-Type", "Cache-Control", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
				if resp.Header.Get(name) != plain.Header.Get(name) {
					t.Errorf("%s %q, without gzip %q", name, resp.Header.Get(name), plain.Header.Get(name))
				}
			}
			etag := resp.Header.Get("ETag")
			if !strongETag.MatchString(etag) || gzipped == (etag == plain.Header.Get("ETag")) {
				t.Errorf("ETag %q, and %q without gzip: want a strong one of its own when gzipped", etag, plain.Header.Get("ETag"))
			}
			again, none := do(t, srv, http.MethodGet, f.path, "Accept-Encoding", "gzip", "If-None-Match", etag)
			if again.StatusCode != http.StatusNotModified || len(none) != 0 {
				t.Errorf("If-None-Match %s: status %d with %d bytes, want 304", etag, again.StatusCode, len(none))
			}
		})
	}
}
