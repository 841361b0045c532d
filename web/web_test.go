package web_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
)

// The sources the build reads: copied to a directory of the test's own, so that building
// never touches the committed output it is compared with.
var sources = []string{"package.json", "package-lock.json", "codegen.ts", "index.html", "vite.config.ts", "eslint.config.js",
	"tsconfig.json", "tsconfig.app.json", "tsconfig.node.json", "tsconfig.test.json", "public", "src", "../schema.graphqls"}

// TestApp_BuildMatchesSources rebuilds the app (codegen, tsc --strict, vite build) from its
// sources and the schema, and fails when the committed build output (dist/, which the binary
// embeds, and src/gql/, which codegen writes) differs from what they make: an app whose
// sources changed without `npm run build --prefix web`, or an embedded build made from other
// sources.
func TestApp_BuildMatchesSources(t *testing.T) {
	node, dir := jstools.WebApp.Dir(t)
	tmp := t.TempDir()
	work := filepath.Join(tmp, "web")
	for _, s := range sources {
		copyTree(t, filepath.Join(dir, s), filepath.Join(work, s))
	}
	if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(work, "src", "gql")); err != nil {
		t.Fatal(err)
	}
	npmRun(t, node, work, "build")
	for _, out := range []string{"dist", filepath.Join("src", "gql")} {
		want := tree(t, filepath.Join(work, out))
		got := tree(t, filepath.Join(dir, out))
		for name, b := range want {
			if g, ok := got[name]; !ok {
				t.Errorf("web/%s/%s is missing: run `npm run build --prefix web` and commit it", out, name)
			} else if !bytes.Equal(g, b) {
				t.Errorf("web/%s/%s differs from what its sources build: run `npm run build --prefix web` and commit it", out, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("web/%s/%s is not built from the sources: remove it (`npm run build --prefix web` empties dist/)", out, name)
			}
		}
	}
}

// TestApp_LintAndUnitTests: ESLint and the app's Vitest unit tests pass.
func TestApp_LintAndUnitTests(t *testing.T) {
	node, dir := jstools.WebApp.Dir(t)
	npmRun(t, node, dir, "lint")
	npmRun(t, node, dir, "test")
}

func npmRun(t *testing.T, node, dir, script string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("npm: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), npm, "run", "--silent", script)
	cmd.Dir = dir
	// npm runs the scripts with the node beside it; PATH puts the one jstools found first.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm run %s: %v\n%s", script, err, out)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tree is every file under root by its slash-separated path.
func tree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
