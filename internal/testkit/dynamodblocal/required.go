package dynamodblocal

import (
	"errors"
	"fmt"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// RequireEnv is the environment variable that makes a missing DynamoDB Local (no jar, no java)
// a test failure instead of a skip. `make test`, and so CI, sets it: there a missing install is
// a broken build, while a newcomer's plain `go test ./...` with only Go should still pass.
const RequireEnv = "QUICKPHOTOS_REQUIRE_DYNAMODB_LOCAL"

// Installed returns nil when DynamoDB Local can be launched as far as files go (the jar is
// found, java is on the PATH), or an error that says what is missing and how to install it.
func Installed() error {
	if _, err := FindJar(); err != nil {
		return err
	}
	_, err := javaPath()
	return err
}

// SkipReason returns why tests that need DynamoDB Local should be skipped, or "" when they
// should run (it is installed) or fail (it is missing but Required).
func SkipReason() string {
	err := Installed()
	if err == nil || testtools.Required(RequireEnv) {
		return ""
	}
	return fmt.Sprintf("DynamoDB Local is not installed (%v); %s=1 makes this a failure", shortReason(err), RequireEnv)
}

// shortReason is err's sentinel, without the paths searched, to keep a skip to one line.
func shortReason(err error) string {
	for _, sentinel := range []error{ErrJarNotFound, ErrJavaNotFound} {
		if errors.Is(err, sentinel) {
			return sentinel.Error() + "; " + InstallHint
		}
	}
	return err.Error()
}
