package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/media/blob"
)

// TestFileStore_KeyPersists: the HMAC key is created once, 0600, and read back on reopen, so
// URLs and forms signed before a restart still work after it, and only for the store that
// signed them.
func TestFileStore_KeyPersists(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	first := openFileStore(t, dir)
	if err := first.Write(ctx, "photos/p1", "image/png", []byte("png")); err != nil {
		t.Fatal(err)
	}
	u, err := first.SignedURL(ctx, "photos/p1", time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	form, err := first.PresignPost(ctx, "staging/bob/u1", "image/png", 100, time.Now().Add(time.Hour), blob.PostSuccess{})
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "blob-hmac.key")
	fi, err := os.Stat(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Size() != 32 {
		t.Errorf("key file: mode %v, %d bytes; want 0600, 32", fi.Mode().Perm(), fi.Size())
	}
	key1, _ := os.ReadFile(keyFile)

	reopened := openFileStore(t, dir)
	again, _ := os.ReadFile(keyFile)
	if !bytes.Equal(key1, again) {
		t.Fatal("reopening replaced the signing key")
	}
	u2, _ := reopened.SignedURL(ctx, "photos/p1", time.Now().Add(time.Hour))
	if resp, body := get(t, onServerOf(t, u, u2), nil); resp.StatusCode != http.StatusOK || string(body) != "png" {
		t.Errorf("URL signed before reopening: %d %q", resp.StatusCode, body)
	}
	form2, _ := reopened.PresignPost(ctx, "staging/bob/u2", "image/png", 100, time.Now().Add(time.Hour), blob.PostSuccess{})
	form.URL = onServerOf(t, form.URL, form2.URL)
	if status, body := post(t, form, []byte("x"), nil); status != http.StatusNoContent {
		t.Errorf("form signed before reopening: %d %s", status, body)
	}

	other := openFileStore(t, t.TempDir())
	u3, _ := other.SignedURL(ctx, "photos/p1", time.Now().Add(time.Hour))
	if err := other.Write(ctx, "photos/p1", "image/png", []byte("png")); err != nil {
		t.Fatal(err)
	}
	if resp, _ := get(t, onServerOf(t, u, u3), nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another store's URL answered %d, want 403", resp.StatusCode)
	}
}

// onServerOf returns u with the scheme and host of v.
func onServerOf(t *testing.T, u, v string) string {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := url.Parse(v)
	if err != nil {
		t.Fatal(err)
	}
	pu.Scheme, pu.Host = pv.Scheme, pv.Host
	return pu.String()
}

func TestFileStore_ErrKeyFileReadable(t *testing.T) {
	dir := t.TempDir()
	openFileStore(t, dir)
	if err := os.Chmod(filepath.Join(dir, "blob-hmac.key"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := blob.OpenFileStore(dir, func() string { return "" }); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("OpenFileStore with a world-readable key: %v", err)
	}
}

// TestFileStore_AtomicWrite: readers, through the API and through signed GETs, see one whole
// version or the other while a writer replaces an object, never part of one; a refused upload
// leaves no file behind.
func TestFileStore_AtomicWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openFileStore(t, dir)
	versions := [][]byte{bytes.Repeat([]byte("a"), 1<<20), bytes.Repeat([]byte("b"), 1<<19)}
	const key = "photos/replaced"
	if err := s.Write(ctx, key, "image/jpeg", versions[0]); err != nil {
		t.Fatal(err)
	}
	u, err := s.SignedURL(ctx, key, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	whole := func(b []byte) bool { return bytes.Equal(b, versions[0]) || bytes.Equal(b, versions[1]) }

	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 40; i++ {
			if err := s.Write(ctx, key, "image/jpeg", versions[i%2]); err != nil {
				t.Error(err)
				break
			}
		}
		close(done)
	}()
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				// t.Fatal may not run off the test's goroutine: errors are reported with t.Error.
				r, err := s.NewReader(ctx, key, 1<<20)
				if err != nil {
					t.Errorf("NewReader: %v", err)
					return
				}
				b, err := io.ReadAll(r)
				r.Close()
				if err != nil || !whole(b) {
					t.Errorf("NewReader saw %d bytes (%v), not a whole version", len(b), err)
					return
				}
				resp, err := http.Get(u)
				if err != nil {
					t.Errorf("signed GET: %v", err)
					return
				}
				b, err = io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK || !whole(b) {
					t.Errorf("signed GET saw %d, %d bytes (%v), not a whole version", resp.StatusCode, len(b), err)
					return
				}
			}
		}()
	}
	wg.Wait()

	form, err := s.PresignPost(ctx, "staging/carol/big", "image/jpeg", 1000, time.Now().Add(time.Minute), blob.PostSuccess{})
	if err != nil {
		t.Fatal(err)
	}
	if status, _ := post(t, form, make([]byte, 5000), nil); status != http.StatusBadRequest {
		t.Errorf("over-size upload answered %d", status)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(entries) != 0 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if _, err := s.Attributes(ctx, "staging/carol/big"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("refused upload stored: %v", err)
	}
}

// TestFileStore_StaleTemps: a temporary file a crash left is never listed, and is removed when
// the store is next opened.
func TestFileStore_StaleTemps(t *testing.T) {
	dir := t.TempDir()
	openFileStore(t, dir)
	stale := filepath.Join(dir, "tmp", "object-123")
	if err := os.WriteFile(stale, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(stale, old, old)
	s := openFileStore(t, dir)
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temporary file still there: %v", err)
	}
	var keys []string
	s.List(context.Background(), "", func(k string, _ time.Time) error { keys = append(keys, k); return nil })
	if len(keys) != 0 {
		t.Errorf("List = %v", keys)
	}
}

// TestFileStore_Get checks the signed GET's headers: the stored type, nosniff, ETag, caching by
// key kind, ranges and conditional requests.
func TestFileStore_Get(t *testing.T) {
	ctx := context.Background()
	s := openFileStore(t, t.TempDir(), blob.WithImmutable(func(key string) bool { return strings.HasPrefix(key, "photos/") }))
	data := photo(1000)
	for _, k := range []string{"photos/sha", "staging/dave/u"} {
		if err := s.Write(ctx, k, "image/webp", data); err != nil {
			t.Fatal(err)
		}
	}
	immutable, _ := s.SignedURL(ctx, "photos/sha", time.Now().Add(time.Hour))
	mutable, _ := s.SignedURL(ctx, "staging/dave/u", time.Now().Add(time.Hour))
	a, _ := s.Attributes(ctx, "photos/sha")
	if sum := sha256.Sum256(data); a.ETag != hex.EncodeToString(sum[:]) || a.Size != 1000 || a.ContentType != "image/webp" {
		t.Errorf("Attributes = %+v, want the SHA-256 as ETag", a)
	}

	resp, body := get(t, immutable, nil)
	for h, want := range map[string]string{
		"Content-Type":           "image/webp",
		"X-Content-Type-Options": "nosniff",
		"ETag":                   `"` + a.ETag + `"`,
		"Cache-Control":          "public, max-age=31536000, immutable",
		"Accept-Ranges":          "bytes",
		"Content-Length":         "1000",
	} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	if !bytes.Equal(body, data) {
		t.Error("body differs")
	}
	if resp, _ := get(t, mutable, nil); resp.Header.Get("Cache-Control") != "private, no-cache" {
		t.Errorf("staging object Cache-Control %q", resp.Header.Get("Cache-Control"))
	}
	resp, body = get(t, immutable, http.Header{"Range": {"bytes=10-19"}})
	if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, data[10:20]) || resp.Header.Get("Content-Range") != "bytes 10-19/1000" {
		t.Errorf("Range: %d %q %d bytes", resp.StatusCode, resp.Header.Get("Content-Range"), len(body))
	}
	if resp, _ := get(t, immutable, http.Header{"If-None-Match": {`"` + a.ETag + `"`}}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", resp.StatusCode)
	}
	if err := s.Delete(ctx, "photos/sha"); err != nil {
		t.Fatal(err)
	}
	if resp, body := get(t, immutable, nil); resp.StatusCode != http.StatusNotFound || errorCode(string(body)) != "NoSuchKey" {
		t.Errorf("deleted object: %d %s", resp.StatusCode, body)
	}
}

// TestFileStore_Handler_Err covers requests the handler refuses before any signature check.
func TestFileStore_Handler_Err(t *testing.T) {
	s, err := blob.OpenFileStore(t.TempDir(), func() string { return "http://example.test" })
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, tc := range []struct {
		name, method, target, contentType, body string
		status                                  int
		code                                    string
	}{
		{"PUT", http.MethodPut, "/media/photos/x", "", "", 405, "MethodNotAllowed"},
		{"GET without key", http.MethodGet, "/media/", "", "", 405, "MethodNotAllowed"},
		{"POST to a key", http.MethodPost, "/media/photos/x", "", "", 405, "MethodNotAllowed"},
		{"GET unsigned", http.MethodGet, "/media/photos/x", "", "", 403, "SignatureDoesNotMatch"},
		{"GET dot-dot", http.MethodGet, "/media/photos/../blob-hmac.key?expires=1&signature=0", "", "", 400, "InvalidArgument"},
		{"POST not multipart", http.MethodPost, "/media/", "application/x-www-form-urlencoded", "key=a", 400, "InvalidArgument"},
		{"POST without file", http.MethodPost, "/media/", "multipart/form-data; boundary=XX", "--XX\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\na\r\n--XX--\r\n", 400, "InvalidArgument"},
		{"POST repeated field", http.MethodPost, "/media/", "multipart/form-data; boundary=XX", "--XX\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\na\r\n--XX\r\nContent-Disposition: form-data; name=\"Key\"\r\n\r\nb\r\n--XX--\r\n", 400, "InvalidArgument"},
		{"POST fields too large", http.MethodPost, "/media/", "multipart/form-data; boundary=XX", "--XX\r\nContent-Disposition: form-data; name=\"policy\"\r\n\r\n" + strings.Repeat("p", 30<<10) + "\r\n--XX--\r\n", 400, "MaxPostPreDataLengthExceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, "http://example.test/", strings.NewReader(tc.body))
			req.URL.Path, req.URL.RawQuery, _ = strings.Cut(tc.target, "?")
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status || errorCode(rec.Body.String()) != tc.code {
				t.Errorf("%d %s, want %d %s", rec.Code, rec.Body.String(), tc.status, tc.code)
			}
		})
	}
}

// TestFileStore_WriteSameBytes: writing a content-addressed key again with the same bytes
// leaves the file alone; other bytes or another type replace it.
func TestFileStore_WriteSameBytes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openFileStore(t, dir)
	const key = "photos/same"
	if err := s.Write(ctx, key, "image/jpeg", []byte("one")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "objects", "photos", "same")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	mtime := func() time.Time {
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	if err := s.Write(ctx, key, "image/jpeg", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if !mtime().Equal(old) {
		t.Error("the same bytes were written again")
	}
	if err := s.Write(ctx, key, "image/png", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.Attributes(ctx, key); a.ContentType != "image/png" || mtime().Equal(old) {
		t.Errorf("another content type did not replace the object: %+v", a)
	}
}

// TestFileStore_ErrInternal: a store that cannot write answers 500 InternalError without the
// cause, which goes to the log.
func TestFileStore_ErrInternal(t *testing.T) {
	dir := t.TempDir()
	var logs bytes.Buffer
	s := openFileStore(t, dir, blob.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	form, err := s.PresignPost(context.Background(), "staging/erin/u", "image/jpeg", 100, time.Now().Add(time.Minute), blob.PostSuccess{})
	if err != nil {
		t.Fatal(err)
	}
	// Temporary files cannot be created where a file stands in for the directory.
	if err := os.RemoveAll(filepath.Join(dir, "tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tmp"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	status, body := post(t, form, []byte("jpeg"), nil)
	if status != http.StatusInternalServerError || errorCode(body) != "InternalError" || strings.Contains(body, dir) {
		t.Errorf("answered %d %s", status, body)
	}
	if !strings.Contains(logs.String(), "not a directory") {
		t.Errorf("log: %q", logs.String())
	}
}

// TestFileStore_SlowUpload: behind a server whose read and write timeouts are far shorter than
// the upload takes, a photo whose bytes keep coming is stored, as from a phone on a slow
// network. One that stalls is dropped once it has sent nothing for the store's stall limit (2 s
// here), not at the server's timeouts; and a trickle of bytes cannot hold the connection past
// the form's expiry (plus the stall limit). Nothing of a dropped upload is stored.
func TestFileStore_SlowUpload(t *testing.T) {
	const stall = 2 * time.Second
	for _, tc := range []struct {
		name    string
		expires time.Duration // the form's policy expires this long after it is signed
		gap     time.Duration // between the sixteen pieces of the file
		stallAt int           // the client falls silent before this piece; 0: never
		stored  bool
	}{
		{"steady", time.Minute, 100 * time.Millisecond, 0, true},
		{"stalled", time.Minute, 100 * time.Millisecond, 8, false},
		{"trickling past the form's expiry", 500 * time.Millisecond, 400 * time.Millisecond, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var base string
			fs, err := blob.OpenFileStore(t.TempDir(), func() string { return base }, blob.WithUploadStall(stall))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewUnstartedServer(fs.Handler())
			srv.Config.ReadTimeout, srv.Config.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond
			srv.Start()
			t.Cleanup(srv.Close)
			base = srv.URL

			key, data := "staging/bob/slow", photo(64<<10)
			form, err := fs.PresignPost(ctx, key, "image/jpeg", int64(len(data)), time.Now().Add(tc.expires), blob.PostSuccess{})
			if err != nil {
				t.Fatal(err)
			}
			pr, pw := io.Pipe()
			mw := multipart.NewWriter(pw)
			silent := make(chan time.Time, 1) // when the client fell silent
			go func() {
				for k, v := range form.Fields {
					mw.WriteField(k, v)
				}
				fw, _ := mw.CreateFormFile("file", "photo.jpg")
				piece := len(data) / 16
				for i := 0; i < 16; i++ {
					if tc.stallAt > 0 && i == tc.stallAt {
						silent <- time.Now()
						return // the connection stays open, silent, until the server drops it
					}
					if _, err := fw.Write(data[i*piece : (i+1)*piece]); err != nil {
						pw.CloseWithError(err)
						return
					}
					time.Sleep(tc.gap)
				}
				pw.CloseWithError(mw.Close())
			}()
			t.Cleanup(func() { pw.Close() })
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, form.URL, pr)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			resp, err := http.DefaultClient.Do(req)
			dropped := time.Now()
			status := 0
			if err == nil {
				status = resp.StatusCode
				resp.Body.Close()
			}
			switch {
			case ctx.Err() != nil:
				t.Fatal("the server never dropped the upload")
			case tc.stored && status != http.StatusNoContent:
				t.Fatalf("status %d, error %v; want 204", status, err)
			case tc.stored:
				if got := readAll(t, fs, key); !bytes.Equal(got, data) {
					t.Errorf("stored %d bytes, want the %d sent", len(got), len(data))
				}
			case status == http.StatusNoContent:
				t.Fatal("the upload was stored")
			default:
				assertAbsent(t, fs, key)
			}
			if tc.stallAt > 0 {
				// The stall limit, not the server's 300 ms timeouts, dropped it: the deadline is
				// pushed at most every stall/8, so it falls at least 7/8 of the limit after the
				// last byte.
				if quiet := dropped.Sub(<-silent); quiet < stall*7/8 {
					t.Errorf("dropped %v after the client fell silent, before the %v stall limit", quiet, stall)
				}
			}
		})
	}
}

// BenchmarkSignedURL is a photo's signed URL, which every photo of a page gets.
func BenchmarkSignedURL(b *testing.B) {
	s := openFileStore(b, b.TempDir())
	expires := time.Now().Add(time.Hour)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SignedURL(ctx, "images/0123456789abcdef0123456789abcdef/display.jpg", expires); err != nil {
			b.Fatal(err)
		}
	}
}
