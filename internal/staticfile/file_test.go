package staticfile_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quickphotos/quickphotos/internal/staticfile"
	"github.com/quickphotos/quickphotos/internal/testkit/contentcoding"
)

// strongETag is an entity tag without W/: one that promises the same bytes.
var strongETag = regexp.MustCompile(`^"[\x21\x23-\x7e]+"$`)

// client does not ask for gzip by itself, so that the tests see the bytes the server sends.
var client = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// letters is n bytes of random letters: gzip makes them about half as long (a script shrinks
// more), and the gzip body is large enough to tell a copy of it from a copy buffer.
func letters(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(r.IntN(16))
	}
	return b
}

// noise is n random bytes, which gzip cannot make smaller.
func noise(n int) []byte {
	r := rand.New(rand.NewPCG(2, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// serve runs a server on 127.0.0.1 that serves each file at its path.
func serve(t *testing.T, files map[string]*staticfile.File) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		f.Serve(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// do sends method path with header and returns the response with the bytes of its body as sent.
func do(t *testing.T, srv *httptest.Server, method, path string, header http.Header) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, values := range header {
		req.Header[name] = values
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

// encodings are the two ways a file goes out, by the Accept-Encoding that asks for each.
var encodings = []struct {
	name, contentEncoding string
	accept                http.Header
}{
	{"identity", "", nil},
	{"gzip", "gzip", http.Header{"Accept-Encoding": {"gzip"}}},
}

// TestFile_Encoding: gzip when the request accepts it (by the q-values RFC 9110 gives it) and
// it is smaller, the body as it is otherwise; either way the bytes decode to the file, with
// their own length, and the response varies by Accept-Encoding.
func TestFile_Encoding(t *testing.T) {
	text, incompressible := letters(1, 8<<10), noise(8<<10)
	srv := serve(t, map[string]*staticfile.File{
		"/app.js":   staticfile.New("app.js", text),
		"/noise.js": staticfile.New("noise.js", incompressible),
	})
	for _, c := range []struct {
		name   string
		accept []string
		path   string
		gzip   bool
	}{
		{"no Accept-Encoding", nil, "/app.js", false},
		{"gzip", []string{"gzip"}, "/app.js", true},
		{"a browser's", []string{"gzip, deflate, br, zstd"}, "/app.js", true},
		{"in capitals", []string{"GZIP"}, "/app.js", true},
		{"x-gzip", []string{"x-gzip"}, "/app.js", true},
		{"gzip;q=0", []string{"gzip;q=0"}, "/app.js", false},
		{"gzip; q=0.000 after another", []string{"deflate, gzip; q=0.000"}, "/app.js", false},
		{"gzip;Q=0", []string{"gzip;Q=0"}, "/app.js", false},
		{"gzip;q=0.5", []string{"br;q=1, gzip;q=0.5"}, "/app.js", true},
		{"gzip with a q unread", []string{"gzip;q=high"}, "/app.js", false},
		{"gzip with a q above 1", []string{"gzip;q=2"}, "/app.js", false},
		{"other codings only", []string{"br, deflate"}, "/app.js", false},
		{"any", []string{"*"}, "/app.js", true},
		{"any;q=0", []string{"*;q=0"}, "/app.js", false},
		{"gzip;q=0 beside any", []string{"*, gzip;q=0"}, "/app.js", false},
		{"gzip beside any;q=0", []string{"*;q=0, gzip"}, "/app.js", true},
		{"identity preferred", []string{"gzip;q=0.5, identity"}, "/app.js", false},
		{"identity refused", []string{"identity;q=0, gzip"}, "/app.js", true},
		{"gzip on a second line", []string{"br", "gzip"}, "/app.js", true},
		{"gzip;q=0 on a second line", []string{"gzip", "gzip;q=0"}, "/app.js", true},
		{"incompressible", []string{"gzip"}, "/noise.js", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := text
			if c.path == "/noise.js" {
				want = incompressible
			}
			resp, sent := do(t, srv, http.MethodGet, c.path, http.Header{"Accept-Encoding": c.accept})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if got := resp.Header.Get("Content-Encoding") == "gzip"; got != c.gzip {
				t.Errorf("Content-Encoding %q, want gzip: %v", resp.Header.Get("Content-Encoding"), c.gzip)
			}
			if !bytes.Equal(contentcoding.Decoded(t, resp, sent), want) {
				t.Errorf("%d bytes that decode to other than the file's %d", len(sent), len(want))
			}
			if c.gzip && len(sent) >= len(want)*3/4 {
				t.Errorf("%d bytes gzipped of %d", len(sent), len(want))
			}
			if resp.ContentLength != int64(len(sent)) {
				t.Errorf("Content-Length %d, sent %d", resp.ContentLength, len(sent))
			}
			if !slices.Contains(resp.Header.Values("Vary"), "Accept-Encoding") {
				t.Errorf("Vary %q", resp.Header.Values("Vary"))
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/javascript; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

// TestFile_ETags: each encoding has its own strong tag, the same on every request, and a tag
// follows the bytes: the same body under another name has it, another body under the same
// name does not.
func TestFile_ETags(t *testing.T) {
	text := letters(1, 8<<10)
	srv := serve(t, map[string]*staticfile.File{
		"/a.js":       staticfile.New("a.js", text),
		"/again/a.js": staticfile.New("a.js", bytes.Clone(text)),
		"/b.css":      staticfile.New("b.css", bytes.Clone(text)),
		"/other/a.js": staticfile.New("a.js", letters(2, 8<<10)),
	})
	tag := func(path string, accept http.Header) string {
		resp, _ := do(t, srv, http.MethodGet, path, accept)
		etag := resp.Header.Get("ETag")
		if !strongETag.MatchString(etag) {
			t.Fatalf("GET %s: ETag %q, want a strong one", path, etag)
		}
		return etag
	}
	seen := map[string]string{}
	for _, e := range encodings {
		t.Run(e.name, func(t *testing.T) {
			a := tag("/a.js", e.accept)
			if other, ok := seen[a]; ok {
				t.Errorf("the tag %s of %s is %s's too", a, e.name, other)
			}
			seen[a] = e.name
			if again := tag("/a.js", e.accept); again != a {
				t.Errorf("%s, then %s", a, again)
			}
			if again := tag("/again/a.js", e.accept); again != a {
				t.Errorf("%s, and %s for the same bytes read again", a, again)
			}
			if b := tag("/b.css", e.accept); b != a {
				t.Errorf("%s, and %s for the same bytes under another name", a, b)
			}
			if other := tag("/other/a.js", e.accept); other == a {
				t.Errorf("%s for other bytes under the same name", a)
			}
		})
	}
}

// TestFile_IfNoneMatch: a request holding the tag of the encoding it would get is answered
// 304 with no body; the other encoding's tag names other bytes, so it gets the file.
func TestFile_IfNoneMatch(t *testing.T) {
	srv := serve(t, map[string]*staticfile.File{"/a.js": staticfile.New("a.js", letters(1, 8<<10))})
	tags := map[string]string{}
	bodies := map[string][]byte{}
	for _, e := range encodings {
		resp, sent := do(t, srv, http.MethodGet, "/a.js", e.accept)
		tags[e.name], bodies[e.name] = resp.Header.Get("ETag"), sent
	}
	for i, e := range encodings {
		other := tags[encodings[1-i].name]
		for _, c := range []struct {
			name, ifNoneMatch string
			want              int
		}{
			{"its tag", tags[e.name], http.StatusNotModified},
			{"its tag, weak", "W/" + tags[e.name], http.StatusNotModified},
			{"a list holding its tag", `"elsewhere", ` + tags[e.name], http.StatusNotModified},
			{"the other encoding's tag", other, http.StatusOK},
			{"the other encoding's tag, weak", "W/" + other, http.StatusOK},
		} {
			t.Run(e.name+"/"+c.name, func(t *testing.T) {
				for _, method := range []string{http.MethodGet, http.MethodHead} {
					header := http.Header{"If-None-Match": {c.ifNoneMatch}, "Accept-Encoding": e.accept["Accept-Encoding"]}
					resp, sent := do(t, srv, method, "/a.js", header)
					if resp.StatusCode != c.want {
						t.Fatalf("%s: status %d, want %d", method, resp.StatusCode, c.want)
					}
					want := bodies[e.name]
					if c.want == http.StatusNotModified || method == http.MethodHead {
						want = nil
					}
					if !bytes.Equal(sent, want) {
						t.Errorf("%s: %d bytes, want %d", method, len(sent), len(want))
					}
					if resp.Header.Get("ETag") != tags[e.name] {
						t.Errorf("%s: ETag %q, want %q", method, resp.Header.Get("ETag"), tags[e.name])
					}
				}
			})
		}
	}
}

// TestFile_Head: HEAD says what GET would, in either encoding, with no body.
func TestFile_Head(t *testing.T) {
	srv := serve(t, map[string]*staticfile.File{"/a.js": staticfile.New("a.js", letters(1, 64<<10))})
	for _, e := range encodings {
		t.Run(e.name, func(t *testing.T) {
			get, sent := do(t, srv, http.MethodGet, "/a.js", e.accept)
			head, none := do(t, srv, http.MethodHead, "/a.js", e.accept)
			if head.StatusCode != http.StatusOK || len(none) != 0 {
				t.Fatalf("status %d with %d bytes, want 200 with none", head.StatusCode, len(none))
			}
			if head.ContentLength != int64(len(sent)) {
				t.Errorf("Content-Length %d, want %d", head.ContentLength, len(sent))
			}
			if head.Header.Get("Content-Encoding") != e.contentEncoding {
				t.Errorf("Content-Encoding %q, want %q", head.Header.Get("Content-Encoding"), e.contentEncoding)
			}
			for _, name := range []string{"ETag", "Content-Type", "Content-Encoding", "Vary", "Accept-Ranges"} {
				if head.Header.Get(name) != get.Header.Get(name) {
					t.Errorf("%s %q, GET's %q", name, head.Header.Get(name), get.Header.Get(name))
				}
			}
		})
	}
}

// TestFile_Range: a range is of the bytes the encoding sends (so a client resumes a gzip
// download with the gzip bytes), and If-Range honours only that encoding's tag.
func TestFile_Range(t *testing.T) {
	srv := serve(t, map[string]*staticfile.File{"/a.js": staticfile.New("a.js", letters(1, 64<<10))})
	var tags []string
	for _, e := range encodings {
		resp, _ := do(t, srv, http.MethodGet, "/a.js", e.accept)
		tags = append(tags, resp.Header.Get("ETag"))
	}
	for i, e := range encodings {
		t.Run(e.name, func(t *testing.T) {
			_, whole := do(t, srv, http.MethodGet, "/a.js", e.accept)
			header := http.Header{"Range": {"bytes=100-1099"}, "Accept-Encoding": e.accept["Accept-Encoding"]}
			resp, part := do(t, srv, http.MethodGet, "/a.js", header)
			if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(part, whole[100:1100]) {
				t.Fatalf("status %d with %d bytes, want 206 with bytes 100-1099 of the %d sent", resp.StatusCode, len(part), len(whole))
			}
			if cr := resp.Header.Get("Content-Range"); cr != fmt.Sprintf("bytes 100-1099/%d", len(whole)) {
				t.Errorf("Content-Range %q", cr)
			}
			if resp.Header.Get("Content-Encoding") != e.contentEncoding {
				t.Errorf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
			}
			header.Set("If-Range", tags[i])
			if resp, part := do(t, srv, http.MethodGet, "/a.js", header); resp.StatusCode != http.StatusPartialContent || len(part) != 1000 {
				t.Errorf("If-Range its tag: status %d with %d bytes, want 206 with 1000", resp.StatusCode, len(part))
			}
			header.Set("If-Range", tags[1-i])
			if resp, sent := do(t, srv, http.MethodGet, "/a.js", header); resp.StatusCode != http.StatusOK || !bytes.Equal(sent, whole) {
				t.Errorf("If-Range the other encoding's tag: status %d with %d bytes, want 200 with %d", resp.StatusCode, len(sent), len(whole))
			}
		})
	}
}

// TestFile_ServesWithoutCopying: after the first, a request allocates far less than the bytes
// it sends, in either encoding: every response is written from the bytes kept.
func TestFile_ServesWithoutCopying(t *testing.T) {
	f := staticfile.New("big.txt", letters(1, 1<<20))
	for _, e := range encodings {
		t.Run(e.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/big.txt", nil)
			req.Header = e.accept.Clone()
			serve := func() int64 {
				w := &discardWriter{header: http.Header{}}
				f.Serve(w, req)
				if w.status != http.StatusOK || w.header.Get("Content-Encoding") != e.contentEncoding {
					t.Fatalf("status %d, Content-Encoding %q", w.status, w.header.Get("Content-Encoding"))
				}
				if cl := w.header.Get("Content-Length"); cl != strconv.FormatInt(w.written, 10) {
					t.Fatalf("Content-Length %s, wrote %d", cl, w.written)
				}
				return w.written
			}
			size := serve() // makes the gzip body, once
			const n = 20
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for range n {
				serve()
			}
			runtime.ReadMemStats(&after)
			if per := int64(after.TotalAlloc-before.TotalAlloc) / n; per > size/4 {
				t.Errorf("%d bytes allocated per request sending %d", per, size)
			}
		})
	}
}

// TestFile_ConcurrentFirstRequests: requests at once for a file never served get the same
// bytes and tags, gzipped or not (run with -race: the gzip body is made once, by one of them).
func TestFile_ConcurrentFirstRequests(t *testing.T) {
	text := letters(1, 64<<10)
	f := staticfile.New("a.js", text)
	const n = 16
	recorders := make([]*httptest.ResponseRecorder, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range recorders {
		recorders[i] = httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/a.js", nil)
		if i%4 != 0 {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		wg.Go(func() {
			<-start
			f.Serve(recorders[i], req)
		})
	}
	close(start)
	wg.Wait()
	for i, w := range recorders {
		resp := w.Result()
		want := "gzip"
		if i%4 == 0 {
			want = ""
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != want {
			t.Fatalf("request %d: status %d, Content-Encoding %q", i, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		if !bytes.Equal(contentcoding.Decoded(t, resp, w.Body.Bytes()), text) {
			t.Errorf("request %d: %d bytes that decode to other than the file", i, w.Body.Len())
		}
		if same := recorders[i%4]; w.Header().Get("ETag") != same.Header().Get("ETag") || !bytes.Equal(w.Body.Bytes(), same.Body.Bytes()) {
			t.Errorf("requests %d and %d differ: ETag %q and %q", i%4, i, same.Header().Get("ETag"), w.Header().Get("ETag"))
		}
	}
}

// TestNew_ContentType: the types of the files we serve are fixed; others come from the mime
// tables, and a name they do not know is sniffed.
func TestNew_ContentType(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		want string
	}{
		{"index.html", "<!doctype html>", "text/html; charset=utf-8"},
		{"app.js", "export {}", "text/javascript; charset=utf-8"},
		{"app.mjs", "export {}", "text/javascript; charset=utf-8"},
		{"app.css", "a{}", "text/css; charset=utf-8"},
		{"LICENSE.txt", "MIT", "text/plain; charset=utf-8"},
		{"data.json", "{}", "application/json"},
		{"manifest.webmanifest", "{}", "application/manifest+json"},
		{"icon.svg", "<svg/>", "image/svg+xml"},
		{"paper.pdf", "%PDF-", "application/pdf"},
		{"image", "\x89PNG\r\n\x1a\n\x00\x00", "image/png"},
		{"notes", "some words", "text/plain; charset=utf-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			staticfile.New(c.name, []byte(c.body)).Serve(w, httptest.NewRequest(http.MethodGet, "/", nil))
			if ct := w.Header().Get("Content-Type"); ct != c.want {
				t.Errorf("Content-Type %q, want %q", ct, c.want)
			}
		})
	}
}

// TestFile_Version: the version names the bytes (16 hex digits of their SHA-256), whatever
// the file is called: the playground's asset URLs are made of it.
func TestFile_Version(t *testing.T) {
	body := letters(1, 1000)
	sum := sha256.Sum256(body)
	want := hex.EncodeToString(sum[:])[:16]
	if v := staticfile.New("a.js", body).Version(); v != want {
		t.Errorf("Version %q, want %q", v, want)
	}
	if v := staticfile.New("b.css", bytes.Clone(body)).Version(); v != want {
		t.Errorf("Version %q under another name, want %q", v, want)
	}
	if v := staticfile.New("a.js", letters(2, 1000)).Version(); v == want || len(v) != 16 || strings.Trim(v, "0123456789abcdef") != "" {
		t.Errorf("Version %q of other bytes (%q of these)", v, want)
	}
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
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.written += int64(len(b))
	return len(b), nil
}
