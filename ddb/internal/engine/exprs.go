package engine

import (
	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// This file adapts package expr to the operations: every use of expr goes
// through exprEnv.

// exprEnv holds a request's ExpressionAttributeNames and
// ExpressionAttributeValues. Each expression of the request is parsed and
// bound through it; check then reports names or values no expression used.
type exprEnv struct {
	Names  map[string]string
	values map[string]attr.Value
	params *expr.Params
	// err is the error of the names and values maps themselves (see
	// expr.CheckParams), which DynamoDB reports before parsing any
	// expression.
	err error
}

// condition is a bound condition or filter expression.
type condition func(it attr.Item) (bool, error)

// projector is a bound projection expression.
type projector func(it attr.Item) attr.Item

// updater is a bound update expression; names are the top-level attributes
// it sets, removes, adds to or deletes from, and targets projects an item on
// the paths it does (for ReturnValues UPDATED_OLD and UPDATED_NEW).
type updater struct {
	names []string
	bound *expr.Update
}

// targets projects it on the paths the update touches. The projection is
// built on demand: most writes ask for no UPDATED_* values.
func (u *updater) targets(it attr.Item) attr.Item { return u.bound.Targets().Apply(it) }

// p returns the expr.Params of the request, created on first use.
func (x *exprEnv) p() *expr.Params {
	if x.params == nil {
		x.params = expr.NewParams(x.Names, x.values)
	}
	return x.params
}

// condition parses and binds a ConditionExpression (nil when absent).
func (x *exprEnv) condition(s *string) (condition, error) {
	if x.err != nil {
		return nil, x.err
	}
	if s == nil {
		return nil, nil
	}
	c, err := parseCached(expr.KindCondition, *s, expr.ParseCondition)
	if err != nil {
		return nil, err
	}
	return x.bindCondition(c)
}

// filter parses and binds a FilterExpression (nil when absent) and returns
// the top-level attribute names it reads.
func (x *exprEnv) filter(s *string) (condition, []string, error) {
	if x.err != nil {
		return nil, nil, x.err
	}
	if s == nil {
		return nil, nil, nil
	}
	c, err := parseCached(expr.KindFilter, *s, expr.ParseFilter)
	if err != nil {
		return nil, nil, err
	}
	b, err := c.Bind(x.p())
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var walk func(c *expr.Cond)
	var operand func(o *expr.Operand)
	operand = func(o *expr.Operand) {
		if o == nil {
			return
		}
		if o.Kind == expr.OperandPath && len(o.Path) > 0 {
			names = append(names, o.Path[0].Name)
		}
		for _, a := range o.Args {
			operand(a)
		}
	}
	walk = func(c *expr.Cond) {
		if c == nil {
			return
		}
		for _, a := range c.Args {
			operand(a)
		}
		walk(c.Left)
		walk(c.Right)
	}
	walk(b.Root)
	return func(it attr.Item) (bool, error) { return b.Eval(it), nil }, names, nil
}

// bindCondition binds a parsed condition to the request's placeholders.
func (x *exprEnv) bindCondition(c *expr.Condition) (condition, error) {
	b, err := c.Bind(x.p())
	if err != nil {
		return nil, err
	}
	return func(it attr.Item) (bool, error) { return b.Eval(it), nil }, nil
}

// Projection parses and binds a ProjectionExpression (nil when absent).
func (x *exprEnv) Projection(s *string) (projector, error) {
	p, _, err := x.projectionNames(s)
	return p, err
}

// projectionNames is projection that also returns the top-level names the
// projection selects.
func (x *exprEnv) projectionNames(s *string) (projector, []string, error) {
	if x.err != nil {
		return nil, nil, x.err
	}
	if s == nil {
		return nil, nil, nil
	}
	pr, err := parseCached(expr.KindProjection, *s, expr.ParseProjection)
	if err != nil {
		return nil, nil, err
	}
	b, err := bindProjection(pr, x.p())
	if err != nil {
		return nil, nil, err
	}
	return b.Apply, b.TopLevelNames(), nil
}

// Update parses and binds an UpdateExpression; keyNames are the table's key
// attributes, which it may not touch.
func (x *exprEnv) Update(s string, keyNames []string) (*updater, error) {
	if x.err != nil {
		return nil, x.err
	}
	u, err := parseCached(expr.KindUpdate, s, expr.ParseUpdate)
	if err != nil {
		return nil, err
	}
	b, err := u.Bind(x.p(), keyNames...)
	if err != nil {
		return nil, err
	}
	up := &updater{bound: b}
	add := func(p expr.Path) {
		for _, n := range up.names {
			if n == p[0].Name {
				return
			}
		}
		up.names = append(up.names, p[0].Name)
	}
	for _, a := range b.Set {
		add(a.Path)
	}
	for _, p := range b.Remove {
		add(p)
	}
	for _, a := range b.Add {
		add(a.Path)
	}
	for _, a := range b.Delete {
		add(a.Path)
	}
	return up, nil
}

// keyCondition parses and binds a KeyConditionExpression against the key
// schema of the table or index queried.
func (x *exprEnv) keyCondition(s string, m *storage.TableMeta, ks []storage.KeySchemaElement) (*expr.KeyRange, error) {
	if x.err != nil {
		return nil, x.err
	}
	k, err := parseCached(expr.KindKeyCondition, s, expr.ParseKeyCondition)
	if err != nil {
		return nil, err
	}
	h, r := storage.HashKey(ks), storage.RangeKey(ks)
	schema := expr.KeySchema{HashKey: h, HashType: attr.ParseType(m.AttrType(h))}
	if r != "" {
		schema.RangeKey, schema.RangeType = r, attr.ParseType(m.AttrType(r))
	}
	return k.Bind(x.p(), schema)
}

// Check reports ExpressionAttributeNames or ExpressionAttributeValues that
// no expression of the request used, or the maps' own error.
func (x *exprEnv) Check() error {
	if x.err != nil {
		return x.err
	}
	if x.params == nil && len(x.Names) == 0 && len(x.values) == 0 {
		return nil // no expression and no placeholder: nothing to be unused
	}
	return x.p().CheckUnused()
}

// keyNamesOf returns the attribute names of a Key parameter.
func keyNamesOf(key attr.Item) []string {
	names := make([]string, 0, len(key))
	for n := range key {
		names = append(names, n)
	}
	return names
}

// ExprParams are the expression parameters shared by most requests.
type ExprParams struct {
	ExpressionAttributeNames  map[string]string `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues expr.Values       `json:"ExpressionAttributeValues"`
}

// env returns the expression environment of the request.
func (p *ExprParams) env() *exprEnv {
	return &exprEnv{
		Names:  p.ExpressionAttributeNames,
		values: p.ExpressionAttributeValues,
		err:    expr.CheckParams(p.ExpressionAttributeNames, p.ExpressionAttributeValues),
	}
}
