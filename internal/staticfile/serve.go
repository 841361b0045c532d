package staticfile

import (
	"bytes"
	"io"
	"net/http"
	"time"
)

// Serve answers r with the file: gzip-encoded when the request accepts gzip and that is
// smaller, else as it is, with the chosen encoding's own strong ETag and Vary: Accept-Encoding
// either way. http.ServeContent answers HEAD, ranges (of the bytes sent, as RFC 9110 has it),
// If-Range, and If-None-Match with 304. The caller sets its own headers first (Cache-Control
// and the like); Serve sets Content-Type, Content-Encoding, ETag and Vary.
func (f *File) Serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Add("Vary", "Accept-Encoding")
	body, etag := f.body, f.etag
	if acceptsGzip(r.Header.Values("Accept-Encoding")) {
		if z := f.gzipped(); z != nil {
			body, etag = z.body, z.etag
			h.Set("Content-Encoding", "gzip")
			w = &lengthWriter{ResponseWriter: w, length: z.length}
		}
	}
	h.Set("ETag", etag)
	// The zero time sends no Last-Modified: the files have no dates, and the ETag is the validator.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// lengthWriter states the Content-Length of a whole gzip-encoded body. http.ServeContent leaves
// it out whenever Content-Encoding is set, for handlers that compress on the fly and cannot
// know it; ours is made in advance, so a 200 (and its HEAD) says how long it is and needs no
// chunking. Other statuses keep what ServeContent says (206 and errors set their own; 304 none).
type lengthWriter struct {
	http.ResponseWriter
	length string
}

func (w *lengthWriter) WriteHeader(code int) {
	if code == http.StatusOK {
		w.Header().Set("Content-Length", w.length)
	}
	w.ResponseWriter.WriteHeader(code)
}

// ReadFrom keeps the writer's own way of copying from a reader (net/http's server copies through
// a pooled buffer), which io.Copy would otherwise replace with a fresh 32 KB buffer per response.
func (w *lengthWriter) ReadFrom(r io.Reader) (int64, error) { return io.Copy(w.ResponseWriter, r) }

// Unwrap lets http.ResponseController reach the writer beneath.
func (w *lengthWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
