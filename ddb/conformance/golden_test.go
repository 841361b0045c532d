package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// recordStep is the golden form of a step: the response normalised with
// messages and exact numbers kept, and volatile fields (defaultIgnore)
// dropped, so that re-recording only changes what DynamoDB Local changed.
func recordStep(caseName string, s Step, r response) goldenStep {
	v, err := normalize(s.Op, response{Status: r.Status, Body: unbind(caseName, r.Body)}, Compare{Message: true, ExactNumbers: true})
	if err != nil {
		v = string(r.Body)
	}
	m, _ := v.(map[string]any)
	msg, hasMsg := m["message"]
	if m != nil {
		delete(m, "__status")
	}
	var req any
	if json.Unmarshal(s.Request, &req) != nil {
		req = string(s.Request)
	}
	v = shorten(v)
	if hasMsg {
		// Messages are compared, so they are kept whole.
		m["message"] = msg
	}
	return goldenStep{ID: s.ID, Op: s.Op, Request: mustJSON(shorten(req)), Status: r.Status, Response: mustJSON(v)}
}

// shorten abbreviates long strings (the item size cases send 400 KB) so
// golden files stay readable; they are never replayed from the file.
func shorten(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = shorten(e)
		}
	case []any:
		for i, e := range v {
			v[i] = shorten(e)
		}
	case string:
		if len(v) > 200 {
			return fmt.Sprintf("%s…(%d bytes)", v[:40], len(v))
		}
	}
	return v
}

// goldenCase is the recorded DynamoDB Local transcript of a case.
type goldenCase struct {
	Case  string       `json:"case"`
	Steps []goldenStep `json:"steps"`
}

type goldenStep struct {
	ID       string          `json:"id"`
	Op       string          `json:"op"`
	Request  json.RawMessage `json:"request"`
	Status   int             `json:"status"`
	Response json.RawMessage `json:"response"`
}

func goldenPath(name string) string { return filepath.Join("testdata", "golden", name+".json") }

func readGolden(name string) (*goldenCase, error) {
	data, err := os.ReadFile(goldenPath(name))
	if err != nil {
		return nil, err
	}
	var g goldenCase
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("%s: %w", goldenPath(name), err)
	}
	return &g, nil
}

func writeGolden(g *goldenCase) error {
	data, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(goldenPath(g.Case), append(data, '\n'), 0o644)
}
