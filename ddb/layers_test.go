package ddb

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// modulePath is the import path of package ddb.
const modulePath = "github.com/quickphotos/quickphotos/ddb"

// layers is the one-way import map of the engine's packages (doc.go, "Layers"): each
// package under ddb/internal may import only the ddb packages listed for it.
// The operations import no front-end, and the front-ends do not import each
// other; only package ddb wires them together. A new package needs a line
// here, which states where it sits.
var layers = map[string][]string{
	"internal/storage":     {"attr"},
	"internal/engine":      {"attr", "expr", "internal/storage"},
	"internal/partiqlexec": {"attr", "expr", "partiql", "internal/engine", "internal/storage"},
	"internal/wire":        {"attr", "expr", "internal/partiqlexec", "internal/engine", "internal/storage"},
	"internal/sdkapi":      {"attr", "expr", "internal/partiqlexec", "internal/engine", "internal/storage"},
	// The engine's own building blocks import nothing of the engine.
	"attr":    {},
	"expr":    {"attr"},
	"partiql": {"attr"},
}

// TestLayers fails when a package of the engine imports one it must not:
// the layers of the engine only import downwards (layers above).
func TestLayers(t *testing.T) {
	found := map[string]bool{}
	for _, root := range []string{"internal", "attr", "expr", "partiql"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			pkg, err := build.ImportDir(path, 0)
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			if err != nil {
				return err
			}
			rel := filepath.ToSlash(path)
			found[rel] = true
			allowed, ok := layers[rel]
			if !ok {
				t.Errorf("package ddb/%s has no line in layers: say which ddb packages it may import", rel)
				return nil
			}
			for _, imp := range pkg.Imports {
				if imp != modulePath && !strings.HasPrefix(imp, modulePath+"/") {
					continue
				}
				dep := strings.TrimPrefix(strings.TrimPrefix(imp, modulePath), "/")
				if dep == "" {
					t.Errorf("ddb/%s imports package ddb: nothing below the facade may", rel)
					continue
				}
				if !slices.Contains(allowed, dep) {
					t.Errorf("ddb/%s imports ddb/%s, which is not below it (allowed: %v)", rel, dep, allowed)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for rel := range layers {
		if !found[rel] {
			t.Errorf("layers names ddb/%s, which has no Go files", rel)
		}
	}
}
