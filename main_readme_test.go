package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
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
	if strings.Contains(string(readme), `timestamp: "…"`) {
		t.Error("README.md still has an example with a timestamp to fill in")
	}
}
