package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestREADME_ExamplesRunOnTheSample: the ten access patterns of the README's example table run,
// in order and as printed, on `serve --sample`, without an error: a newcomer can paste them.
func TestREADME_ExamplesRunOnTheSample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	// A table row: | 6 | react to a photo | `mutation { … }` … |
	row := regexp.MustCompile("(?m)^\\| (\\d+) \\| [^|]+ \\| `([^`]+)`")
	rows := row.FindAllStringSubmatch(string(readme), -1)
	if len(rows) != 10 {
		t.Fatalf("found %d example rows in README.md, want 10", len(rows))
	}
	base := startServe(t, "--addr", "127.0.0.1:0", "--in-memory", "--sample")
	for _, r := range rows {
		body, _ := json.Marshal(map[string]string{"query": r[2]})
		if code := graphqlCode(t, base, "", string(body)); code != "" {
			t.Errorf("example %s: %s gave %s", r[1], r[2], code)
		}
	}
	// The feed's example, pasted into the same default serve (no authentication), works too.
	feed := regexp.MustCompile("\\*\\*The feed\\.\\*\\* `([^`]+)`").FindStringSubmatch(string(readme))
	if feed == nil {
		t.Fatal("README.md has no example after **The feed.**")
	}
	body, _ := json.Marshal(map[string]string{"query": feed[1]})
	if code := graphqlCode(t, base, "", string(body)); code != "" {
		t.Errorf("the feed example %s gave %s on the default serve", feed[1], code)
	}
	if strings.Contains(string(readme), `timestamp: "…"`) {
		t.Error("README.md still has an example with a timestamp to fill in")
	}
}

// TestREADME_ConfigurationListsEveryFlag: the README's configuration table has a row for every
// flag of `serve` and `stream`, with the flag's environment variable, and a default written
// as one literal alone (`…`) is the flag's own. A flag added without its row fails here by name.
func TestREADME_ConfigurationListsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n## Configuration\n")
	section, _, _ = strings.Cut(section, "\n## ")
	type row struct{ env, def string }
	rows := map[string]row{}
	// | `--addr` | `QUICKPHOTOS_ADDR` | `127.0.0.1:8080` | meaning |, or `--users` (sample)
	rowRE := regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)`( \\([a-z]+\\))? \\| `([A-Z0-9_]+)` \\| ([^|]+) \\|")
	for _, m := range rowRE.FindAllStringSubmatch(section, -1) {
		if m[2] == "" {
			rows[m[1]] = row{env: m[3], def: strings.TrimSpace(m[4])}
		}
	}
	if len(rows) < 20 {
		t.Fatalf("found %d rows in README.md's configuration table; has its layout changed?", len(rows))
	}
	// The usage message lists each flag as `--name (ENV)`, then its usage and (default "…").
	// A default cell that is one literal alone (`10s`, not `0` (off)) is the flag's own.
	literal := regexp.MustCompile("^`[^`]*`$")
	reported := map[string]bool{}
	usageRE := regexp.MustCompile(`(?m)^  --([a-z0-9-]+) \(([A-Z0-9_]+)\)\n\s+.*\(default "(.*)"\)$`)
	for _, command := range []string{"serve", "stream"} {
		var usage bytes.Buffer
		_ = run(context.Background(), []string{command, "-h"}, io.Discard, &usage)
		flags := usageRE.FindAllStringSubmatch(usage.String(), -1)
		if len(flags) == 0 {
			t.Fatalf("%s -h listed no flags:\n%s", command, &usage)
		}
		for _, f := range flags {
			name, env, def := f[1], f[2], f[3]
			r, ok := rows[name]
			if reported[name] {
				continue
			}
			reported[name] = true
			switch {
			case !ok:
				t.Errorf("README.md's configuration table has no row for `%s --%s` (%s, default %q)", command, name, env, def)
			case r.env != env:
				t.Errorf("README.md: --%s reads %s, the table says %s", name, env, r.env)
			case literal.MatchString(r.def) && r.def != "`"+def+"`" && !sameDuration(strings.Trim(r.def, "`"), def):
				t.Errorf("README.md: --%s defaults to %q, the table says %s", name, def, r.def)
			}
		}
	}
}

// sameDuration reports whether a and b are durations of the same length: `720h` for 720h0m0s.
func sameDuration(a, b string) bool {
	da, errA := time.ParseDuration(a)
	db, errB := time.ParseDuration(b)
	return errA == nil && errB == nil && da == db
}
