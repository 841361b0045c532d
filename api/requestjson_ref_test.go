package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

// checkJSONReference is checkJSON as it was written first, over encoding/json's tokens: slow
// (an allocation or more for every token) but plainly right, the judge of FuzzCheckJSON.
// container is an object or array open at some point of the JSON text.
type refContainer struct {
	object bool
	mode   keyMode
	// seen holds the keys met so far, as compared under mode, mapped to their spelling.
	seen    map[string]string
	wantKey bool   // an object expects a key next (else a value)
	key     string // the key whose value is being read, for paths
	index   int    // an array's next element, for paths
}

// checkJSON checks that data is a single JSON value whose objects give no key twice; what names
// data in error messages. Malformed JSON passes: gqlgen refuses it.
func checkJSONReference(data []byte, what string, mode keyMode) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*refContainer
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // malformed, or empty: gqlgen says so
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.object && top.wantKey {
				if delim, ok := tok.(json.Delim); !ok || delim != '}' {
					if err := top.addKey(tok.(string), what, stack); err != nil {
						return err
					}
					top.wantKey = false
					continue
				}
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if len(stack) >= maxJSONDepth {
				return nil
			}
			c := &refContainer{object: tok == json.Delim('{'), wantKey: true, mode: refChildMode(stack, mode)}
			stack = append(stack, c)
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the next token of an object is a key, of an array the next element.
		if len(stack) == 0 {
			if _, err := dec.Token(); err != io.EOF {
				return domain.Errorf(domain.Invalid, "%s holds more than one JSON value: send one JSON object", what)
			}
			return nil
		}
		top := stack[len(stack)-1]
		if top.object {
			top.wantKey = true
		} else {
			top.index++
		}
	}
}

// childMode is the key mode of an object or array opened inside stack, in a text whose outermost
// value has mode.
func refChildMode(stack []*refContainer, mode keyMode) keyMode {
	if len(stack) == 0 {
		return mode
	}
	parent := stack[len(stack)-1]
	if parent.mode != topLevel {
		return parent.mode
	}
	if parent.object && parent.key == "extensions" {
		return foldedKeys
	}
	return exactKeys
}

// addKey records key in the object c, refusing one it has already met.
func (c *refContainer) addKey(key, what string, stack []*refContainer) error {
	c.key = key
	compared := key
	switch c.mode {
	case topLevel:
		for _, name := range requestKeys {
			if key != name && strings.EqualFold(key, name) {
				return domain.Errorf(domain.Invalid, "%s has the key %q: spell it %q", what, key, name)
			}
		}
	case foldedKeys:
		compared = foldKey(key)
	}
	if earlier, ok := c.seen[compared]; ok {
		where := refJSONPath(stack[:len(stack)-1])
		if earlier == key {
			return domain.Errorf(domain.Invalid, "%s has the key %q twice%s: give each key once", what, key, where)
		}
		return domain.Errorf(domain.Invalid, "%s has the keys %q and %q%s, which differ only in case: give each key once", what, earlier, key, where)
	}
	if c.seen == nil {
		c.seen = map[string]string{}
	}
	c.seen[compared] = key
	return nil
}

// jsonPath names the object the innermost of stack holds, like " in variables.in[2]", or ""
// for the outermost object. Keys that are not plain names are quoted, so a hostile key prints
// as escapes.
func refJSONPath(stack []*refContainer) string {
	var b strings.Builder
	for i, c := range stack {
		switch {
		case !c.object:
			fmt.Fprintf(&b, "[%d]", c.index)
		case plainKey.MatchString(c.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(c.key)
		default:
			fmt.Fprintf(&b, "[%q]", c.key)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return " in " + b.String()
}

// FuzzCheckJSON holds checkJSON to its reference: the same texts refused, in the same words.
func FuzzCheckJSON(f *testing.F) {
	for _, seed := range []string{
		`{"query": "{ a }", "operationName": null, "variables": {"in": {"a": 1, "b": [1, {"a": 2}]}}, "extensions": {}}`,
		`{"query": "{ a }", "\u0071uery": "mutation { b }"}`,
		`{"extensions": {"persistedQuery": {"sha256Hash": "a", "SHA256HASH": "b"}}}`,
		`{"variables": {"l": [0, {"x": 1, "x": 2}]}}`,
		`{"variables": {"a\u202eb": {"x": 1, "x": 2}}}`,
		`{"query": "{ a }"} x`, `{"a": -0.5e+3, "b": [true, false, null], "c": "\"\\\/\b\f\n\r\t"}`,
		`{"a": 01}`, `[1, 2,]`, `{"a" 1}`, `{"a": tru}`, "{\"\xff\": 1, \"\xfe\": 2}", `{"exten\u017fions": {}}`,
		`{"variables": {"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":3}}`,
		`{"extensions": {"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"K3":3}}`,
		`"x"`, `1 2`, ` {} `, `{"a": {}, "a": []}`, `{"a": [{}, {"b": 1}], "b": {"a": 1, "c": {"a": 1}}}`,
	} {
		for _, mode := range []keyMode{topLevel, exactKeys, foldedKeys} {
			f.Add(seed, int(mode))
		}
	}
	f.Fuzz(func(t *testing.T, text string, mode int) {
		m := keyMode(mode % 3)
		if m < 0 {
			m = -m
		}
		got := checkJSON([]byte(text), "the text", m)
		want := checkJSONReference([]byte(text), "the text", m)
		if fmt.Sprint(got) != fmt.Sprint(want) || domain.ErrorCode(got) != domain.ErrorCode(want) {
			t.Fatalf("checkJSON(%q, %d) = %v, reference %v", text, m, got, want)
		}
	})
}
