// Package testtools decides what a test does when a tool it runs beside the code (DynamoDB
// Local aside, which has its own package) is not installed: a plain `go test ./...` with only Go
// skips it, saying how to install the tool, while `make test`, and so CI, sets the tool's
// QUICKPHOTOS_REQUIRE_… variable, under which a missing install fails the test.
package testtools

import (
	"os"
	"testing"
)

// Required reports whether the environment variable env is set to anything but "" or "0".
func Required(env string) bool {
	v := os.Getenv(env)
	return v != "" && v != "0"
}

// Missing ends the test because tool cannot run (err says why): it fails under env, and is
// skipped otherwise; hint says how to install the tool.
func Missing(t testing.TB, env, tool, hint string, err error) {
	t.Helper()
	if Required(env) {
		t.Fatalf("%s cannot run: %v (install: %s)", tool, err, hint)
	}
	t.Skipf("%s is not installed (%v; install: %s); %s=1 makes this a failure", tool, err, hint, env)
}
