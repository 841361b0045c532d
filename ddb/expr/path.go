package expr

import (
	"maps"
	"slices"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Get returns the value at path p in item and whether it exists. A step
// into a value of the wrong type (a key of a list, an index of a map or of
// a scalar) finds nothing.
func Get(item attr.Item, p Path) (attr.Value, bool) {
	v, ok := item[p[0].Name]
	if !ok || p[0].IsIndex {
		return attr.Value{}, false
	}
	for _, e := range p[1:] {
		switch {
		case e.IsIndex && v.Type == attr.TypeL && e.Index < len(v.List()):
			v = v.List()[e.Index]
		case !e.IsIndex && v.Type == attr.TypeM:
			if v, ok = v.M[e.Name]; !ok {
				return attr.Value{}, false
			}
		default:
			return attr.Value{}, false
		}
	}
	return v, true
}

// setIn returns a copy of container cur (a map or list) with the value at
// p replaced by v, copying only the maps and lists along p. Every step but
// the last must exist; a list index past the end appends.
func setIn(cur attr.Value, p Path, v attr.Value) (attr.Value, error) {
	e := p[0]
	if e.IsIndex {
		if cur.Type != attr.TypeL {
			return attr.Value{}, plain(MsgInvalidPath)
		}
		l := slices.Clone(cur.List())
		if len(p) == 1 {
			if e.Index >= len(l) {
				l = append(l, v)
			} else {
				l[e.Index] = v
			}
			return attr.L(l...), nil
		}
		if e.Index >= len(l) {
			return attr.Value{}, plain(MsgInvalidPath)
		}
		child, err := setIn(l[e.Index], p[1:], v)
		if err != nil {
			return attr.Value{}, err
		}
		l[e.Index] = child
		return attr.L(l...), nil
	}
	if cur.Type != attr.TypeM {
		return attr.Value{}, plain(MsgInvalidPath)
	}
	m := mapEdit{m: cur.M}
	if err := m.set(p, v); err != nil {
		return attr.Value{}, err
	}
	return attr.M(m.m), nil
}

// removeIn returns a copy of container cur without the value at p. A
// missing last step is not an error, a missing intermediate one is;
// removing a list element shifts the later ones down.
func removeIn(cur attr.Value, p Path) (attr.Value, error) {
	e := p[0]
	if e.IsIndex {
		if cur.Type != attr.TypeL {
			return attr.Value{}, plain(MsgInvalidPath)
		}
		if e.Index >= len(cur.List()) {
			if len(p) == 1 {
				return cur, nil
			}
			return attr.Value{}, plain(MsgInvalidPath)
		}
		l := slices.Clone(cur.List())
		if len(p) == 1 {
			return attr.L(slices.Delete(l, e.Index, e.Index+1)...), nil
		}
		child, err := removeIn(l[e.Index], p[1:])
		if err != nil {
			return attr.Value{}, err
		}
		l[e.Index] = child
		return attr.L(l...), nil
	}
	if cur.Type != attr.TypeM {
		return attr.Value{}, plain(MsgInvalidPath)
	}
	m := mapEdit{m: cur.M}
	if err := m.remove(p); err != nil {
		return attr.Value{}, err
	}
	if !m.owned {
		return cur, nil // nothing removed
	}
	return attr.M(m.m), nil
}

// mapEdit is a map an update changes at its first step: copied on the
// first change unless owned (the caller's to change in place), so that a
// map shared with another item is never written.
type mapEdit struct {
	m     map[string]attr.Value
	owned bool
}

// own makes the map the edit's own to change, copying it the first time.
func (e *mapEdit) own() {
	if !e.owned {
		e.m, e.owned = maps.Clone(e.m), true
	}
	if e.m == nil {
		e.m = map[string]attr.Value{}
	}
}

// set sets the value at p, whose first step names a member of the map, to
// v. Every step but the last must exist.
func (e *mapEdit) set(p Path, v attr.Value) error {
	step := p[0]
	if step.IsIndex {
		return plain(MsgInvalidPath) // a map has no index
	}
	if len(p) == 1 {
		e.own()
		e.m[step.Name] = v
		return nil
	}
	child, ok := e.m[step.Name]
	if !ok {
		return plain(MsgInvalidPath)
	}
	child, err := setIn(child, p[1:], v)
	if err != nil {
		return err
	}
	e.own()
	e.m[step.Name] = child
	return nil
}

// remove removes the value at p, whose first step names a member of the
// map: a missing last step is not an error, a missing intermediate one is.
func (e *mapEdit) remove(p Path) error {
	step := p[0]
	if step.IsIndex {
		return plain(MsgInvalidPath) // a map has no index
	}
	child, ok := e.m[step.Name]
	if !ok {
		if len(p) == 1 {
			return nil
		}
		return plain(MsgInvalidPath)
	}
	if len(p) == 1 {
		e.own()
		delete(e.m, step.Name)
		return nil
	}
	child, err := removeIn(child, p[1:])
	if err != nil {
		return err
	}
	e.own()
	e.m[step.Name] = child
	return nil
}

// comparePaths orders paths step by step, indexes numerically; a prefix
// sorts first.
func comparePaths(a, b Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		switch {
		case x.IsIndex && y.IsIndex && x.Index != y.Index:
			if x.Index < y.Index {
				return -1
			}
			return 1
		case !x.IsIndex && !y.IsIndex && x.Name != y.Name:
			if x.Name < y.Name {
				return -1
			}
			return 1
		case x.IsIndex != y.IsIndex:
			if x.IsIndex {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// parentExists reports whether the container that would hold the last
// step of p exists in item with the right type.
func parentExists(item attr.Item, p Path) bool {
	if len(p) == 1 {
		return true
	}
	parent, ok := Get(item, p[:len(p)-1])
	if !ok {
		return false
	}
	if p[len(p)-1].IsIndex {
		return parent.Type == attr.TypeL
	}
	return parent.Type == attr.TypeM
}
