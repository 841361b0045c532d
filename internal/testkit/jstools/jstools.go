// Package jstools runs, from tests, the JavaScript tools that a directory of tools/ pins with
// npm, on the machine's Node.js: the GraphQL over HTTP audit and graphql-ws's client
// (tools/graphql-js), Apollo Client and relay-compiler (tools/graphql-clients), the Apollo
// Server peer (tools/apollo-peer) and the AWS SDK for JavaScript (tools/aws-clients).
//
// A plain `go test` without Node.js or the npm install skips the tests that need one, saying
// how to install it; `make test`, and so CI, sets each directory's QUICKPHOTOS_REQUIRE_…
// variable, under which a missing install fails them instead.
package jstools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// Tools is one directory of tools/ whose npm packages a test runs.
type Tools struct {
	dir        string // relative to the module root
	what       string // the tools, as a skip or a failure names them
	requireEnv string // set, makes a missing install a failure instead of a skip
}

// The pinned directories, each with the variable that `make test` sets for it.
var (
	GraphQLJS      = Tools{"tools/graphql-js", "the JavaScript GraphQL tools", "QUICKPHOTOS_REQUIRE_GRAPHQL_JS"}
	GraphQLClients = Tools{"tools/graphql-clients", "the GraphQL client tools", "QUICKPHOTOS_REQUIRE_GRAPHQL_CLIENTS"}
	ApolloPeer     = Tools{"tools/apollo-peer", "the Apollo peer (needs Node.js)", "QUICKPHOTOS_REQUIRE_APOLLO_PEER"}
	AWSClients     = Tools{"tools/aws-clients", "the AWS SDK for JavaScript", "QUICKPHOTOS_REQUIRE_AWS_SDK_JS"}
	// WebApp is the web app's own packages (web/package.json): its build, lint and unit tests,
	// and playwright-core and axe-core for its browser tests.
	WebApp = Tools{"web", "the web app's npm packages", "QUICKPHOTOS_REQUIRE_WEB"}
)

// installHint says how to install the tools.
func (tl Tools) installHint() string { return "npm ci --prefix " + tl.dir }

// Dir returns node and the tools' directory in the module root, or skips the test (fails it
// under the tools' QUICKPHOTOS_REQUIRE_… variable) when Node.js or the npm install is missing.
func (tl Tools) Dir(t testing.TB) (node, dir string) {
	t.Helper()
	root, err := testtools.ModuleRoot()
	dir = filepath.Join(root, tl.dir)
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	}
	if err == nil {
		node, err = exec.LookPath("node")
	}
	if err != nil {
		testtools.Missing(t, tl.requireEnv, tl.what, tl.installHint(), err)
	}
	return node, dir
}

// Script returns node and the path of script in the tools' directory, or skips the test as
// Dir does.
func (tl Tools) Script(t testing.TB, script string) (node, path string) {
	t.Helper()
	node, dir := tl.Dir(t)
	return node, filepath.Join(dir, script)
}
