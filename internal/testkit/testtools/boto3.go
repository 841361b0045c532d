package testtools

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// Boto3RequiredEnv makes a missing boto3 a failure of the tests that run Python scripts with
// it instead of a skip; `make test`, and so CI, sets it.
const Boto3RequiredEnv = "QUICKPHOTOS_REQUIRE_BOTO3"

// Boto3Python returns a python3 that imports boto3, or skips the test (fails it under
// Boto3RequiredEnv) when there is none. It tries the first python3 on the PATH, then the
// system's: Debian's python3-boto3 is for the system's Python, which may not be the first.
func Boto3Python(t testing.TB) string {
	t.Helper()
	var err error
	for _, candidate := range []string{"python3", "/usr/bin/python3"} {
		python, lerr := exec.LookPath(candidate)
		if lerr != nil {
			err = lerr
			continue
		}
		out, ierr := exec.Command(python, "-c", "import boto3").CombinedOutput()
		if ierr == nil {
			return python
		}
		err = fmt.Errorf("%s: %v: %s", python, ierr, strings.TrimSpace(string(out)))
	}
	Missing(t, Boto3RequiredEnv, "python3 with boto3", "Debian's python3-boto3, or pip install boto3", err)
	return ""
}
