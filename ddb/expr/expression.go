package expr

import (
	"encoding/binary"
	"slices"
	"strings"
)

// placeholders are the expression attribute names and values an expression
// uses; the request-wide "unused" check needs them from every expression.
type placeholders struct {
	names, values []string
}

// Names returns the #placeholders the expression uses.
func (u placeholders) Names() []string { return slices.Clone(u.names) }

// Values returns the :placeholders the expression uses.
func (u placeholders) Values() []string { return slices.Clone(u.values) }

// NamesKey appends to b what binding the expression's #placeholders to p depends on: the name p
// gives each of them, in the expression's order, each after its length. Two requests whose
// NamesKey are equal bind the expression's names alike. ok is false when p lacks one of them;
// binding then fails with DynamoDB's error.
func (u placeholders) NamesKey(p *Params, b []byte) (key []byte, ok bool) {
	for _, n := range u.names {
		v, found := p.Names[n]
		if !found {
			return b, false
		}
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	return b, true
}

// MarkUsed records the expression's placeholders as used in p, as binding it does, for a
// caller that reuses a binding made for another request with the same NamesKey.
func (u placeholders) MarkUsed(p *Params) {
	for _, n := range u.names {
		p.usedNames = use(p.usedNames, n)
	}
	for _, v := range u.values {
		p.usedValues = use(p.usedValues, v)
	}
}

// Condition is a parsed ConditionExpression or FilterExpression. Parse it
// once; Bind it to a request's placeholders; Eval the bound condition
// against any number of items. A Condition is immutable and safe for
// concurrent use.
type Condition struct {
	placeholders
	// Kind is KindCondition or KindFilter.
	Kind  string
	Root  *Cond
	bound bool
}

// ParseCondition parses a ConditionExpression.
func ParseCondition(s string) (*Condition, error) { return parseCondition(KindCondition, s) }

// ParseFilter parses a FilterExpression (the same language as conditions).
func ParseFilter(s string) (*Condition, error) { return parseCondition(KindFilter, s) }

func parseCondition(kind, s string) (*Condition, error) {
	var root *Cond
	p, err := parse(kind, s, false, func(p *parser) { root = p.condition() })
	if err != nil {
		return nil, err
	}
	return &Condition{placeholders: placeholders{p.names, p.values}, Kind: kind, Root: root}, nil
}

// Projection is a parsed ProjectionExpression: the document paths to return.
type Projection struct {
	placeholders
	Paths []Path
	trie  *projNode // Paths as a trie, built once bound (nil until then)
}

// ParseProjection parses a ProjectionExpression.
func ParseProjection(s string) (*Projection, error) {
	var paths []Path
	p, err := parse(KindProjection, s, false, func(p *parser) {
		for {
			paths = append(paths, p.path())
			if p.peek().kind != tokComma {
				return
			}
			p.next()
		}
	})
	if err != nil {
		return nil, err
	}
	return &Projection{placeholders: placeholders{p.names, p.values}, Paths: paths}, nil
}

// SetAction is one "path = value" of a SET clause.
type SetAction struct {
	Path  Path
	Value *Operand
}

// ValueAction is one "path :value" of an ADD or DELETE clause.
type ValueAction struct {
	Path  Path
	Value *Operand
}

// Update is a parsed UpdateExpression.
type Update struct {
	placeholders
	Set    []SetAction
	Remove []Path
	Add    []ValueAction
	Delete []ValueAction
	bound  bool
}

// ParseUpdate parses an UpdateExpression.
func ParseUpdate(s string) (*Update, error) {
	u := &Update{}
	p, err := parse(KindUpdate, s, true, func(p *parser) {
		seen := map[string]bool{}
		for p.peek().kind != tokEOF {
			t := p.peek()
			if !isClauseKeyword(t) {
				p.syntax()
			}
			clause := strings.ToUpper(t.text)
			if seen[clause] {
				p.failf("The %q section can only be used once in an update expression;", clause)
			}
			seen[clause] = true
			p.next()
			for {
				switch clause {
				case "SET":
					path := p.path()
					p.expect(tokEQ)
					u.Set = append(u.Set, SetAction{Path: path, Value: p.setValue()})
				case "REMOVE":
					u.Remove = append(u.Remove, p.path())
				case "ADD", "DELETE":
					path := p.path()
					t := p.expect(tokValue)
					p.useValue(t.text)
					a := ValueAction{Path: path, Value: &Operand{Kind: OperandValue, Ref: t.text, tok: p.pos - 1}}
					if clause == "ADD" {
						u.Add = append(u.Add, a)
					} else {
						u.Delete = append(u.Delete, a)
					}
				}
				if p.peek().kind != tokComma {
					break
				}
				p.next()
			}
		}
	})
	if err != nil {
		return nil, err
	}
	u.placeholders = placeholders{p.names, p.values}
	return u, nil
}
