package engine

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Legacy (pre-expression) parameters are translated into the equivalent
// expressions, with generated placeholders, so that one code path serves
// both: Expected and QueryFilter/ScanFilter become condition and filter
// expressions, KeyConditions a key condition, AttributesToGet a projection
// and AttributeUpdates an update expression.

// LegacyCondition is one attribute's entry of Expected, KeyConditions,
// QueryFilter or ScanFilter.
type LegacyCondition struct {
	Value              *attr.Value  `json:"Value"`
	Exists             *bool        `json:"Exists"`
	ComparisonOperator string       `json:"ComparisonOperator"`
	AttributeValueList []attr.Value `json:"AttributeValueList"`
}

// LegacyUpdate is one attribute's entry of AttributeUpdates.
type LegacyUpdate struct {
	Action string      `json:"Action"`
	Value  *attr.Value `json:"Value"`
}

// LegacyParams are the pre-expression parameters of a request.
type LegacyParams struct {
	Expected            map[string]LegacyCondition `json:"Expected"`
	AttributesToGet     []string                   `json:"AttributesToGet"`
	ConditionalOperator string                     `json:"ConditionalOperator"`
	AttributeUpdates    map[string]LegacyUpdate    `json:"AttributeUpdates"`
	KeyConditions       map[string]LegacyCondition `json:"KeyConditions"`
	QueryFilter         map[string]LegacyCondition `json:"QueryFilter"`
	ScanFilter          map[string]LegacyCondition `json:"ScanFilter"`
}

// exprSlots are the expression parameters of a request that legacy
// parameters may fill.
type exprSlots struct {
	condition, update, projection, filter, keyCondition **string
}

// translate rewrites the legacy parameters into expressions in slots and
// placeholders in p. Mixing both kinds is DynamoDB's ValidationException.
func (l *LegacyParams) translate(p *ExprParams, slots exprSlots) error {
	var legacy, modern []string
	if l.Expected != nil {
		legacy = append(legacy, "Expected")
	}
	if l.AttributesToGet != nil {
		legacy = append(legacy, "AttributesToGet")
	}
	if l.AttributeUpdates != nil {
		legacy = append(legacy, "AttributeUpdates")
	}
	if l.KeyConditions != nil {
		legacy = append(legacy, "KeyConditions")
	}
	if l.QueryFilter != nil {
		legacy = append(legacy, "QueryFilter")
	}
	if l.ScanFilter != nil {
		legacy = append(legacy, "ScanFilter")
	}
	if l.ConditionalOperator != "" {
		legacy = append(legacy, "ConditionalOperator")
	}
	if len(legacy) == 0 {
		return nil // most requests: nothing to translate or refuse
	}
	for name, s := range map[string]**string{"ConditionExpression": slots.condition, "UpdateExpression": slots.update,
		"ProjectionExpression": slots.projection, "FilterExpression": slots.filter, "KeyConditionExpression": slots.keyCondition} {
		if s != nil && *s != nil {
			modern = append(modern, name)
		}
	}
	if len(modern) > 0 {
		sort.Strings(modern)
		return Validationf("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {%s} Expression parameters: {%s}", strings.Join(legacy, ", "), strings.Join(modern, ", "))
	}
	if p.ExpressionAttributeNames != nil {
		return Validationf("ExpressionAttributeNames can only be specified when using expressions")
	}
	if p.ExpressionAttributeValues != nil {
		return Validationf("ExpressionAttributeValues can only be specified when using expressions")
	}
	// Every name becomes an ExpressionAttributeNames value below, whose own message for an
	// empty or too large one would name a placeholder the client never wrote.
	if bad := l.badName(); bad != nil {
		return Validationf("%s", bad.Message)
	}
	g := &placeholderGen{p: p}
	set := func(slot **string, s string) {
		if slot != nil {
			*slot = &s
		}
	}
	if l.AttributesToGet != nil {
		var names []string
		for _, a := range l.AttributesToGet {
			names = append(names, g.name(a))
		}
		set(slots.projection, strings.Join(names, ", "))
	}
	var err error
	translateConds := func(conds map[string]LegacyCondition, slot **string) {
		if conds != nil && err == nil {
			var s string
			if s, err = g.conditions(conds, l.ConditionalOperator); err == nil {
				set(slot, s)
			}
		}
	}
	translateConds(l.Expected, slots.condition)
	translateConds(l.QueryFilter, slots.filter)
	translateConds(l.ScanFilter, slots.filter)
	translateConds(l.KeyConditions, slots.keyCondition)
	if err != nil {
		return err
	}
	if l.AttributeUpdates != nil {
		s, err := g.updates(l.AttributeUpdates)
		if err != nil {
			return err
		}
		set(slots.update, s)
	}
	return nil
}

// badName returns the error for the first attribute name of the legacy parameters that no
// attribute may have (attr.CheckName), nil if there is none: AttributesToGet in order, then the
// conditions' and updates' names in sorted order, so that the answer does not vary.
func (l *LegacyParams) badName() *attr.ValidationError {
	for _, a := range l.AttributesToGet {
		if bad := attr.CheckName(a); bad != nil {
			return bad
		}
	}
	for _, conds := range []map[string]LegacyCondition{l.Expected, l.KeyConditions, l.QueryFilter, l.ScanFilter} {
		for _, k := range slices.Sorted(maps.Keys(conds)) {
			if bad := attr.CheckName(k); bad != nil {
				return bad
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(l.AttributeUpdates)) {
		if bad := attr.CheckName(k); bad != nil {
			return bad
		}
	}
	return nil
}

// placeholderGen allocates #lN and :lN placeholders into p.
type placeholderGen struct {
	p    *ExprParams
	n, v int
}

func (g *placeholderGen) name(a string) string {
	if g.p.ExpressionAttributeNames == nil {
		g.p.ExpressionAttributeNames = map[string]string{}
	}
	k := fmt.Sprintf("#l%d", g.n)
	g.n++
	g.p.ExpressionAttributeNames[k] = a
	return k
}

func (g *placeholderGen) value(v attr.Value) string {
	if g.p.ExpressionAttributeValues == nil {
		g.p.ExpressionAttributeValues = map[string]attr.Value{}
	}
	k := fmt.Sprintf(":l%d", g.v)
	g.v++
	g.p.ExpressionAttributeValues[k] = v
	return k
}

// conditions translates a map of legacy conditions joined by op (AND or
// OR).
func (g *placeholderGen) conditions(conds map[string]LegacyCondition, op string) (string, error) {
	switch op {
	case "", "AND", "OR":
	default:
		return "", Validationf("1 validation error detected: Value '%s' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [AND, OR]", op)
	}
	if op == "" {
		op = "AND"
	}
	var parts []string
	for _, a := range sortedKeys(conds) {
		s, err := g.condition(a, conds[a])
		if err != nil {
			return "", err
		}
		parts = append(parts, "("+s+")")
	}
	return strings.Join(parts, " "+op+" "), nil
}

// condition translates one legacy condition on attribute a.
func (g *placeholderGen) condition(a string, c LegacyCondition) (string, error) {
	n := g.name(a)
	if c.ComparisonOperator == "" {
		switch {
		case c.Exists != nil && !*c.Exists:
			if c.Value != nil {
				return "", invalidParamf("Value cannot be used when Exists is false for Attribute: %s", a)
			}
			return "attribute_not_exists(" + n + ")", nil
		case c.Value == nil:
			return "", invalidParamf("Value must be provided when Exists is true for Attribute: %s", a)
		}
		return n + " = " + g.value(*c.Value), nil
	}
	args := c.AttributeValueList
	want := func(k int) error {
		if len(args) != k {
			return invalidParamf("Invalid number of argument(s) for the %s ComparisonOperator", c.ComparisonOperator)
		}
		return nil
	}
	binary := map[string]string{"EQ": "=", "NE": "<>", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
	if sym, ok := binary[c.ComparisonOperator]; ok {
		if err := want(1); err != nil {
			return "", err
		}
		return n + " " + sym + " " + g.value(args[0]), nil
	}
	switch c.ComparisonOperator {
	case "NULL", "NOT_NULL":
		if err := want(0); err != nil {
			return "", err
		}
		if c.ComparisonOperator == "NULL" {
			return "attribute_not_exists(" + n + ")", nil
		}
		return "attribute_exists(" + n + ")", nil
	case "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH":
		if err := want(1); err != nil {
			return "", err
		}
		fn := map[string]string{"CONTAINS": "contains", "NOT_CONTAINS": "NOT contains", "BEGINS_WITH": "begins_with"}[c.ComparisonOperator]
		return fn + "(" + n + ", " + g.value(args[0]) + ")", nil
	case "BETWEEN":
		if err := want(2); err != nil {
			return "", err
		}
		return n + " BETWEEN " + g.value(args[0]) + " AND " + g.value(args[1]), nil
	case "IN":
		if len(args) == 0 {
			return "", invalidParamf("Invalid number of argument(s) for the IN ComparisonOperator")
		}
		var vs []string
		for _, v := range args {
			vs = append(vs, g.value(v))
		}
		return n + " IN (" + strings.Join(vs, ", ") + ")", nil
	}
	return "", Validationf("1 validation error detected: Value '%s' at 'comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]", c.ComparisonOperator)
}

// updates translates AttributeUpdates into an update expression.
func (g *placeholderGen) updates(ups map[string]LegacyUpdate) (string, error) {
	var set, remove, add, del []string
	for _, a := range sortedKeys(ups) {
		u := ups[a]
		n := g.name(a)
		switch u.Action {
		case "", "PUT":
			if u.Value == nil {
				return "", invalidParamf("Only DELETE action is allowed when no attribute value is specified")
			}
			set = append(set, n+" = "+g.value(*u.Value))
		case "DELETE":
			if u.Value == nil {
				remove = append(remove, n)
			} else {
				del = append(del, n+" "+g.value(*u.Value))
			}
		case "ADD":
			if u.Value == nil {
				return "", invalidParamf("Only DELETE action is allowed when no attribute value is specified")
			}
			add = append(add, n+" "+g.value(*u.Value))
		default:
			return "", Validationf("1 validation error detected: Value '%s' at 'attributeUpdates.%s.member.action' failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]", u.Action, a)
		}
	}
	var clauses []string
	for _, c := range []struct {
		kw    string
		parts []string
	}{{"SET", set}, {"REMOVE", remove}, {"ADD", add}, {"DELETE", del}} {
		if len(c.parts) > 0 {
			clauses = append(clauses, c.kw+" "+strings.Join(c.parts, ", "))
		}
	}
	return strings.Join(clauses, " "), nil
}
