package main

import (
	"strings"
	"testing"
)

// TestServe_LimitFlagsReachTheAPI: the limit and introspection flags configure the server
// they start (the limits themselves are tested in api/limits and api).
func TestServe_LimitFlagsReachTheAPI(t *testing.T) {
	lines := startCommand(t, "GraphiQL at", "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(),
		"--max-depth", "2", "--max-tokens", "20", "--introspection=false")
	base := graphiQLBase(t, lines)
	cases := []struct {
		name, body, want string
	}{
		{"depth 2 is allowed", `{"query":"{ user(username: \"a\") { name } }"}`, ""},
		{"depth 4 is over --max-depth", `{"query":"{ user(username: \"a\") { photos { pageInfo { hasNextPage } } } }"}`, "QUERY_LIMIT_EXCEEDED"},
		{"21 tokens at depth 2 are over --max-tokens", `{"query":"{ user(username: \"a\") { name name name name name name name name name name name } }"}`, "QUERY_LIMIT_EXCEEDED"},
		{"introspection is off", `{"query":"{ __schema { queryType { name } } }"}`, "GRAPHQL_VALIDATION_FAILED"},
	}
	for _, c := range cases {
		if got := graphqlCode(t, base, "", c.body); got != c.want {
			t.Errorf("%s: code %q, want %q", c.name, got, c.want)
		}
	}
}

// graphiQLBase is the base URL in serve's GraphiQL line.
func graphiQLBase(t *testing.T, lines []string) string {
	t.Helper()
	for _, l := range lines {
		if i := strings.Index(l, "GraphiQL at "); i >= 0 {
			return strings.TrimSuffix(strings.Fields(l[i+len("GraphiQL at "):])[0], "/")
		}
	}
	t.Fatalf("no GraphiQL line in %q", lines)
	return ""
}
