// Package contentcoding reads an HTTP response's body as its Content-Encoding says, for the
// tests of the handlers that send files gzip-encoded (internal/staticfile, playground, web).
package contentcoding

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"testing"
)

// Decoded is body, sent with resp, read as resp's Content-Encoding says: as it is without one,
// gunzipped for gzip. Any other coding, or gzip that does not read, fails the test.
func Decoded(t testing.TB, resp *http.Response, body []byte) []byte {
	t.Helper()
	switch ce := resp.Header.Get("Content-Encoding"); ce {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("bad gzip: %v", err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("bad gzip: %v", err)
		}
		return b
	default:
		t.Fatalf("Content-Encoding %q", ce)
		return nil
	}
}
