package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Divergence is one step where DynamoDB Local is known to answer differently
// from Amazon DynamoDB's documented behaviour. For such a step the engine is
// checked against the step's expect response, and the suite reports when
// DynamoDB Local stops diverging.
type Divergence struct {
	// Case and Step identify the step ("create:<table>" for fixtures).
	Case string `json:"case"`
	Step string `json:"step"`
	// Summary says what DynamoDB Local does differently.
	Summary string `json:"summary"`
	// Source is the documentation page or issue that shows the documented
	// behaviour.
	Source string `json:"source"`
}

func (d Divergence) valid() bool { return d.Case != "" }

// loadDivergences reads testdata/divergences.json, keyed by "case/step",
// and checks every entry names an existing step with an expect response.
func loadDivergences(cases []Case) (map[string]Divergence, error) {
	path := filepath.Join("testdata", "divergences.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file struct {
		Divergences []Divergence `json:"divergences"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	steps := map[string]Step{}
	for _, c := range cases {
		for _, s := range c.allSteps() {
			steps[c.Name+"/"+s.ID] = s
		}
	}
	out := map[string]Divergence{}
	for _, d := range file.Divergences {
		key := d.Case + "/" + d.Step
		s, ok := steps[key]
		if !ok {
			return nil, fmt.Errorf("%s: no step %s", path, key)
		}
		if len(s.Expect) == 0 || d.Source == "" || d.Summary == "" {
			return nil, fmt.Errorf("%s: %s needs a summary, a source and an expect response in its case", path, key)
		}
		out[key] = d
	}
	return out, nil
}
