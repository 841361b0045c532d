// Package versitygw runs versitygw, an S3 gateway over a POSIX directory that checks SigV4
// signatures and POST policies as S3 does, on 127.0.0.1 for tests of code that speaks S3. The
// binary is the one `make deps` installs into tools/versitygw/bin (pinned in the Makefile);
// without it a plain `go test` skips, and `make test` (RequireEnv) fails.
package versitygw

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// RequireEnv makes a missing versitygw a test failure instead of a skip; `make test`, and so
// CI, sets it.
const RequireEnv = "QUICKPHOTOS_REQUIRE_VERSITYGW"

// InstallHint says how to install the binary.
const InstallHint = "make deps (go install github.com/versity/versitygw/cmd/versitygw into tools/versitygw/bin)"

// Region is the region the gateway signs for.
const Region = "us-east-1"

// Server is a running gateway with one root user.
type Server struct {
	Endpoint  string // http://127.0.0.1:port
	AccessKey string
	SecretKey string
	Dir       string // the POSIX root; each bucket is a directory in it
}

// Start runs a gateway over a new temporary directory until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := binary()
	if err != nil {
		testtools.Missing(t, RequireEnv, "versitygw", InstallHint, err)
	}
	s := &Server{AccessKey: "quickphotos" + randomHex(4), SecretKey: randomHex(20), Dir: t.TempDir()}
	// The port is chosen by listening on :0 and closing; another process may take it before the
	// gateway binds, so a start that fails is tried again on a new port.
	meta := t.TempDir()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		addr := testtools.FreeAddr(t)
		var logs bytes.Buffer
		// Metadata (content type, ETag) goes to a sidecar directory rather than extended
		// attributes, which not every temporary file system supports.
		cmd := exec.Command(bin, "--access", s.AccessKey, "--secret", s.SecretKey, "--region", Region,
			"--port", addr, "--quiet", "posix", "--sidecar", meta, s.Dir)
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			testtools.Missing(t, RequireEnv, "versitygw", InstallHint, err)
		}
		exited := make(chan struct{})
		var waitErr error
		go func() { waitErr = cmd.Wait(); close(exited) }()
		s.Endpoint = "http://" + addr
		if lastErr = waitReady(s.Endpoint, exited, &waitErr); lastErr == nil {
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			return s
		}
		cmd.Process.Kill()
		<-exited
		lastErr = fmt.Errorf("%w; output:\n%s", lastErr, logs.String())
	}
	t.Fatalf("versitygw did not start: %v", lastErr)
	return nil
}

// Client returns an S3 client for the root user, with path-style addressing as the gateway
// needs.
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	})
}

// CreateBucket creates a bucket with a unique name starting with prefix and returns its name.
func (s *Server) CreateBucket(t testing.TB, prefix string) string {
	t.Helper()
	name := prefix + "-" + randomHex(4)
	if _, err := s.Client().CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("create bucket %s: %v", name, err)
	}
	return name
}

// binary finds tools/versitygw/bin/versitygw in the module root, else versitygw on PATH.
func binary() (string, error) {
	if root, err := testtools.ModuleRoot(); err == nil {
		p := filepath.Join(root, "tools", "versitygw", "bin", "versitygw")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("versitygw")
	if err != nil {
		return "", errors.New("neither tools/versitygw/bin/versitygw nor versitygw on PATH")
	}
	return p, nil
}

// waitReady polls the endpoint until it answers HTTP (any status: an unsigned request is
// refused) or the process exits.
func waitReady(endpoint string, exited <-chan struct{}, waitErr *error) error {
	deadline := time.Now().Add(30 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("versitygw exited: %v", *waitErr)
		default:
		}
		if resp, err := client.Get(endpoint + "/"); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("versitygw did not answer within 30s")
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
