package conformance

import "encoding/json"

// M is a JSON object in a generated request.
type M = map[string]any

// Attribute value constructors for generated requests.
func S(s string) M              { return M{"S": s} }
func N(n string) M              { return M{"N": n} }
func B(b64 string) M            { return M{"B": b64} }
func BOOL(b bool) M             { return M{"BOOL": b} }
func NULL() M                   { return M{"NULL": true} }
func L(vs ...any) M             { return M{"L": append([]any{}, vs...)} }
func Map(m M) M                 { return M{"M": m} }
func SS(ss ...string) M         { return M{"SS": append([]string{}, ss...)} }
func NS(ns ...string) M         { return M{"NS": ns} }
func BS(bs ...string) M         { return M{"BS": bs} }
func raw(v any) json.RawMessage { return mustJSON(v) }

// step builds a step that must succeed.
func step(op string, req M) Step { return Step{Op: op, Request: raw(req)} }

// failStep builds a step that must fail with errType.
func failStep(op, errType string, req M) Step {
	return Step{Op: op, Request: raw(req), Error: errType}
}

// expecting sets a step's documented response.
func expecting(s Step, expect M) Step {
	s.Expect = raw(expect)
	return s
}

// withID names a step.
func withID(s Step, id string) Step {
	s.ID = id
	return s
}

// merge returns the union of objects, later keys winning.
func merge(ms ...M) M {
	out := M{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// usedValues keeps the entries of values whose placeholder occurs in expr,
// so that generated requests never carry unused values (a ValidationException).
func usedValues(values M, exprs ...string) M {
	out := M{}
	for k, v := range values {
		for _, e := range exprs {
			if containsToken(e, k) {
				out[k] = v
				break
			}
		}
	}
	return out
}

// containsToken reports whether tok (":v" or "#n") occurs in e as a whole
// token.
func containsToken(e, tok string) bool {
	for i := 0; i+len(tok) <= len(e); i++ {
		if e[i:i+len(tok)] != tok {
			continue
		}
		end := i + len(tok)
		if end == len(e) || !isNameChar(e[end]) {
			return true
		}
	}
	return false
}

func isNameChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
