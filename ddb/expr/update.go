package expr

import (
	"bytes"
	"slices"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Apply returns the item that results from applying the bound update u to
// item (nil for an item that does not exist yet; the caller adds the key
// attributes first). item is not modified; the result shares unchanged
// values with it, and is item itself when nothing changed.
//
// As in DynamoDB, every SET value is computed from the item as it was
// before the update. Actions apply in the order SET, REMOVE, ADD, DELETE;
// REMOVE of list elements uses the original indexes (removing a[0] and a[2]
// removes both original elements).
func (u *Update) Apply(item attr.Item) (attr.Item, error) {
	return u.apply(item, false)
}

// ApplyInPlace is Apply for a caller that has no further use for item as
// it was: item's own attributes are changed in place and item is returned
// (a new item when item is nil). Maps and lists nested in it are still
// copied where they change, as Apply copies them.
func (u *Update) ApplyInPlace(item attr.Item) (attr.Item, error) {
	return u.apply(item, true)
}

// apply is Apply, changing item itself when owned.
func (u *Update) apply(item attr.Item, owned bool) (attr.Item, error) {
	if !u.bound {
		panic("expr: Apply on an unbound Update")
	}
	vals := make([]attr.Value, len(u.Set))
	for i, a := range u.Set {
		v, err := evalSet(a.Value, item)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	// The item's top level is copied once, on the first change, and then
	// changed in place by every action; below it, setIn and removeIn copy
	// the containers they change.
	top := mapEdit{m: item, owned: owned}
	for i, a := range u.Set {
		if err := top.set(a.Path, vals[i]); err != nil {
			return nil, err
		}
	}
	// Remove deepest and highest-indexed paths first so that removing a
	// list element never shifts another path's target.
	removes := slices.Clone(u.Remove)
	slices.SortFunc(removes, func(a, b Path) int { return comparePaths(b, a) })
	for _, p := range removes {
		if err := top.remove(p); err != nil {
			return nil, err
		}
	}
	for _, a := range u.Add {
		old, ok := Get(top.m, a.Path)
		v := a.Value.Value
		if ok {
			var err error
			if v, err = addValues(old, v); err != nil {
				return nil, err
			}
		}
		if err := top.set(a.Path, v); err != nil {
			return nil, err
		}
	}
	for _, a := range u.Delete {
		old, ok := Get(top.m, a.Path)
		if !ok {
			if !parentExists(top.m, a.Path) {
				return nil, plain(MsgInvalidPath)
			}
			continue
		}
		v, err := deleteValues(old, a.Value.Value)
		if err != nil {
			return nil, err
		}
		if v.Type == attr.TypeNone {
			err = top.remove(a.Path)
		} else {
			err = top.set(a.Path, v)
		}
		if err != nil {
			return nil, err
		}
	}
	if top.m == nil {
		return attr.Item{}, nil
	}
	return top.m, nil
}

// evalSet computes the right-hand side of a SET action against item.
func evalSet(o *Operand, item attr.Item) (attr.Value, error) {
	switch o.Kind {
	case OperandValue:
		return o.Value, nil
	case OperandPath:
		v, ok := Get(item, o.Path)
		if !ok {
			return attr.Value{}, plain(MsgMissingOperand)
		}
		return v, nil
	case OperandFunc:
		if o.Func == fnIfNotExists {
			if v, ok := Get(item, o.Args[0].Path); ok {
				return v, nil
			}
			return evalSet(o.Args[1], item)
		}
		// list_append
		a, b, err := evalSetArgs(o, item)
		if err != nil {
			return attr.Value{}, err
		}
		if a.Type != attr.TypeL || b.Type != attr.TypeL {
			return attr.Value{}, plain(MsgWrongType)
		}
		return attr.L(append(slices.Clip(a.List()), b.List()...)...), nil
	case OperandPlus, OperandMinus:
		a, b, err := evalSetArgs(o, item)
		if err != nil {
			return attr.Value{}, err
		}
		if a.Type != attr.TypeN || b.Type != attr.TypeN {
			return attr.Value{}, plain(MsgWrongType)
		}
		var d attr.Decimal
		if o.Kind == OperandPlus {
			d, err = a.Decimal().Add(b.Decimal())
		} else {
			d, err = a.Decimal().Sub(b.Decimal())
		}
		if err != nil {
			return attr.Value{}, err
		}
		return attr.Num(d), nil
	}
	return attr.Value{}, plain(MsgWrongType)
}

// evalSetArgs computes the two operands of list_append, + or -.
func evalSetArgs(o *Operand, item attr.Item) (a, b attr.Value, err error) {
	if a, err = evalSet(o.Args[0], item); err != nil {
		return attr.Value{}, attr.Value{}, err
	}
	if b, err = evalSet(o.Args[1], item); err != nil {
		return attr.Value{}, attr.Value{}, err
	}
	return a, b, nil
}

// addValues implements ADD on an existing value: numeric sum or set union.
func addValues(old, v attr.Value) (attr.Value, error) {
	if old.Type != v.Type {
		return attr.Value{}, plain(MsgWrongType)
	}
	switch v.Type {
	case attr.TypeN:
		d, err := old.Decimal().Add(v.Decimal())
		if err != nil {
			return attr.Value{}, err
		}
		return attr.Num(d), nil
	case attr.TypeSS:
		out := slices.Clone(old.SS())
		for _, s := range v.SS() {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return attr.SS(out...), nil
	case attr.TypeNS:
		out := slices.Clone(old.NS())
		for _, s := range v.NS() {
			if !attr.NS(out...).Contains(attr.N(s)) {
				out = append(out, s)
			}
		}
		return attr.NS(out...), nil
	case attr.TypeBS:
		out := slices.Clone(old.BS())
		for _, b := range v.BS() {
			if !slices.ContainsFunc(out, func(x []byte) bool { return bytes.Equal(x, b) }) {
				out = append(out, b)
			}
		}
		return attr.BS(out...), nil
	}
	return attr.Value{}, plain(MsgWrongType)
}

// deleteValues implements DELETE: set difference. The zero Value means the
// set became empty and the attribute goes away.
func deleteValues(old, v attr.Value) (attr.Value, error) {
	if old.Type != v.Type {
		return attr.Value{}, plain(MsgWrongType)
	}
	var out attr.Value
	switch v.Type {
	case attr.TypeSS:
		out = attr.SS(slices.DeleteFunc(slices.Clone(old.SS()), func(s string) bool { return v.Contains(attr.S(s)) })...)
		if len(out.SS()) == 0 {
			return attr.Value{}, nil
		}
	case attr.TypeNS:
		out = attr.NS(slices.DeleteFunc(slices.Clone(old.NS()), func(s string) bool { return v.Contains(attr.N(s)) })...)
		if len(out.NS()) == 0 {
			return attr.Value{}, nil
		}
	case attr.TypeBS:
		out = attr.BS(slices.DeleteFunc(slices.Clone(old.BS()), func(b []byte) bool { return v.Contains(attr.B(b)) })...)
		if len(out.BS()) == 0 {
			return attr.Value{}, nil
		}
	default:
		return attr.Value{}, plain(MsgWrongType)
	}
	return out, nil
}
