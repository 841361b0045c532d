package expr

import (
	"slices"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// projNode is a trie of projected paths.
type projNode struct {
	leaf   bool
	fields map[string]*projNode
	idx    map[int]*projNode
}

func (n *projNode) add(p Path) {
	for _, e := range p {
		var next *projNode
		if e.IsIndex {
			if n.idx == nil {
				n.idx = map[int]*projNode{}
			}
			if next = n.idx[e.Index]; next == nil {
				next = &projNode{}
				n.idx[e.Index] = next
			}
		} else {
			if n.fields == nil {
				n.fields = map[string]*projNode{}
			}
			if next = n.fields[e.Name]; next == nil {
				next = &projNode{}
				n.fields[e.Name] = next
			}
		}
		n = next
	}
	n.leaf = true
}

// boundProjection returns the bound Projection of paths.
func boundProjection(ph placeholders, paths []Path) *Projection {
	root := &projNode{}
	for _, p := range paths {
		root.add(p)
	}
	return &Projection{placeholders: ph, Paths: paths, trie: root}
}

// Apply returns the parts of item named by the bound projection. Nested
// paths keep their enclosing maps and lists; selected list elements are
// returned in their original order, compacted (a[1], a[3] gives a list of
// two elements). Missing paths are left out. Apply does not copy values.
func (pr *Projection) Apply(item attr.Item) attr.Item {
	if pr.trie == nil {
		panic("expr: Apply on an unbound Projection")
	}
	if item == nil {
		return nil
	}
	out := attr.Item{}
	for name, n := range pr.trie.fields {
		if v, ok := item[name]; ok {
			if pv, ok := project(v, n); ok {
				out[name] = pv
			}
		}
	}
	return out
}

func project(v attr.Value, n *projNode) (attr.Value, bool) {
	if n.leaf {
		return v, true
	}
	switch {
	case v.Type == attr.TypeM && n.fields != nil:
		m := map[string]attr.Value{}
		for name, child := range n.fields {
			if cv, ok := v.M[name]; ok {
				if pv, ok := project(cv, child); ok {
					m[name] = pv
				}
			}
		}
		if len(m) > 0 {
			return attr.M(m), true
		}
	case v.Type == attr.TypeL && n.idx != nil:
		idx := make([]int, 0, len(n.idx))
		for i := range n.idx {
			idx = append(idx, i)
		}
		slices.Sort(idx)
		var l []attr.Value
		for _, i := range idx {
			if i < len(v.List()) {
				if pv, ok := project(v.List()[i], n.idx[i]); ok {
					l = append(l, pv)
				}
			}
		}
		if len(l) > 0 {
			return attr.L(l...), true
		}
	}
	return attr.Value{}, false
}

// TopLevelNames returns the distinct top-level attribute names of the bound
// projection, e.g. for deciding whether an index projection covers it.
func (pr *Projection) TopLevelNames() []string {
	var names []string
	for _, p := range pr.Paths {
		if !slices.Contains(names, p[0].Name) {
			names = append(names, p[0].Name)
		}
	}
	return names
}

// Targets returns the paths the bound update u sets, removes, adds to or
// deletes from, as a bound projection: applied to an item it gives what
// ReturnValues UPDATED_OLD or UPDATED_NEW return (the targeted elements of
// nested maps and lists only, leaving out paths the item does not have).
func (u *Update) Targets() *Projection {
	if !u.bound {
		panic("expr: Targets on an unbound Update")
	}
	var paths []Path
	for _, a := range u.Set {
		paths = append(paths, a.Path)
	}
	paths = append(paths, u.Remove...)
	for _, a := range u.Add {
		paths = append(paths, a.Path)
	}
	for _, a := range u.Delete {
		paths = append(paths, a.Path)
	}
	return boundProjection(u.placeholders, paths)
}
