// Package web holds the quickphotos web app (React, TypeScript, Apollo Client; its sources are
// in this directory, see docs/web-app.md) as built into dist/ by `npm run build`, embedded in
// the binary so that `serve` serves it at /app/ with only Go installed, and the manifest of
// its trusted documents, which `serve` trusts by default.
//
// dist/ and src/gql/ are committed build output: web_test.go rebuilds them from the sources and
// fails when they differ, so the embedded app is always the one its sources describe.
package web

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed dist
var dist embed.FS

//go:embed src/gql/persisted-documents.json
var manifest []byte

// Manifest is the app's trusted documents, in the format GraphQL Codegen's client preset
// writes (persisted-documents.json): what `serve --trusted-documents` reads.
func Manifest() []byte { return bytes.Clone(manifest) }

// Prefix is the path the app is built for and served at: its page names its assets by absolute
// URLs under it (vite.config.ts's base), so this package owns it and `serve` mounts Handler
// here (api.Config.AppPath).
const Prefix = "/app/"

// Handler serves the app under Prefix: its page for Prefix itself, and its files. The
// content-hashed assets are served as immutable; the page and the service worker are
// revalidated on every load, so a new build reaches browsers at once.
func Handler() http.Handler {
	files, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("web: " + err.Error()) // dist is embedded: a bug
	}
	return &handler{files: files}
}

type handler struct{ files fs.FS }

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
	name = path.Clean(name)
	b, err := fs.ReadFile(h.files, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if strings.HasPrefix(name, "assets/") {
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hd.Set("Cache-Control", "no-cache")
	}
	if name == "index.html" {
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
	}
	// ServeContent sets the type by the name's extension, answers HEAD, ranges and If-Modified-Since.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}

// contentSecurityPolicy lets the page run only its own scripts and styles and talk only to
// its own origin (the API, its WebSocket and the media store it serves) and to https origins (an S3 bucket the upload form names): the app ships no
// inline script. Images may come from anywhere over http(s): a photo hosted elsewhere is
// shown from its own URL.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; connect-src 'self' https:; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
