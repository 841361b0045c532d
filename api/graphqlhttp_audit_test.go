package api_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/apitest"
)

// auditRequiredEnv makes a missing graphql-http audit (no node, or its package not installed)
// a failure instead of a skip; `make test`, and so CI, sets it.
const auditRequiredEnv = "QUICKPHOTOS_REQUIRE_GRAPHQL_HTTP_AUDIT"

// TestGraphQLHTTPAudit runs the graphql-http server audits, the GraphQL over HTTP
// specification's MUST and SHOULD rules as the reference implementation checks them, against
// a real server. Every audit must pass, warnings included (--strict).
func TestGraphQLHTTPAudit(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "tools", "graphql-http-audit"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(filepath.Join(dir, "node_modules", "graphql-http")); err == nil && statErr != nil {
		err = statErr
	}
	if err != nil {
		if v := os.Getenv(auditRequiredEnv); v != "" && v != "0" {
			t.Fatalf("the graphql-http audit cannot run: %v (install: npm ci --prefix tools/graphql-http-audit)", err)
		}
		t.Skipf("the graphql-http audit is not installed (npm ci --prefix tools/graphql-http-audit); %s=1 makes this a failure", auditRequiredEnv)
	}

	srv := apitest.NewServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, filepath.Join(dir, "audit.mjs"), srv.URL+"/graphql", "--strict").CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("graphql-http audit: %v", err)
	}
}
