package main

import (
	"bufio"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// chromiumPath is Debian's chromium, which .ci/run installs; no browser is downloaded.
const chromiumPath = "/usr/bin/chromium"

// TestWebApp_InABrowser runs the web app's browser tests (web/e2e/app.mjs: two people, a live
// upload, optimistic reactions and a rollback, a day offline and the sync after it, axe-core on
// every screen) in Chromium against a real serve on loopback: the embedded store in memory
// with the sample, and only the app's own trusted documents running (enforce). The script's
// lines are this test's log: the live update's delay and the first photo's time among them.
// A failure leaves a screenshot of each page in the test's temporary directory (kept when the
// test fails), its path logged.
func TestWebApp_InABrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		testtools.Missing(t, "QUICKPHOTOS_REQUIRE_CHROMIUM", "Chromium", "apt-get install chromium", err)
	}
	node, dir := jstools.WebApp.Dir(t)
	manifest := filepath.Join(dir, "src", "gql", "persisted-documents.json")
	base := startServe(t, "--addr", "127.0.0.1:0", "--in-memory", "--sample",
		"--trusted-documents", manifest, "--trusted-documents-mode", "enforce")

	// The test's own directory, kept when the test fails so that its screenshots can be seen.
	out, err := os.MkdirTemp("", "quickphotos-browser-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			_ = os.RemoveAll(out)
		}
	})
	var files []string
	for i, c := range []color.RGBA{{200, 90, 40, 255}, {40, 120, 200, 255}} {
		files = append(files, writeJPEG(t, filepath.Join(out, "photo"+string(rune('1'+i))+".jpg"), c))
	}
	cmd := exec.CommandContext(t.Context(), node, filepath.Join(dir, "e2e", "app.mjs"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "QP_BASE="+base, "QP_OUT="+out, "QP_JPEGS="+strings.Join(files, ","),
		"QP_MANIFEST="+manifest, "QP_CHROMIUM="+chromiumPath)
	cmd.WaitDelay = 10 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	passed := false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		t.Log(sc.Text())
		passed = passed || sc.Text() == "e2e: passed"
	}
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil || !passed {
		t.Fatalf("the browser tests failed (%v); screenshots, if any, are in %s", err, out)
	}
}

// writeJPEG writes a real 800×600 JPEG, a gradient over c, as a camera's file would be.
func writeJPEG(t *testing.T, path string, c color.RGBA) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 800, 600))
	for y := range 600 {
		for x := range 800 {
			img.SetRGBA(x, y, color.RGBA{c.R ^ uint8(x/4), c.G ^ uint8(y/3), c.B, 255})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return path
}
