// Package graphqljs runs the JavaScript GraphQL tools pinned in tools/graphql-js (the
// graphql-http server audit, the graphql-ws client) from tests, with the machine's Node.js.
package graphqljs

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// RequireEnv makes missing tools (no node, or the npm packages not installed) a test failure
// instead of a skip; `make test`, and so CI, sets it.
const RequireEnv = "QUICKPHOTOS_REQUIRE_GRAPHQL_JS"

// InstallHint says how to install the tools.
const InstallHint = "npm ci --prefix tools/graphql-js"

// Script returns node and the path of script in tools/graphql-js, or skips the test (fails it
// under RequireEnv) when either is missing.
func Script(t testing.TB, script string) (node, path string) {
	t.Helper()
	dir, err := toolsDir()
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	}
	if err == nil {
		node, err = exec.LookPath("node")
	}
	if err != nil {
		testtools.Missing(t, RequireEnv, "the JavaScript GraphQL tools", InstallHint, err)
	}
	return node, filepath.Join(dir, script)
}

// toolsDir is tools/graphql-js in the module root.
func toolsDir() (string, error) {
	root, err := testtools.ModuleRoot()
	return filepath.Join(root, "tools", "graphql-js"), err
}
