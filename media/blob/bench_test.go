package blob_test

import (
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/media/blob"
)

// BenchmarkUpload measures upload throughput through the embedded store's POST endpoint
// against a baseline, both driven by curl over loopback with the same file so that only the
// server side differs:
//
//   - post/embedded-store: curl -F posts the presigned form and the file to FileStore.Handler,
//     which verifies the policy, streams the file to a temporary file, syncs and renames it.
//   - post/discard: the same curl -F to a handler that parses the multipart body and discards
//     it: what the HTTP and multipart work alone costs.
//   - get/static-file-server: curl fetches the same file from net/http's FileServer, the plain
//     transfer of those bytes on this machine.
//
// MB/s is file bytes over wall time per curl run (process start included in both). See
// docs/benchmarks.md, "Uploads".
func BenchmarkUpload(b *testing.B) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		b.Skip("curl is not installed")
	}
	const size = 32 << 20
	dir := b.TempDir()
	file := filepath.Join(dir, "photo.bin")
	data := make([]byte, size)
	rand.Read(data)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		b.Fatal(err)
	}

	b.Run("post/embedded-store", func(b *testing.B) {
		var base string
		s, err := blob.OpenFileStore(b.TempDir(), func() string { return base })
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(s.Handler())
		defer srv.Close()
		base = srv.URL
		b.SetBytes(size)
		for i := 0; b.Loop(); i++ {
			form, err := s.PresignPost(context.Background(), "staging/bench/upload", "application/octet-stream", size, time.Now().Add(time.Hour), blob.PostSuccess{})
			if err != nil {
				b.Fatal(err)
			}
			args := []string{"-sS", "--fail-with-body", "-o", "/dev/null"}
			for k, v := range form.Fields {
				// --form-string takes the value literally (no @file or <file reading).
				args = append(args, "--form-string", k+"="+v)
			}
			args = append(args, "-F", "file=@"+file, form.URL)
			if out, err := exec.Command(curl, args...).CombinedOutput(); err != nil {
				b.Fatalf("curl: %v: %s", err, out)
			}
		}
	})

	b.Run("post/discard", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mr, err := r.MultipartReader()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				io.Copy(io.Discard, p)
			}
			w.WriteHeader(http.StatusNoContent)
		}))
		defer srv.Close()
		b.SetBytes(size)
		for b.Loop() {
			if out, err := exec.Command(curl, "-sS", "--fail", "-o", "/dev/null", "-F", "key=k", "-F", "file=@"+file, srv.URL).CombinedOutput(); err != nil {
				b.Fatalf("curl: %v: %s", err, strings.TrimSpace(string(out)))
			}
		}
	})

	b.Run("get/static-file-server", func(b *testing.B) {
		srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
		defer srv.Close()
		b.SetBytes(size)
		for b.Loop() {
			if out, err := exec.Command(curl, "-sS", "--fail", "-o", "/dev/null", srv.URL+"/photo.bin").CombinedOutput(); err != nil {
				b.Fatalf("curl: %v: %s", err, strings.TrimSpace(string(out)))
			}
		}
	})
}
