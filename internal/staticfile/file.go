// Package staticfile serves files held in memory (the embedded playground and web app): each
// with a fixed content type, a strong ETag that is a hash of the bytes sent, and a gzip encoding
// made once, on the first request that can take it. It knows nothing of who serves them: the
// caching, security and routing headers are the callers' (packages playground and web).
package staticfile

import (
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"net/http"
	"path"
	"sync"
)

// File is one file served from memory. Its methods may be called concurrently.
type File struct {
	// body is the file as given to New: every response is written from it (through a
	// bytes.Reader, which copies nothing), so no one may write to it.
	body        []byte
	contentType string
	version     string
	etag        string

	gzipOnce sync.Once
	gzip     *encoded // nil when gzip does not make the body smaller
}

// encoded is the body in a content coding, with its own validator: the same tag must mean the
// same bytes, and the coded bytes are not the body's.
type encoded struct {
	body   []byte
	etag   string
	length string // len(body), for Content-Length
}

// New is the file named name (only its extension is read, for the content type) holding body,
// which the File owns from then on: the caller must not change it. It hashes the body; the gzip
// encoding waits for the first request that accepts it.
func New(name string, body []byte) *File {
	version := hash(body)
	return &File{
		body:        body,
		contentType: contentType(name, body),
		version:     version,
		etag:        `"` + version + `"`,
	}
}

// Version is the first 16 hex digits of the SHA-256 of the body: a name for these bytes, for
// URLs that change with the content. 64 bits are plenty to tell one file's versions apart.
func (f *File) Version() string { return f.version }

func hash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// contentTypes are the types of the files we serve, whatever the host's mime tables say
// (/etc/mime.types may call a script application/javascript, or a manifest nothing at all).
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".wasm":        "application/wasm",
}

// contentType is the type of name from the table above, else from the mime package, else the
// type its first bytes sniff as: what http.ServeContent would choose on every request, chosen once.
func contentType(name string, body []byte) string {
	ext := path.Ext(name)
	if ct, ok := contentTypes[ext]; ok {
		return ct
	}
	if ct := mime.TypeByExtension(ext); ct != "" {
		return ct
	}
	return http.DetectContentType(body[:min(len(body), 512)])
}
