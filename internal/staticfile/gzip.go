package staticfile

import (
	"bytes"
	"compress/gzip"
	"strconv"
	"strings"
)

// gzipped is the body gzip-encoded, or nil when that is no smaller (an image, a tiny file). It
// is made on the first call, which the calls at the same moment wait for: a process that never
// sends a file gzipped (a command other than serve, a client that does not accept gzip) does not
// pay for compressing it. BestCompression costs tens of milliseconds once for the app's script
// and saves bytes on every response after.
func (f *File) gzipped() *encoded {
	f.gzipOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // errs only for a bad level
		zw.Write(f.body)                                         // a bytes.Buffer does not fail
		zw.Close()
		if buf.Len() < len(f.body) {
			// The gzip header has no name and no time: the same body makes the same bytes.
			f.gzip = &encoded{body: buf.Bytes(), etag: `"` + hash(buf.Bytes()) + `-gz"`, length: strconv.Itoa(buf.Len())}
		}
	})
	return f.gzip
}

// acceptsGzip reports whether an Accept-Encoding (RFC 9110 §12.5.3; its lines, if several) lets
// the response be gzip-encoded: gzip (or its alias x-gzip), else "*", with a q-value above zero
// and not below identity's when the client ranks identity itself. No header, or one that
// names neither, asks for the body as it is.
func acceptsGzip(header []string) bool {
	gzipQ, anyQ, identityQ := -1.0, -1.0, -1.0
	for _, line := range header {
		for _, member := range strings.Split(line, ",") {
			coding, params, _ := strings.Cut(member, ";")
			q := qvalue(params)
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gzipQ = max(gzipQ, q)
			case "*":
				anyQ = max(anyQ, q)
			case "identity":
				identityQ = max(identityQ, q)
			}
		}
	}
	if gzipQ < 0 {
		gzipQ = anyQ
	}
	return gzipQ > 0 && gzipQ >= identityQ
}

// qvalue is the weight in a member's parameters ("q=0.5"), 1 when it has none, and 0 when it
// cannot be read: a coding the client describes in a way we do not understand is not used.
func qvalue(params string) float64 {
	for _, param := range strings.Split(params, ";") {
		name, value, _ := strings.Cut(param, "=")
		if !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || !(q >= 0 && q <= 1) {
			return 0
		}
		return q
	}
	return 1
}
