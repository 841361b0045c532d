package conformance

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"testing"
)

// collections are one target's named sets of items, filled by steps with
// Collect and checked by steps with Union (see Step). They check per-target
// invariants that no cross-target comparison can: the items of a parallel
// Scan segment depend on how each implementation hashes partition keys, so
// the engine's segment 1 of 3 need not hold DynamoDB Local's items, but on
// each target the segments must partition the table.
type collections map[string]*collection

// collection is a set of items (keyed by their canonical JSON) and the sum of
// the Count of the steps that filled it.
type collection struct {
	items map[string]bool
	count int64
}

// check applies a step's Collect and Union to one target's answer and
// returns what is wrong, including the problems paginate found.
func (cs collections) check(s Step, who string, res *stepResult) []string {
	msgs := append([]string(nil), res.problems...)
	if s.Collect == "" && s.Union == "" || res.resp.Status != http.StatusOK {
		return msgs
	}
	keys, count, err := itemKeys(s.Op, res.resp)
	if err != nil {
		return append(msgs, fmt.Sprintf("%s: %v", who, err))
	}
	if s.Collect != "" {
		c := cs[s.Collect]
		if c == nil {
			c = &collection{items: map[string]bool{}}
			cs[s.Collect] = c
		}
		for _, k := range keys {
			if c.items[k] {
				msgs = append(msgs, fmt.Sprintf("%s: item %s is already in collection %q (returned by two segments?)", who, k, s.Collect))
			}
			c.items[k] = true
		}
		c.count += count
	}
	if s.Union != "" {
		c := cs[s.Union]
		if c == nil {
			return append(msgs, fmt.Sprintf("case error: no step collected %q before this one", s.Union))
		}
		var missing, extra []string
		in := map[string]bool{}
		for _, k := range keys {
			in[k] = true
			if !c.items[k] {
				missing = append(missing, k)
			}
		}
		for k := range c.items {
			if !in[k] {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		if len(missing) > 0 {
			msgs = append(msgs, fmt.Sprintf("%s: %d items of this response are in no step collected in %q: %v", who, len(missing), s.Union, short(missing)))
		}
		if len(extra) > 0 {
			msgs = append(msgs, fmt.Sprintf("%s: %d items collected in %q are not in this response: %v", who, len(extra), s.Union, short(extra)))
		}
		if c.count != count {
			msgs = append(msgs, fmt.Sprintf("%s: the steps collected in %q counted %d items, this response %d", who, s.Union, c.count, count))
		}
	}
	return msgs
}

// itemKeys returns the canonical JSON of each item of a successful Scan or
// Query answer (normalised, so equal numbers and sets compare equal) and its
// Count.
func itemKeys(op string, r response) ([]string, int64, error) {
	v, err := normalize(op, r, Compare{})
	if err != nil {
		return nil, 0, err
	}
	m, _ := v.(map[string]any)
	list, _ := m["Items"].([]any)
	keys := make([]string, len(list))
	for i, it := range list {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, 0, err
		}
		keys[i] = string(b)
	}
	var count int64
	if n, ok := m["Count"].(json.Number); ok {
		count, _ = n.Int64()
	}
	return keys, count, nil
}

// short abbreviates a list of items for a failure message.
func short(keys []string) []string {
	if len(keys) > 5 {
		return append(keys[:5:5], fmt.Sprintf("… (%d more)", len(keys)-5))
	}
	return keys
}

// TestCollections checks that Collect reports an item in two segments and
// Union reports missing, extra and miscounted items.
func TestCollections(t *testing.T) {
	page := func(count int, items ...string) *stepResult {
		var list []any
		for _, pk := range items {
			list = append(list, M{"PK": S(pk)})
		}
		return &stepResult{resp: response{Status: http.StatusOK, Body: mustJSON(M{"Items": list, "Count": count})}}
	}
	cs := collections{}
	if msgs := cs.check(Step{Op: "Scan", Collect: "c"}, "t", page(2, "a", "b")); len(msgs) != 0 {
		t.Errorf("first segment: %v", msgs)
	}
	if msgs := cs.check(Step{Op: "Scan", Collect: "c"}, "t", page(1, "b")); len(msgs) != 1 {
		t.Errorf("item in two segments: got %v, want one message", msgs)
	}
	if msgs := cs.check(Step{Op: "Scan", Union: "c"}, "t", page(3, "a", "b")); len(msgs) != 0 {
		t.Errorf("counts 3 collected, 3 in the response: got %v, want none", msgs)
	}
	if msgs := cs.check(Step{Op: "Scan", Union: "c"}, "t", page(2, "a", "c")); len(msgs) != 3 {
		t.Errorf("missing, extra and miscounted: got %v, want three messages", msgs)
	}
}
