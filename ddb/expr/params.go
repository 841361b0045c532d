package expr

import (
	"slices"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Params holds one request's ExpressionAttributeNames and
// ExpressionAttributeValues and records which of them the request's
// expressions use, so that CheckUnused can apply DynamoDB's rule across all
// expressions of the request (condition, filter, key condition, projection
// and update together). A Params belongs to one request; it is not safe for
// concurrent use.
type Params struct {
	Names  map[string]string
	Values map[string]attr.Value
	// usedNames and usedValues are the placeholders used so far, each once:
	// a request has a few, which a slice finds faster than a map, and
	// without the map's group of eight slots to allocate per request.
	usedNames  []string
	usedValues []string
}

// NewParams returns Params over a request's names and values (either may be
// nil).
func NewParams(names map[string]string, values map[string]attr.Value) *Params {
	return &Params{Names: names, Values: values}
}

// CheckUnused returns DynamoDB's error for a name or value that no bound
// expression used, or nil. Call it after binding every expression of the
// request.
func (p *Params) CheckUnused() error {
	if keys := unusedKeys(p.Names, p.usedNames); len(keys) > 0 {
		return plain("Value provided in ExpressionAttributeNames unused in expressions: keys: {" + strings.Join(keys, ", ") + "}")
	}
	if keys := unusedKeys(p.Values, p.usedValues); len(keys) > 0 {
		return plain("Value provided in ExpressionAttributeValues unused in expressions: keys: {" + strings.Join(keys, ", ") + "}")
	}
	return nil
}

// unusedKeys returns the keys of m that are not in used, sorted.
func unusedKeys[V any](m map[string]V, used []string) []string {
	var keys []string
	for k := range m {
		if !slices.Contains(used, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// use records placeholder k in used.
func use(used []string, k string) []string {
	if slices.Contains(used, k) {
		return used
	}
	return append(used, k)
}

// binder substitutes placeholders for one expression.
type binder struct {
	p    *Params
	kind string
}

func (b binder) name(n string) (string, error) {
	if !strings.HasPrefix(n, "#") {
		return n, nil
	}
	v, ok := b.p.Names[n]
	if !ok {
		return "", invalidf(b.kind, "An expression attribute name used in the document path is not defined; attribute name: %s", n)
	}
	b.p.usedNames = use(b.p.usedNames, n)
	return v, nil
}

// path returns p with its name placeholders substituted; a path without
// any is returned as it is, as parsed trees are never changed.
func (b binder) path(p Path) (Path, error) {
	if !slices.ContainsFunc(p, func(e PathElem) bool { return !e.IsIndex && strings.HasPrefix(e.Name, "#") }) {
		return p, nil
	}
	out := make(Path, len(p))
	for i, e := range p {
		if !e.IsIndex {
			n, err := b.name(e.Name)
			if err != nil {
				return nil, err
			}
			e.Name = n
		}
		out[i] = e
	}
	return out, nil
}

// operand returns o with its placeholders substituted. An operand that has
// none to substitute is returned as it is, as parsed trees are never
// changed: most paths, and functions of them such as attribute_exists(PK).
func (b binder) operand(o *Operand) (*Operand, error) {
	// The copy is made only where something is substituted: one declared
	// up front would be moved to the heap on every path.
	switch o.Kind {
	case OperandPath:
		p, err := b.path(o.Path)
		if err != nil {
			return nil, err
		}
		if len(p) > 0 && &p[0] == &o.Path[0] {
			return o, nil // nothing substituted: the parsed operand serves
		}
		out := *o
		out.Path = p
		return &out, nil
	case OperandValue:
		v, ok := b.p.Values[o.Ref]
		if !ok {
			return nil, invalidf(b.kind, "An expression attribute value used in expression is not defined; attribute value: %s", o.Ref)
		}
		b.p.usedValues = use(b.p.usedValues, o.Ref)
		out := *o
		out.Value = v
		return &out, nil
	default:
		args, err := b.operands(o.Args)
		if err != nil {
			return nil, err
		}
		if sameOperands(args, o.Args) {
			return o, nil
		}
		out := *o
		out.Args = args
		return &out, nil
	}
}

// operands binds each of list, returning list itself when none changed.
func (b binder) operands(list []*Operand) ([]*Operand, error) {
	var out []*Operand // made at the first operand that changes
	for i, a := range list {
		ba, err := b.operand(a)
		if err != nil {
			return nil, err
		}
		if ba != a && out == nil {
			out = make([]*Operand, len(list))
			copy(out, list[:i])
		}
		if out != nil {
			out[i] = ba
		}
	}
	if out == nil {
		return list, nil
	}
	return out, nil
}

// sameOperands reports whether a and b are the same slice.
func sameOperands(a, b []*Operand) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// cond returns c with its placeholders substituted, or c itself when it
// has none, as operand does.
func (b binder) cond(c *Cond) (*Cond, error) {
	if c == nil {
		return nil, nil
	}
	left, err := b.cond(c.Left)
	if err != nil {
		return nil, err
	}
	right, err := b.cond(c.Right)
	if err != nil {
		return nil, err
	}
	args, err := b.operands(c.Args)
	if err != nil {
		return nil, err
	}
	if left == c.Left && right == c.Right && sameOperands(args, c.Args) {
		return c, nil
	}
	out := *c
	out.Left, out.Right, out.Args = left, right, args
	return &out, nil
}

// Bind substitutes p's names and values into c and checks the rules that
// depend on them. The result is ready for Eval; c itself is unchanged.
func (c *Condition) Bind(p *Params) (*Condition, error) {
	root, err := binder{p, c.Kind}.cond(c.Root)
	if err != nil {
		return nil, err
	}
	if err := checkCond(c.Kind, root); err != nil {
		return nil, err
	}
	return &Condition{placeholders: c.placeholders, Kind: c.Kind, Root: root, bound: true}, nil
}

// Bind substitutes p's names into the projection and checks that no two
// paths overlap.
func (pr *Projection) Bind(p *Params) (*Projection, error) {
	b := binder{p, KindProjection}
	paths := make([]Path, len(pr.Paths))
	for i, path := range pr.Paths {
		bp, err := b.path(path)
		if err != nil {
			return nil, err
		}
		paths[i] = bp
	}
	if err := checkOverlaps(KindProjection, paths); err != nil {
		return nil, err
	}
	return boundProjection(pr.placeholders, paths), nil
}

// Bind substitutes p's names and values into the update and checks
// DynamoDB's static rules: operand types of ADD, DELETE and list_append,
// overlapping paths, and that no action touches a key attribute (keyNames
// are the table's key attribute names).
func (u *Update) Bind(p *Params, keyNames ...string) (*Update, error) {
	b := binder{p, KindUpdate}
	out := &Update{placeholders: u.placeholders, bound: true}
	var allPaths [8]Path // an update's paths, for the checks below; most have few
	all := allPaths[:0]
	for _, a := range u.Set {
		path, err := b.path(a.Path)
		if err != nil {
			return nil, err
		}
		v, err := b.operand(a.Value)
		if err != nil {
			return nil, err
		}
		out.Set = append(out.Set, SetAction{Path: path, Value: v})
		all = append(all, path)
	}
	for _, r := range u.Remove {
		path, err := b.path(r)
		if err != nil {
			return nil, err
		}
		out.Remove = append(out.Remove, path)
		all = append(all, path)
	}
	for i, list := range [][]ValueAction{u.Add, u.Delete} {
		for _, a := range list {
			path, err := b.path(a.Path)
			if err != nil {
				return nil, err
			}
			v, err := b.operand(a.Value)
			if err != nil {
				return nil, err
			}
			all = append(all, path)
			if i == 0 {
				out.Add = append(out.Add, ValueAction{Path: path, Value: v})
			} else {
				out.Delete = append(out.Delete, ValueAction{Path: path, Value: v})
			}
		}
	}
	if err := checkUpdate(out); err != nil {
		return nil, err
	}
	if err := checkOverlaps(KindUpdate, all); err != nil {
		return nil, err
	}
	for _, path := range all {
		if slices.Contains(keyNames, path[0].Name) {
			return nil, plain(attr.MsgInvalidParams + "Cannot update attribute " + path[0].Name + ". This attribute is part of the key")
		}
	}
	return out, nil
}
