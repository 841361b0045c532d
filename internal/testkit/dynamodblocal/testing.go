package dynamodblocal

import (
	"fmt"
	"os"
	"testing"
)

// Start launches an instance owned by one test, working in tb.TempDir(), and
// stops it in tb.Cleanup; if the test fails, the process's output is logged.
// A missing jar or java skips the test with the install command, or fails it
// when RequireEnv is set. Prefer one shared instance from Main when many tests
// need one.
func Start(tb testing.TB) *Instance {
	tb.Helper()
	if reason := SkipReason(); reason != "" {
		tb.Skip(reason)
	}
	in, err := Config{Dir: tb.TempDir()}.Launch()
	if err != nil {
		tb.Fatalf("%v", err)
	}
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("DynamoDB Local output:\n%s", in.Output())
		}
		if err := in.Stop(); err != nil {
			tb.Errorf("stop DynamoDB Local: %v", err)
		}
	})
	return in
}

// Main is a TestMain body that shares one instance across a test binary:
//
//	var local *dynamodblocal.Instance
//
//	func TestMain(m *testing.M) { os.Exit(dynamodblocal.Main(m, &local)) }
//
// It launches the instance, stores it in *shared, runs the tests and stops
// it. If the instance cannot start, it prints why and returns 1 without
// running the tests, so a missing jar fails the package loudly. When the
// tests fail, the process's output is printed.
func Main(m *testing.M, shared **Instance) int {
	in, err := Launch()
	if err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: cannot start DynamoDB Local: %v\n", err)
		return 1
	}
	*shared = in
	code := m.Run()
	if code != 0 && testing.Verbose() {
		fmt.Fprintf(os.Stderr, "--- DynamoDB Local output ---\n%s", in.Output())
	}
	if err := in.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "stop DynamoDB Local: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}
