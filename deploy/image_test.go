package deploy

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/internal/testkit/procgroup"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

const requireBuildah = "QUICKPHOTOS_REQUIRE_BUILDAH"

// buildah runs buildah on a storage of its own (vfs, which needs no kernel overlay support),
// so that the test never touches the machine's images.
type buildah struct {
	t    *testing.T
	root string
}

func (b buildah) command(ctx context.Context, args ...string) *exec.Cmd {
	base := []string{"--root", filepath.Join(b.root, "storage"), "--runroot", filepath.Join(b.root, "run"), "--storage-driver", "vfs"}
	cmd := exec.CommandContext(ctx, "buildah", append(base, args...)...)
	cmd.Env = append(os.Environ(), "BUILDAH_ISOLATION=chroot", "TMPDIR="+b.root)
	return cmd
}

func (b buildah) run(args ...string) string {
	b.t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := b.command(context.Background(), args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.t.Fatalf("buildah %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}

// TestImage builds the Dockerfile's image offline as `make image` does (a static binary and the
// CA certificates on scratch), checks its configuration and contents, then runs its command and
// asks it for its health and for GraphQL answers.
func TestImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a container image with buildah, then runs it; skipped in -short mode")
	}
	if _, err := exec.LookPath("buildah"); err != nil {
		testtools.Missing(t, requireBuildah, "buildah", "apt-get install buildah", err)
	}
	tmp := t.TempDir()
	t.Cleanup(func() { unmountUnder(t, tmp) })
	b := buildah{t: t, root: tmp}

	// The build context: what the Dockerfile copies.
	buildContext := filepath.Join(tmp, "context")
	if err := os.MkdirAll(filepath.Join(buildContext, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(buildContext, "quickphotos"), ".")
	build.Dir = ".."
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	certs, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Fatalf("the image takes the machine's CA certificates: %v (apt-get install ca-certificates)", err)
	}
	if err := os.WriteFile(filepath.Join(buildContext, "ca-certificates.crt"), certs, 0o644); err != nil {
		t.Fatal(err)
	}

	b.run("bud", "--format", "docker", "--quiet", "-f", "Dockerfile", "-t", "quickphotos:test", buildContext)

	// The configuration: a non-root user, the server as the command, a health check.
	var info struct {
		OCIv1 struct {
			Config struct {
				User         string
				Entrypoint   []string
				Cmd          []string
				Env          []string
				ExposedPorts map[string]any
				Volumes      map[string]any
			} `json:"config"`
		}
		Docker struct {
			Config struct {
				Healthcheck *struct {
					Test []string
				}
			} `json:"config"`
		}
	}
	if err := json.Unmarshal([]byte(b.run("inspect", "--type", "image", "quickphotos:test")), &info); err != nil {
		t.Fatal(err)
	}
	cfg := info.OCIv1.Config
	if cfg.User != "65532:65532" {
		t.Errorf("user %q, want 65532:65532 (non-root)", cfg.User)
	}
	command := append(slices.Clone(cfg.Entrypoint), cfg.Cmd...)
	if !slices.Equal(command, []string{"/quickphotos", "serve"}) {
		t.Errorf("entrypoint %q and command %q, want /quickphotos serve", cfg.Entrypoint, cfg.Cmd)
	}
	if !slices.Contains(cfg.Env, "QUICKPHOTOS_ADDR=0.0.0.0:8080") || !slices.Contains(cfg.Env, "QUICKPHOTOS_DATA=/data") {
		t.Errorf("environment %q, want QUICKPHOTOS_ADDR=0.0.0.0:8080 and QUICKPHOTOS_DATA=/data", cfg.Env)
	}
	if _, ok := cfg.ExposedPorts["8080/tcp"]; !ok {
		t.Errorf("exposed ports %v, want 8080/tcp", cfg.ExposedPorts)
	}
	if _, ok := cfg.Volumes["/data"]; !ok {
		t.Errorf("volumes %v, want /data", cfg.Volumes)
	}
	hc := info.Docker.Config.Healthcheck
	if hc == nil || len(hc.Test) < 2 || hc.Test[0] != "CMD" {
		t.Fatalf("health check %+v, want CMD /quickphotos healthcheck", hc)
	}
	healthcheck := hc.Test[1:]
	if !slices.Equal(healthcheck, []string{"/quickphotos", "healthcheck"}) {
		t.Errorf("health check %q, want /quickphotos healthcheck", healthcheck)
	}

	// The contents, as exported: the binary, static, its certificates and the data directory
	// the user owns; nothing else.
	archive := filepath.Join(tmp, "quickphotos.tar")
	b.run("push", "--quiet", "quickphotos:test", "oci-archive:"+archive+":quickphotos:test")
	files := imageFiles(t, archive)
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"data/", "etc/", "etc/ssl/", "etc/ssl/certs/", "etc/ssl/certs/ca-certificates.crt", "quickphotos"}
	if !slices.Equal(names, want) {
		t.Errorf("the image holds %q, want %q", names, want)
	}
	if h := files["data/"]; h == nil || h.Uid != 65532 || h.Gid != 65532 {
		t.Errorf("/data is %+v, want it owned by 65532:65532", h)
	}
	if h := files["quickphotos"]; h == nil || h.Mode&0o111 == 0 {
		t.Errorf("/quickphotos is %+v, want an executable", h)
	}

	// Running it: the image's own command with the configuration an operator gives it (a
	// verifier, since it listens beyond loopback; here a development secret, on a free
	// loopback port of the host's network).
	container := b.run("from", "quickphotos:test")
	addr := testtools.FreeAddr(t)
	const secret = "a development secret of 32 bytes or more"
	serve := b.command(context.Background(), append([]string{"run", "--isolation", "chroot",
		"--env", "QUICKPHOTOS_ADDR=" + addr, "--env", "QUICKPHOTOS_JWT_SECRET=" + secret,
		container, "--"}, command...)...)
	procgroup.Own(serve)
	var output syncbuf.Buffer
	serve.Stdout, serve.Stderr = &output, &output
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- serve.Wait() }()
	t.Cleanup(func() { stop(t, serve, exited) })

	base := "http://" + addr
	waitHealthy(t, base+"/healthz", exited, &output)

	// It runs as the image's user, not as root.
	if uid, err := serverUID(tmp); err != nil || uid != "65532" {
		t.Errorf("the server runs as uid %q (%v), want 65532", uid, err)
	}

	// The image's health check command, run in the container beside the server.
	check := b.command(context.Background(), append([]string{"run", "--isolation", "chroot", "--env", "QUICKPHOTOS_ADDR=" + addr, container, "--"}, healthcheck...)...)
	if out, err := check.CombinedOutput(); err != nil || !strings.Contains(string(out), "healthy") {
		t.Errorf("health check: %v\n%s", err, out)
	}

	// GraphQL: refused without a token, and with one a user is created and read back.
	token, err := auth.Mint([]byte(secret), "alice", time.Hour, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := graphql(t, base, "", `{ viewer { username } }`); !strings.Contains(got, "UNAUTHENTICATED") {
		t.Errorf("without a token: %s, want UNAUTHENTICATED", got)
	}
	if got := graphql(t, base, token, `mutation { createUser(input: {username: "alice", name: "Alice"}) { username } }`); got != `{"data":{"createUser":{"username":"alice"}}}` {
		t.Errorf("createUser: %s", got)
	}
	if got := graphql(t, base, token, `{ viewer { username name } }`); got != `{"data":{"viewer":{"username":"alice","name":"Alice"}}}` {
		t.Errorf("viewer: %s", got)
	}
}

// imageFiles lists the files of the single-manifest OCI archive's layers, by path.
func imageFiles(t *testing.T, archive string) map[string]*tar.Header {
	t.Helper()
	blobs := map[string][]byte{}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if data, err := io.ReadAll(tr); err != nil {
			t.Fatal(err)
		} else {
			blobs[strings.TrimPrefix(h.Name, "./")] = data
		}
	}
	type descriptor struct {
		MediaType string
		Digest    string
	}
	blob := func(d descriptor) []byte {
		data, ok := blobs["blobs/"+strings.Replace(d.Digest, ":", "/", 1)]
		if !ok {
			t.Fatalf("the archive lacks blob %s", d.Digest)
		}
		return data
	}
	var index struct{ Manifests []descriptor }
	if err := json.Unmarshal(blobs["index.json"], &index); err != nil || len(index.Manifests) != 1 {
		t.Fatalf("index.json: %v, %d manifests", err, len(index.Manifests))
	}
	var manifest struct{ Layers []descriptor }
	if err := json.Unmarshal(blob(index.Manifests[0]), &manifest); err != nil {
		t.Fatal(err)
	}
	files := map[string]*tar.Header{}
	for _, l := range manifest.Layers {
		var r io.Reader = bytes.NewReader(blob(l))
		if strings.HasSuffix(l.MediaType, "gzip") {
			if r, err = gzip.NewReader(r); err != nil {
				t.Fatal(err)
			}
		}
		lr := tar.NewReader(r)
		for {
			h, err := lr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimPrefix(h.Name, "./")
			if name == "" {
				continue
			}
			files[name] = h
			if name == "quickphotos" {
				checkStatic(t, lr)
			}
		}
	}
	return files
}

// checkStatic fails unless the ELF binary read from r asks for no dynamic loader or library:
// scratch has neither.
func checkStatic(t *testing.T, r io.Reader) {
	t.Helper()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("/quickphotos: %v", err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("/quickphotos names a dynamic loader: build it with CGO_ENABLED=0")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("/quickphotos needs libraries %v", libs)
	}
}

func waitHealthy(t *testing.T, url string, exited <-chan error, output *syncbuf.Buffer) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(string(body), `"ok"`) {
				return
			}
			err = fmt.Errorf("%s: %s", resp.Status, body)
		}
		select {
		case e := <-exited:
			t.Fatalf("the container stopped (%v) before it answered:\n%s", e, output.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %v\n%s", url, err, output.String())
		}
	}
}

// serverUID returns the uid of the container's server: the `/quickphotos serve` process whose
// root directory is in this test's storage.
func serverUID(storage string) (string, error) {
	pids, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return "", err
	}
	for _, p := range pids {
		cmdline, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || string(cmdline) != "/quickphotos\x00serve\x00" {
			continue
		}
		if root, err := os.Readlink(filepath.Join(p, "root")); err != nil || !strings.HasPrefix(root, storage+"/") {
			continue
		}
		status, err := os.Open(filepath.Join(p, "status"))
		if err != nil {
			return "", err
		}
		defer status.Close()
		s := bufio.NewScanner(status)
		for s.Scan() {
			if uids, ok := strings.CutPrefix(s.Text(), "Uid:"); ok {
				return strings.Fields(uids)[1], nil // the effective uid
			}
		}
		return "", fmt.Errorf("%s/status has no Uid line", p)
	}
	return "", errors.New("no /quickphotos serve process runs in the container")
}

func graphql(t *testing.T, base, token, query string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	req, err := http.NewRequest(http.MethodPost, base+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, out); err != nil {
		return string(out)
	}
	return compact.String()
}

// stop ends `buildah run` and the server in it: SIGTERM to its process group (serve shuts down
// gracefully), SIGKILL if that takes too long.
func stop(t *testing.T, cmd *exec.Cmd, exited <-chan error) {
	if inTime, _ := procgroup.Stop(cmd, exited, 20*time.Second); !inTime {
		t.Error("the container did not stop on SIGTERM")
	}
}

// unmountUnder detaches anything still mounted under dir (a container's /proc, /dev, /sys if a
// run was cut short), so that removing dir cannot reach into the host's.
func unmountUnder(t *testing.T, dir string) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return
	}
	var mounts []string
	for _, line := range strings.Split(string(data), "\n") {
		if fields := strings.Fields(line); len(fields) > 4 && strings.HasPrefix(fields[4], dir+"/") {
			mounts = append(mounts, fields[4])
		}
	}
	slices.SortFunc(mounts, func(a, b string) int { return len(b) - len(a) }) // deepest first
	for _, m := range mounts {
		if err := syscall.Unmount(m, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", m, err)
		}
	}
}
