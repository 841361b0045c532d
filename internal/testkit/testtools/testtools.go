// Package testtools decides what a test does when a tool it runs beside the code is not
// installed: a plain `go test ./...` with only Go skips it, saying how to install the tool,
// while `make test`, and so CI, sets the tool's QUICKPHOTOS_REQUIRE_… variable, under which a
// missing install fails the test. It finds the small tools itself (redis-server, strace, a
// python3 with boto3); DynamoDB Local, versitygw and the npm tools (jstools) have packages of
// their own that decide through it. It also gives tests the module's root and a free port.
package testtools

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
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

// ModuleRoot is the nearest directory, from the working directory up, that holds a go.mod: the
// root of this module, where tools/ and its installs are, whichever package's test runs.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working directory or any parent")
		}
		dir = parent
	}
}

// FreePort is a port of 127.0.0.1 free when asked: a server started on it may still lose it to
// another process, which its caller retries or reports. It returns an error rather than
// failing a test, for callers that have none (a TestMain).
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// FreeAddr is the address 127.0.0.1:port of a FreePort, and fails t if there is none.
func FreeAddr(t testing.TB) string {
	t.Helper()
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}
