// Package selection is the one reading of an operation's selection set: the walk over its
// fields (Walker), and the reading of the arguments the server checks before any resolver
// runs (Page, CheckArguments). The request's checks (package api), the query limits
// (api/limits), the subscription rule and the resolvers' lookahead all read a selection
// through it, so a field added to the schema is measured and checked the same way everywhere.
package selection

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// Walker folds a value of type T over the fields of a validated operation's selection set,
// fragments expanded: Field gives each field's value from the combined value of its children,
// and Combine combines the values of siblings. Validation is what links each field to its
// definition and parent type, and each spread to its fragment.
//
// Each fragment definition is walked once per walk, at its first spread, and its value is
// reused at every later spread: a document whose fragments spread each other many times is
// linear to walk, not exponential. So Field sees a field inside a fragment once, with the path
// of that first spread. A fragment that spreads itself (validation refuses such a cycle) counts
// nothing where it recurs.
type Walker[T any] struct {
	// Vars are the operation's variables, coerced; Field.Args substitutes them.
	Vars map[string]any
	// Combine combines the values of two sibling selections, left one first.
	Combine func(a, b T) T
	// Field is the value of field f, given the combined value of its children (T's zero value
	// for a leaf, and for every field when Shallow).
	Field func(f *Field, children T) T
	// Shallow walks only the set's own fields, through its fragments, not their selection
	// sets: the root fields of an operation.
	Shallow bool
}

// Walk folds w over set.
func (w Walker[T]) Walk(set ast.SelectionSet) T {
	s := walk[T]{Walker: w}
	return s.set(set, nil)
}

// walk is the state of one Walk.
type walk[T any] struct {
	Walker[T]
	// levels holds one Field per depth, reused by siblings: a field's Field lives for the
	// duration of its Field call. They are allocated a block at a time, from fields.
	levels []*Field
	fields []Field
	// done holds the value of each fragment definition walked; busy those being walked.
	done map[*ast.FragmentDefinition]T
	busy map[*ast.FragmentDefinition]bool
}

func (s *walk[T]) set(set ast.SelectionSet, parent *Field) T {
	var total T
	first := true
	for _, sel := range set {
		var v T
		switch sel := sel.(type) {
		case *ast.Field:
			v = s.field(sel, parent)
		case *ast.InlineFragment:
			v = s.set(sel.SelectionSet, parent)
		case *ast.FragmentSpread:
			var ok bool
			if v, ok = s.fragment(sel.Definition, parent); !ok {
				continue
			}
		default:
			continue
		}
		if first {
			total, first = v, false
		} else {
			total = s.Combine(total, v)
		}
	}
	return total
}

func (s *walk[T]) fragment(def *ast.FragmentDefinition, parent *Field) (T, bool) {
	var v T
	if def == nil || s.busy[def] {
		return v, false
	}
	if v, ok := s.done[def]; ok {
		return v, true
	}
	if s.done == nil {
		s.done = map[*ast.FragmentDefinition]T{}
		s.busy = map[*ast.FragmentDefinition]bool{}
	}
	s.busy[def] = true
	v = s.set(def.SelectionSet, parent)
	delete(s.busy, def)
	s.done[def] = v
	return v, true
}

func (s *walk[T]) field(f *ast.Field, parent *Field) T {
	depth := 0
	if parent != nil {
		depth = parent.depth + 1
	}
	if depth == len(s.levels) {
		if len(s.fields) == cap(s.fields) {
			s.fields = make([]Field, 0, levelsBlock)
		}
		s.fields = s.fields[:len(s.fields)+1]
		if s.levels == nil {
			s.levels = make([]*Field, 0, levelsBlock)
		}
		s.levels = append(s.levels, &s.fields[len(s.fields)-1])
	}
	sf := s.levels[depth]
	*sf = Field{Field: f, parent: parent, depth: depth, vars: s.Vars}
	var children T
	if !s.Shallow && len(f.SelectionSet) > 0 {
		children = s.set(f.SelectionSet, sf)
	}
	return s.Field(sf, children)
}

// levelsBlock is how many depths' Fields are allocated at once: most operations are no deeper.
const levelsBlock = 8

// Field is a field as a walk meets it. It is valid only during the Field call it is given
// to: the walk reuses it for the next field at the same depth.
type Field struct {
	*ast.Field
	parent *Field
	depth  int
	vars   map[string]any
	args   map[string]any
	read   uint8 // 0: Args not read yet; 1: read; 2: could not be read
}

// Depth is 0 for a root field, 1 for its children, and so on.
func (f *Field) Depth() int { return f.depth }

// Path is the field's response path (aliases, from the root), as an error reports it.
func (f *Field) Path() ast.Path {
	path := make(ast.Path, f.depth+1)
	for p := f; p != nil; p = p.parent {
		path[p.depth] = ast.PathName(p.Alias)
	}
	return path
}

// Args are the field's arguments as gqlgen resolves them for its resolver: literals, variables
// and schema defaults, an argument absent without a default left out. It reads them once per
// field, however often it is asked. ok is false when they cannot be worked out (a field
// validation did not link to its definition, a value that cannot be converted), which does
// not happen to a validated operation; callers then assume the worst.
func (f *Field) Args() (args map[string]any, ok bool) {
	if f.read == 0 {
		f.read = 2
		if f.Definition != nil {
			if f.args, ok = argumentMap(f.Field, f.vars); ok {
				f.read = 1
			}
		}
	}
	return f.args, f.read == 1
}

// argumentMap is f.ArgumentMap(vars); ok is false when it panics on a value it cannot convert.
func argumentMap(f *ast.Field, vars map[string]any) (args map[string]any, ok bool) {
	if len(f.Definition.Arguments) == 0 {
		return nil, true
	}
	defer func() {
		if recover() != nil {
			args, ok = nil, false
		}
	}()
	return f.ArgumentMap(vars), true
}
