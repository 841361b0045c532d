// Package playground serves the GraphiQL playground of the quickphotos API: an HTML page and
// the scripts and styles it needs, all embedded in the binary, so that the playground works
// offline and the page loads nothing from another host.
//
// The vendored files in assets/ are GraphiQL, React and ReactDOM at the exact versions pinned
// in package.json and package-lock.json; update.sh refreshes them (see its header). The files
// in static/ are ours: the page, its bootstrap script and a small stylesheet.
package playground

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/quickphotos/quickphotos/internal/staticfile"
)

// AssetPrefix is the path under which Handler serves the playground's scripts and styles.
const AssetPrefix = "/playground/"

// Handler returns the playground for the GraphQL API at endpoint, a path such as "/graphql"
// (or an absolute URL, which is then also allowed by the page's Content-Security-Policy).
//
// It serves the page at "/" and its assets under AssetPrefix, for GET and HEAD only; other
// paths are 404. Mount it at the root of a mux, e.g. mux.Handle("GET /", playground.Handler("/graphql")).
// The page refers to its assets by relative URLs, so it also works behind http.StripPrefix.
//
// Assets are named by a hash of their content (AssetPrefix + hash + "/" + name) and served as
// immutable; the page itself is revalidated by ETag on every load. Each goes out gzip-encoded to
// a client that accepts it (package staticfile). The page and the hashes are made on the first
// request, so building the handler costs nothing at start-up.
func Handler(endpoint string) http.Handler {
	h := &handler{csp: contentSecurityPolicy(endpoint)}
	h.load = sync.OnceFunc(func() {
		h.assets = theAssets()
		var page bytes.Buffer
		err := indexTemplate.Execute(&page, indexData{Endpoint: endpoint, assets: h.assets})
		if err != nil {
			panic("playground: index.html: " + err.Error()) // the template is embedded: a bug
		}
		h.index = staticfile.New("index.html", page.Bytes())
	})
	return h
}

type handler struct {
	load   func() // sets assets and index, once
	assets map[string]*staticfile.File
	index  *staticfile.File
	csp    string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h.load()
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if r.URL.Path == "/" {
		hd.Set("Content-Security-Policy", h.csp)
		hd.Set("Cache-Control", "no-cache")
		h.index.Serve(w, r)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, AssetPrefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	// AssetPrefix + hash + "/" + name is immutable; AssetPrefix + name is revalidated.
	version, name, versioned := strings.Cut(rest, "/")
	if !versioned {
		name = version
	}
	a, found := h.assets[name]
	if !found || (versioned && version != a.Version()) {
		http.NotFound(w, r)
		return
	}
	if versioned {
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hd.Set("Cache-Control", "no-cache")
	}
	a.Serve(w, r)
}

// contentSecurityPolicy allows the page to load only its own scripts, styles and fonts (GraphiQL's
// stylesheet embeds its fonts and icons as data: URLs) and to talk only to its own origin, plus
// the endpoint's origin when that is another one.
//
// GraphiQL needs neither 'unsafe-eval' nor inline scripts nor inline styles: it styles elements
// through the CSSOM (element.style), which CSP does not restrict. Checked in headless Chromium
// with a report-uri: the one violation is the <style> element its dialogs add to lock the
// page's scrolling (react-remove-scroll), which the page does not need (body is overflow: hidden,
// see static/playground.css); the browser logs it once per dialog and nothing else changes.
func contentSecurityPolicy(endpoint string) string {
	connect := "'self'"
	if u, err := url.Parse(endpoint); err == nil && u.Scheme != "" && u.Host != "" {
		connect += " " + u.Scheme + "://" + u.Host
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src 'self'",
		"style-src 'self'",
		"img-src 'self' data:",
		"font-src 'self' data:",
		"connect-src " + connect,
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'none'",
	}, "; ")
}

var indexTemplate = template.Must(template.ParseFS(files, "static/index.html"))

// indexData is what index.html is rendered with.
type indexData struct {
	Endpoint string
	assets   map[string]*staticfile.File
}

// URL is the versioned, relative URL of the asset named name.
func (d indexData) URL(name string) (string, error) {
	a, ok := d.assets[name]
	if !ok {
		return "", &missingAssetError{name}
	}
	return strings.TrimPrefix(AssetPrefix, "/") + a.Version() + "/" + name, nil
}

type missingAssetError struct{ name string }

func (e *missingAssetError) Error() string { return "no asset named " + e.name }
