package api

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/selection"
)

// requestChecks walks the selection set of every operation once, after gqlgen has validated
// it and before anything runs, and takes from that one walk all that the request's own checks
// need: whether it asks for the schema (refused when introspection is off), the first bad
// argument (refused: arguments.go), the query limits' measures (handed to the limits extension,
// installed after this one, with limits.Record), and the profile fields it selects (for
// perOperation's loaders). Walking every request's selection set is work on the hot path; one
// walk does it once.
type requestChecks struct {
	// noIntrospection refuses operations that ask for the schema.
	noIntrospection bool
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = requestChecks{}

func (requestChecks) ExtensionName() string { return "QuickphotosRequestChecks" }

func (requestChecks) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext refuses an operation that asks for the schema when introspection is
// off, then one with a bad argument; the limits come after (a bad `first` is the client's
// input, not a cost).
func (c requestChecks) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if c.noIntrospection {
		oc.DisableIntrospection = true
	}
	if oc.Operation == nil {
		return nil
	}
	s := walkSelection(oc.Operation, oc.Variables)
	oc.Stats.SetExtension(selectionKey, s)
	limits.Record(oc, &s.measures)
	if c.noIntrospection && s.asksForSchema {
		return errIntrospectionOff()
	}
	return s.badArgument
}

// selectionKey is where requestChecks keeps what it found, for perOperation.
const selectionKey = "QuickphotosSelection"

// selectionOf is what requestChecks found in oc's operation, or a walk of it now when it did
// not run (a handler without it).
func selectionOf(oc *graphql.OperationContext) *selectionFacts {
	if s, ok := oc.Stats.GetExtension(selectionKey).(*selectionFacts); ok {
		return s
	}
	return walkSelection(oc.Operation, oc.Variables)
}

// selectionFacts is what one walk of an operation's selection set finds.
type selectionFacts struct {
	measures      limits.Measures
	profile       profileSet
	asksForSchema bool
	// rootFields counts the operation's root fields as written: a field spread twice, or
	// asked for twice under one name, counts twice.
	rootFields int
	// badArgument is the first argument in document order that fails its check.
	badArgument *gqlerror.Error
}

// walkSelection walks op once (selection.Walker: each fragment once, wherever it is spread).
func walkSelection(op *ast.OperationDefinition, vars map[string]any) *selectionFacts {
	w := selection.Walker[selectionFacts]{
		Vars: vars,
		Combine: func(a, b selectionFacts) selectionFacts {
			a.measures = a.measures.Plus(b.measures)
			a.profile |= b.profile
			a.asksForSchema = a.asksForSchema || b.asksForSchema
			a.rootFields += b.rootFields
			if a.badArgument == nil {
				a.badArgument = b.badArgument
			}
			return a
		},
		Field: func(f *selection.Field, children selectionFacts) selectionFacts {
			s := children
			s.measures = limits.MeasureField(f, children.measures)
			s.profile |= profileFieldOf(f)
			s.asksForSchema = s.asksForSchema || asksForSchema(f)
			if f.Depth() == 0 {
				s.rootFields = 1
			}
			// A field comes before its children in the document, so its own error wins.
			if err := argumentError(op, f); err != nil {
				s.badArgument = err
			}
			return s
		},
	}
	s := w.Walk(op.SelectionSet)
	return &s
}

// profileSet is a set of domain.ProfileFields, bit i for domain.ProfileFields[i].
type profileSet uint32

// profileFields lists s's fields in domain.ProfileFields order, an empty, non-nil list when
// there are none.
func (s profileSet) profileFields() []domain.ProfileField {
	fields := []domain.ProfileField{}
	for i, f := range domain.ProfileFields {
		if s&(1<<i) != 0 {
			fields = append(fields, f)
		}
	}
	return fields
}
