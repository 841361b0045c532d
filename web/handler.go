package web

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"

	"github.com/quickphotos/quickphotos/internal/staticfile"
)

// Handler serves the app under Prefix: its page for Prefix itself, and its files. The
// content-hashed assets are served as immutable; the page and the service worker are
// revalidated on every load, so a new build reaches browsers at once, and every file carries a
// strong ETag, so revalidating a file the browser holds is a 304 with no body. A client that
// accepts gzip gets each file gzip-encoded when that is smaller (package staticfile).
//
// The build is read and hashed on the first request, not when Handler is called: a process
// that never serves the app (an AWS Lambda function's cold start) does not pay for it.
func Handler() http.Handler {
	build, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("web: " + err.Error()) // dist is embedded: a bug
	}
	return newHandler(build)
}

// newHandler serves the files of build, read on the first request.
func newHandler(build fs.FS) *handler {
	return &handler{files: sync.OnceValue(func() map[string]*file { return loadFiles(build) })}
}

// loadFiles reads and hashes every file of the build, by its path in it.
func loadFiles(build fs.FS) map[string]*file {
	files := map[string]*file{}
	err := fs.WalkDir(build, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(build, name)
		if err != nil {
			return err
		}
		files[name] = newFile(name, data)
		return nil
	})
	if err != nil {
		panic("web: reading the build: " + err.Error()) // it is embedded (or a test's, in memory): a bug
	}
	return files
}

// file is one file of the build: its bytes, type and ETags (staticfile.File), and the headers
// of ours its responses carry, worked out once.
type file struct {
	*staticfile.File
	cacheControl string
	// page is index.html, the document the Content-Security-Policy governs.
	page bool
}

func newFile(name string, data []byte) *file {
	f := &file{
		File: staticfile.New(name, data),
		// The hashed assets' names change with their content; the page and the service
		// worker keep their names across builds.
		cacheControl: "no-cache",
		page:         name == "index.html",
	}
	if strings.HasPrefix(name, "assets/") {
		f.cacheControl = "public, max-age=31536000, immutable"
	}
	return f
}

type handler struct{ files func() map[string]*file }

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if name == "" {
		name = "index.html"
	}
	// The app routes by the URL's fragment, which browsers do not send: a path with no file
	// is a mistake, so it is 404 rather than the page.
	f, ok := h.files()[path.Clean(name)]
	if !ok {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", f.cacheControl)
	if f.page {
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
	}
	// Serve answers HEAD, ranges, If-Range, and If-None-Match with 304 by the weak
	// comparison RFC 9110 asks for (lists and "*" too), through http.ServeContent.
	f.Serve(w, r)
}

// contentSecurityPolicy lets the page run only its own scripts and styles and talk only to
// its own origin (the API, its WebSocket and the media store it serves) and to https origins (an S3 bucket the upload form names): the app ships no
// inline script. Images may come from anywhere over http(s): a photo hosted elsewhere is
// shown from its own URL.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; connect-src 'self' https:; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
