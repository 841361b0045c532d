package partiqlexec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/partiql"
)

// PartiQL runs as DynamoDB requests: a statement's conditions, assignments
// and projections are translated into the equivalent DynamoDB expressions,
// with every name and value as a placeholder, and run through the same
// operation code as GetItem, Query, Scan, PutItem, UpdateItem, DeleteItem
// and the transactions. Validation, conditions, capacity, streams and
// group commit are so exactly those of the JSON API.

// translation accumulates the placeholders of one statement's expressions.
type translation struct {
	params []attr.Value
	Names  map[string]string // #n0 -> attribute name
	byName map[string]string // attribute name -> #n0
	values map[string]attr.Value
}

// newTranslation starts a translation binding the statement's parameters.
func newTranslation(params []attr.Value) *translation {
	return &translation{params: params, Names: map[string]string{}, byName: map[string]string{}, values: map[string]attr.Value{}}
}

// errPartiQL is the ValidationException of a statement the engine cannot
// translate.
func errPartiQL(format string, args ...any) *engine.Error {
	return engine.Validationf("Statement wasn't well formed, can't be processed: "+format, args...)
}

// name returns the placeholder of an attribute name.
func (tr *translation) name(n string) string {
	if p, ok := tr.byName[n]; ok {
		return p
	}
	p := "#n" + strconv.Itoa(len(tr.Names))
	tr.Names[p], tr.byName[n] = n, p
	return p
}

// Value returns a new placeholder for v.
func (tr *translation) Value(v attr.Value) string {
	p := ":v" + strconv.Itoa(len(tr.values))
	tr.values[p] = v
	return p
}

// path renders a path with placeholders: #n0.#n1[2].
func (tr *translation) path(p partiql.Path) string {
	var b strings.Builder
	for i, s := range p.Steps {
		switch {
		case s.IsIndex:
			fmt.Fprintf(&b, "[%d]", s.Index)
		case i > 0:
			b.WriteString("." + tr.name(s.Name))
		default:
			b.WriteString(tr.name(s.Name))
		}
	}
	return b.String()
}

// constant evaluates an expression that must be a value: a literal, a
// parameter, or a tuple, list or bag of those.
func (tr *translation) constant(e partiql.Expr) (attr.Value, bool, error) {
	switch e := e.(type) {
	case partiql.Literal:
		return e.Value, true, nil
	case partiql.Param:
		return tr.params[e.N], true, nil
	case *partiql.Tuple:
		m := make(map[string]attr.Value, len(e.Keys))
		for i, k := range e.Keys {
			v, ok, err := tr.constant(e.Values[i])
			if err != nil || !ok {
				return attr.Value{}, ok, err
			}
			m[k] = v
		}
		return attr.M(m), true, nil
	case *partiql.List:
		l := make([]attr.Value, len(e.Elems))
		for i, x := range e.Elems {
			v, ok, err := tr.constant(x)
			if err != nil || !ok {
				return attr.Value{}, ok, err
			}
			l[i] = v
		}
		return attr.L(l...), true, nil
	case *partiql.Bag:
		return tr.bag(e)
	}
	return attr.Value{}, false, nil
}

// bag turns <<…>> into a string, number or binary set.
func (tr *translation) bag(e *partiql.Bag) (attr.Value, bool, error) {
	var (
		typ  attr.Type
		strs []string
		bins [][]byte
	)
	for i, x := range e.Elems {
		v, ok, err := tr.constant(x)
		if err != nil || !ok {
			return attr.Value{}, ok, err
		}
		switch {
		case v.Type == attr.TypeS && (i == 0 || typ == attr.TypeSS):
			typ, strs = attr.TypeSS, append(strs, v.S)
		case v.Type == attr.TypeN && (i == 0 || typ == attr.TypeNS):
			typ, strs = attr.TypeNS, append(strs, v.NumText())
		case v.Type == attr.TypeB && (i == 0 || typ == attr.TypeBS):
			typ, bins = attr.TypeBS, append(bins, v.Bytes())
		default:
			return attr.Value{}, false, errPartiQL("a set holds strings, numbers or binary values of one type")
		}
	}
	if len(e.Elems) == 0 {
		return attr.Value{}, false, errPartiQL("a set may not be empty")
	}
	var set attr.Value
	switch typ {
	case attr.TypeSS:
		set = attr.SS(strs...)
	case attr.TypeNS:
		set = attr.NS(strs...)
	case attr.TypeBS:
		set = attr.BS(bins...)
	}
	if err := attr.ValidateSet(set); err != nil {
		return attr.Value{}, false, engine.Validationf("%s", err.Error())
	}
	return set, true, nil
}

// operand renders a value expression: a path, a constant, arithmetic or a
// function (size, list_append, if_not_exists, …).
func (tr *translation) operand(e partiql.Expr) (string, error) {
	if v, ok, err := tr.constant(e); err != nil {
		return "", err
	} else if ok {
		return tr.Value(v), nil
	}
	switch e := e.(type) {
	case partiql.Path:
		return tr.path(e), nil
	case *partiql.Binary:
		if e.Op == "+" || e.Op == "-" {
			l, err := tr.operand(e.L)
			if err != nil {
				return "", err
			}
			r, err := tr.operand(e.R)
			if err != nil {
				return "", err
			}
			return l + " " + e.Op + " " + r, nil
		}
	case *partiql.Call:
		return tr.call(e)
	}
	return "", errPartiQL("unsupported operand")
}

// call renders a function call, its arguments operands.
func (tr *translation) call(c *partiql.Call) (string, error) {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		var err error
		if args[i], err = tr.operand(a); err != nil {
			return "", err
		}
	}
	return c.Name + "(" + strings.Join(args, ", ") + ")", nil
}

// condition renders a WHERE condition as a ConditionExpression.
func (tr *translation) condition(e partiql.Expr) (string, error) {
	switch e := e.(type) {
	case *partiql.Binary:
		switch e.Op {
		case "AND", "OR":
			l, err := tr.condition(e.L)
			if err != nil {
				return "", err
			}
			r, err := tr.condition(e.R)
			if err != nil {
				return "", err
			}
			return "(" + l + ") " + e.Op + " (" + r + ")", nil
		case "=", "<>", "<", "<=", ">", ">=":
			l, err := tr.operand(e.L)
			if err != nil {
				return "", err
			}
			r, err := tr.operand(e.R)
			if err != nil {
				return "", err
			}
			return l + " " + e.Op + " " + r, nil
		}
	case *partiql.Not:
		x, err := tr.condition(e.X)
		if err != nil {
			return "", err
		}
		return "NOT (" + x + ")", nil
	case *partiql.Between:
		parts, err := tr.operands(e.X, e.Lo, e.Hi)
		if err != nil {
			return "", err
		}
		return parts[0] + " BETWEEN " + parts[1] + " AND " + parts[2], nil
	case *partiql.In:
		parts, err := tr.operands(append([]partiql.Expr{e.X}, e.List...)...)
		if err != nil {
			return "", err
		}
		return parts[0] + " IN (" + strings.Join(parts[1:], ", ") + ")", nil
	case *partiql.Is:
		p, ok := e.X.(partiql.Path)
		if !ok {
			return "", errPartiQL("IS applies to an attribute")
		}
		var s string
		if e.Missing {
			s = "attribute_not_exists(" + tr.path(p) + ")"
		} else {
			s = "attribute_type(" + tr.path(p) + ", " + tr.Value(attr.S("NULL")) + ")"
		}
		if e.Negated {
			s = "NOT " + s
		}
		return s, nil
	case *partiql.Call:
		return tr.call(e)
	}
	return "", errPartiQL("unsupported condition")
}

// operands renders several operands.
func (tr *translation) operands(es ...partiql.Expr) ([]string, error) {
	out := make([]string, len(es))
	for i, e := range es {
		var err error
		if out[i], err = tr.operand(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// conjuncts flattens the top-level ANDs of a condition.
func conjuncts(e partiql.Expr) []partiql.Expr {
	if b, ok := e.(*partiql.Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	if e == nil {
		return nil
	}
	return []partiql.Expr{e}
}

// keyEquality returns the attribute and value of a conjunct of the form
// name = constant (either way round), when it is one.
func (tr *translation) keyEquality(e partiql.Expr) (string, attr.Value, bool) {
	b, ok := e.(*partiql.Binary)
	if !ok || b.Op != "=" {
		return "", attr.Value{}, false
	}
	for _, side := range [][2]partiql.Expr{{b.L, b.R}, {b.R, b.L}} {
		p, ok := side[0].(partiql.Path)
		if !ok || len(p.Steps) != 1 || p.Steps[0].IsIndex {
			continue
		}
		if v, ok, err := tr.constant(side[1]); err == nil && ok {
			return p.Steps[0].Name, v, true
		}
	}
	return "", attr.Value{}, false
}

// splitKey finds, among the conjuncts of where, the equalities on every
// attribute of keyNames: it returns the key and the other conjuncts.
func (tr *translation) splitKey(where partiql.Expr, keyNames []string) (attr.Item, []partiql.Expr, bool) {
	key := attr.Item{}
	var rest []partiql.Expr
	for _, c := range conjuncts(where) {
		if n, v, ok := tr.keyEquality(c); ok && contains(keyNames, n) && key[n].IsZero() {
			key[n] = v
			continue
		}
		rest = append(rest, c)
	}
	return key, rest, len(key) == len(keyNames)
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// conditionOf renders conjuncts joined by AND; "" for none.
func (tr *translation) conditionOf(cs []partiql.Expr) (string, error) {
	parts := make([]string, len(cs))
	for i, c := range cs {
		var err error
		if parts[i], err = tr.condition(c); err != nil {
			return "", err
		}
		parts[i] = "(" + parts[i] + ")"
	}
	return strings.Join(parts, " AND "), nil
}

// placeholders returns the translation's names and values, each nil when
// there are none (the request then has no such parameter).
func (tr *translation) placeholders() (map[string]string, expr.Values) {
	var names map[string]string
	var values expr.Values
	if len(tr.Names) > 0 {
		names = tr.Names
	}
	if len(tr.values) > 0 {
		values = expr.Values(tr.values)
	}
	return names, values
}
