package api

import (
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/quickphotos/quickphotos/selection"
)

// validationRules are gqlparser's validation rules, with its SingleFieldSubscriptions rule
// replaced by singleFieldSubscriptions.
func validationRules() *rules.Rules {
	r := rules.NewDefaultRules()
	r.ReplaceRule(rules.SingleFieldSubscriptionsRule.Name, singleFieldSubscriptions)
	return r
}

// singleFieldSubscriptions is the GraphQL specification's "Single root field" rule: a
// subscription selects exactly one root field. The specification collects the root fields by
// response key, as execution does; gqlparser's own rule collects them by field name, so it lets
// one field under two aliases through (`a: userChanged(…) b: userChanged(…)`), which then fails
// at execution as an internal error. This one counts response keys, and keeps gqlparser's
// message and its check of introspection root fields.
func singleFieldSubscriptions(observers *core.Events, addError core.AddErrFunc) {
	observers.OnOperation(func(walker *core.Walker, op *ast.OperationDefinition) {
		if walker.Schema.Subscription == nil || op.Operation != ast.Subscription {
			return
		}
		name := "Anonymous Subscription"
		if op.Name != "" {
			name = "Subscription " + strconv.Quote(op.Name)
		}
		fields := rootFields(op.SelectionSet)
		if len(fields) > 1 {
			addError(core.Message("%s must select only one top level field.", name), core.At(fields[1].Position))
		}
		for _, f := range fields {
			if strings.HasPrefix(f.Name, "__") {
				addError(core.Message("%s must not select an introspection top level field.", name), core.At(f.Position))
			}
		}
	})
}

// rootFields are the fields a selection set selects at its own level, through fragments, one
// per response key (alias, or name), in document order.
func rootFields(set ast.SelectionSet) []*ast.Field {
	var fields []*ast.Field
	keys := map[string]bool{}
	selection.Walker[struct{}]{
		Shallow: true,
		Combine: func(struct{}, struct{}) struct{} { return struct{}{} },
		Field: func(f *selection.Field, _ struct{}) struct{} {
			key := f.Alias
			if key == "" {
				key = f.Name
			}
			if !keys[key] {
				keys[key] = true
				fields = append(fields, f.Field)
			}
			return struct{}{}
		},
	}.Walk(set)
	return fields
}
