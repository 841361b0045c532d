package playground

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// files holds the vendored assets (assets/, see update.sh) and our own page and bootstrap
// (static/). The .txt files (licenses, versions) are embedded so that they ship with the binary.
//
//go:embed assets/*.js assets/*.css assets/*.txt static
var files embed.FS

// theAssets are every embedded file but index.html (a template), by base name. They are read
// and hashed (some 4 MB) on the first request for the playground, not when the program starts:
// a process that never serves the page (an AWS Lambda function's cold start, a command other
// than serve) does not pay the milliseconds.
var theAssets = sync.OnceValue(loadAssets)

func loadAssets() map[string]*asset {
	m := map[string]*asset{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "static/index.html" {
			return err
		}
		body, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		m[path.Base(p)] = newAsset(path.Base(p), body)
		return nil
	})
	if err != nil {
		panic("playground: reading embedded files: " + err.Error())
	}
	return m
}

// asset is one file served by the playground, with its gzip encoding made on first demand.
type asset struct {
	name        string
	body        []byte
	contentType string
	version     string // the first 16 hex digits of the body's SHA-256
	etag        string

	gzipOnce sync.Once
	gzipped  []byte // nil when gzip does not make the body smaller
}

// contentTypes are the types of what the playground serves, independent of the host's mime tables.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
}

func newAsset(name string, body []byte) *asset {
	sum := sha256.Sum256(body)
	version := hex.EncodeToString(sum[:8])
	ct, ok := contentTypes[path.Ext(name)]
	if !ok {
		ct = mime.TypeByExtension(path.Ext(name))
	}
	return &asset{name: name, body: body, contentType: ct, version: version, etag: `"` + version + `"`}
}

func (a *asset) gzip() []byte {
	a.gzipOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(a.body)
		zw.Close()
		if buf.Len() < len(a.body) {
			a.gzipped = buf.Bytes()
		}
	})
	return a.gzipped
}

// serve writes the asset, gzip-encoded when the client accepts it, answering conditional and
// range requests (http.ServeContent).
func (a *asset) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Add("Vary", "Accept-Encoding")
	body, etag := a.body, a.etag
	if acceptsGzip(r) {
		if z := a.gzip(); z != nil {
			body, etag = z, `"`+a.version+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip (ignoring q-values
// other than an explicit "gzip;q=0").
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
