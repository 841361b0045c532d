package testtools_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// TestTestkit_OnlyTestsImportIt: no package outside internal/testkit imports a harness from its
// non-test files, so the binary never links the test harnesses (apitest alone brings in every
// server) and a harness may change without a production package noticing.
func TestTestkit_OnlyTestsImportIt(t *testing.T) {
	root, err := testtools.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	module := strings.Fields(lines[0])[0] // the root package comes first
	testkit := module + "/internal/testkit/"
	harnesses := 0
	for _, line := range lines {
		fields := strings.Fields(line)
		if strings.HasPrefix(fields[0], testkit) {
			harnesses++
			continue
		}
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, testkit) {
				t.Errorf("%s imports %s outside its tests", fields[0], imp)
			}
		}
	}
	if harnesses == 0 {
		t.Fatalf("go list found no package under %s", testkit)
	}
}
