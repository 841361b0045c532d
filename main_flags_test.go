package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
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

// TestHelp_EveryFlagShowsOneDefault: in every command's -h, each flag's entry ends in the one
// (default "…") the usage message adds, and its own text says no other: a flag whose empty
// value means something says so as (empty: …), as (0: …) does for numbers.
func TestHelp_EveryFlagShowsOneDefault(t *testing.T) {
	commands := listedCommands(t)
	// The commands whose flags follow a subcommand.
	subcommand := map[string]string{"table": "create", "migrate": "timestamps"}
	for _, c := range commands {
		args := []string{c}
		if sub, ok := subcommand[c]; ok {
			args = append(args, sub)
		}
		var usage bytes.Buffer
		if err := run(t.Context(), append(args, "-h"), io.Discard, &usage); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s -h: %v, want flag.ErrHelp", strings.Join(args, " "), err)
			continue
		}
		_, entries, ok := strings.Cut(usage.String(), "flags (and their environment variables):\n")
		if !ok {
			t.Errorf("%s -h lists no flags:\n%s", strings.Join(args, " "), &usage)
			continue
		}
		for _, entry := range strings.Split(entries, "\n  --")[1:] {
			name, _, _ := strings.Cut(entry, " ")
			if n := strings.Count(entry, "(default"); n != 1 {
				t.Errorf("%s -h: --%s shows %d defaults:\n  --%s", strings.Join(args, " "), name, n, entry)
			}
		}
	}
}

// TestServe_MutationRetentionBounds: a retention of client mutation marks outside 1m to 8760h,
// by flag or environment variable, stops serve before it starts (lambda's API function checks
// the same apiConfig with the same settle).
func TestServe_MutationRetentionBounds(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--mutation-retention", "10s"},
		{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--mutation-retention", "9000h"},
	} {
		err := run(t.Context(), args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "--mutation-retention") {
			t.Errorf("%q: %v, want --mutation-retention refused", args, err)
		}
	}
	t.Setenv("QUICKPHOTOS_MUTATION_RETENTION", "0s")
	err := run(t.Context(), []string{"serve", "--in-memory", "--addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--mutation-retention") {
		t.Errorf("QUICKPHOTOS_MUTATION_RETENTION=0s: %v, want it refused", err)
	}
}
