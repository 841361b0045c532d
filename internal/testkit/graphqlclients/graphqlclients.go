// Package graphqlclients runs the GraphQL client tools pinned in tools/graphql-clients (Apollo
// Client, graphql-js, relay-compiler) from tests, with the machine's Node.js: they check that
// real clients can normalise and refetch quickphotos's objects by their global ids.
package graphqlclients

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// RequireEnv makes missing tools (no node, or the npm packages not installed) a test failure
// instead of a skip; `make test`, and so CI, sets it.
const RequireEnv = "QUICKPHOTOS_REQUIRE_GRAPHQL_CLIENTS"

// InstallHint says how to install the tools.
const InstallHint = "npm ci --prefix tools/graphql-clients"

// Dir returns node and the directory tools/graphql-clients, or skips the test (fails it under
// RequireEnv) when node or the installed packages are missing.
func Dir(t testing.TB) (node, dir string) {
	t.Helper()
	dir, err := toolsDir()
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	}
	if err == nil {
		node, err = exec.LookPath("node")
	}
	if err != nil {
		testtools.Missing(t, RequireEnv, "the GraphQL client tools", InstallHint, err)
	}
	return node, dir
}

// toolsDir is tools/graphql-clients in the module root.
func toolsDir() (string, error) {
	root, err := testtools.ModuleRoot()
	return filepath.Join(root, "tools", "graphql-clients"), err
}
