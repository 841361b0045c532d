package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
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

// TestDocs_ConfigurationListsEveryFlag: docs/configuration.md's table has a row for every flag
// of `serve`, `stream`, `lambda` and `sample`, with the flag's environment variable, and a
// default written as one literal alone (`…`) is the flag's own (for a flag several commands
// share, the first command's). A flag of one command only may be marked so: `--seed` (sample).
// A flag added without its row fails here by name.
func TestDocs_ConfigurationListsEveryFlag(t *testing.T) {
	doc, err := os.ReadFile("docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	section, _, ok := strings.Cut(string(doc), "\n## Commands\n")
	if !ok {
		t.Fatal("docs/configuration.md has no ## Commands section after its flags")
	}
	type row struct{ env, def string }
	rows := map[string]row{}
	// | `--addr` | `QUICKPHOTOS_ADDR` | `127.0.0.1:8080` | meaning |, or `--users` (sample)
	rowRE := regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)`( \\([a-z]+\\))? \\| `([A-Z0-9_]+)` \\| ([^|]+) \\|")
	for _, m := range rowRE.FindAllStringSubmatch(section, -1) {
		rows[m[1]+m[2]] = row{env: m[3], def: strings.TrimSpace(m[4])}
	}
	if len(rows) < 20 {
		t.Fatalf("found %d rows in docs/configuration.md's flag table; has its layout changed?", len(rows))
	}
	// The usage message lists each flag as `--name (ENV)`, then its usage and (default "…").
	// A default cell that is one literal alone (`10s`, not `0` (off)) is the flag's own.
	literal := regexp.MustCompile("^`[^`]*`$")
	reported := map[string]bool{}
	usageRE := regexp.MustCompile(`(?m)^  --([a-z0-9-]+) \(([A-Z0-9_]+)\)\n\s+.*\(default "(.*)"\)$`)
	for _, command := range []string{"serve", "stream", "lambda", "sample"} {
		var usage bytes.Buffer
		_ = run(context.Background(), []string{command, "-h"}, io.Discard, &usage)
		flags := usageRE.FindAllStringSubmatch(usage.String(), -1)
		if len(flags) == 0 {
			t.Fatalf("%s -h listed no flags:\n%s", command, &usage)
		}
		for _, f := range flags {
			name, env, def := f[1], f[2], f[3]
			r, ok := rows[name]
			if !ok {
				r, ok = rows[name+" ("+command+")"]
			}
			if reported[name] {
				continue
			}
			reported[name] = true
			switch {
			case !ok:
				t.Errorf("docs/configuration.md's flag table has no row for `%s --%s` (%s, default %q)", command, name, env, def)
			case r.env != env:
				t.Errorf("docs/configuration.md: --%s reads %s, the table says %s", name, env, r.env)
			case literal.MatchString(r.def) && r.def != "`"+def+"`" && !sameDuration(strings.Trim(r.def, "`"), def):
				t.Errorf("docs/configuration.md: --%s defaults to %q, the table says %s", name, def, r.def)
			}
		}
	}
}

// TestDocs_CommandsListEveryCommand: every command of `quickphotos help` has its entry in
// docs/configuration.md's list of commands, and the list names no command that does not exist.
func TestDocs_CommandsListEveryCommand(t *testing.T) {
	doc, err := os.ReadFile("docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n## Commands\n")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^- `quickphotos ([a-z]+)").FindAllStringSubmatch(section, -1) {
		documented[m[1]] = true
	}
	commands := listedCommands(t)
	exists := map[string]bool{}
	for _, c := range commands {
		exists[c] = true
		if !documented[c] {
			t.Errorf("docs/configuration.md has no entry for `quickphotos %s`", c)
		}
	}
	for c := range documented {
		if !exists[c] {
			t.Errorf("docs/configuration.md documents `quickphotos %s`, which quickphotos help does not list", c)
		}
	}
}

// TestDocs_LayoutListsEveryPackage: the layout table of docs/development.md names every package
// of the module (the root package aside, which is its own row), and every directory it names
// exists. A package added without its row, or removed with its row left, fails here by name.
func TestDocs_LayoutListsEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Layout\n")
	if !ok {
		t.Fatal("docs/development.md has no ## Layout section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]bool{}
	for _, row := range regexp.MustCompile(`(?m)^\| ([^|]+) \|`).FindAllStringSubmatch(section, -1) {
		for _, p := range regexp.MustCompile("`([^`]+)/`").FindAllStringSubmatch(row[1], -1) {
			listed[p[1]] = true
			if st, err := os.Stat(p[1]); err != nil || !st.IsDir() {
				t.Errorf("docs/development.md's layout names %s/, which is not a directory", p[1])
			}
		}
	}
	if len(listed) < 20 {
		t.Fatalf("found %d directories in docs/development.md's layout; has its layout changed?", len(listed))
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	module := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]) // the root package comes first
	for _, pkg := range strings.Fields(string(out)) {
		dir, ok := strings.CutPrefix(pkg, module+"/")
		if !ok {
			continue
		}
		if !listed[dir] {
			t.Errorf("docs/development.md's layout has no row for %s/", dir)
		}
	}
}

// TestDocs_LinksResolve: every relative link of README.md and docs/*.md names a file that
// exists, and a #fragment names a heading of the page it points to, as GitHub makes anchors.
func TestDocs_LinksResolve(t *testing.T) {
	pages, _ := filepath.Glob("docs/*.md")
	pages = append(pages, "README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, fragment, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, target)
				continue
			}
			if fragment != "" && !slices.Contains(anchors(t, path), fragment) {
				t.Errorf("%s links to %s, but %s has no heading #%s", page, target, path, fragment)
			}
		}
	}
}

// TestDocs_EveryPageIsLinked: every page of docs/ can be reached from README.md by following
// links, so that no page is written and then lost.
func TestDocs_EveryPageIsLinked(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]+\.md)(#[^)]*)?\)`)
	reached := map[string]bool{"README.md": true}
	for queue := []string{"README.md"}; len(queue) > 0; queue = queue[1:] {
		text, err := os.ReadFile(queue[0])
		if err != nil {
			continue // a link to a page that does not exist: TestDocs_LinksResolve names it
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			if strings.Contains(m[1], "://") {
				continue
			}
			target := filepath.Join(filepath.Dir(queue[0]), m[1])
			if !reached[target] {
				reached[target] = true
				queue = append(queue, target)
			}
		}
	}
	pages, _ := filepath.Glob("docs/*.md")
	for _, page := range pages {
		if !reached[page] {
			t.Errorf("%s is linked from no page README.md leads to", page)
		}
	}
}

// anchors returns the anchors GitHub gives the headings of a Markdown file: lower case, spaces
// to hyphens, punctuation other than hyphens and underscores dropped, repeats numbered.
func anchors(t *testing.T, path string) []string {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	seen := map[string]int{}
	inCode := false
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", a, n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

// sameDuration reports whether a and b are durations of the same length: `720h` for 720h0m0s.
func sameDuration(a, b string) bool {
	da, errA := time.ParseDuration(a)
	db, errB := time.ParseDuration(b)
	return errA == nil && errB == nil && da == db
}

// listedCommands are the commands `quickphotos help` lists, by name.
func listedCommands(t *testing.T) []string {
	t.Helper()
	var help bytes.Buffer
	if err := run(t.Context(), []string{"help"}, &help, io.Discard); err != nil {
		t.Fatal(err)
	}
	_, list, _ := strings.Cut(help.String(), "commands:\n")
	list, _, _ = strings.Cut(list, "\n\n")
	var commands []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)`).FindAllStringSubmatch(list, -1) {
		commands = append(commands, m[1])
	}
	if len(commands) < 10 {
		t.Fatalf("found %d commands in quickphotos help:\n%s", len(commands), &help)
	}
	return commands
}
