package testtools

import (
	"os/exec"
	"testing"
)

// StraceRequiredEnv makes a missing strace a failure of the tests that trace a child instead
// of a skip; `make test`, and so CI, sets it.
const StraceRequiredEnv = "QUICKPHOTOS_REQUIRE_STRACE"

// Strace returns the path of strace, or skips the test (fails it under StraceRequiredEnv)
// when strace is missing. A machine may also forbid tracing (ptrace) to every process: no
// check by trace can run there, installed or not, so the test is skipped even under
// StraceRequiredEnv.
func Strace(t testing.TB) string {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		Missing(t, StraceRequiredEnv, "strace", "Debian: apt-get install strace", err)
	}
	if out, err := exec.Command(strace, "-qq", "-e", "trace=none", "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v: %s", err, out)
	}
	return strace
}
