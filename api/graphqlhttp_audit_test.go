package api_test

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
)

// TestGraphQLHTTPAudit runs the graphql-http server audits, the GraphQL over HTTP
// specification's MUST and SHOULD rules as the reference implementation checks them, against
// a real server. Every audit must pass, warnings included (--strict).
func TestGraphQLHTTPAudit(t *testing.T) {
	node, script := jstools.GraphQLJS.Script(t, "audit.mjs")
	srv := apitest.NewServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, script, srv.URL+"/graphql", "--strict").CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("graphql-http audit: %v", err)
	}
}
