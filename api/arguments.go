package api

import (
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/selection"
)

// argumentError checks the arguments of a field an operation selects, however deeply nested,
// before any resolver runs (selection.CheckArguments says which, by the schema). Resolvers read
// their arguments too, but by then a sibling or a parent may already have sent its DynamoDB
// request, and an error in a non-null child such as `photos` nulls its parent:
// `{ user { photos(first: 500) } }` would read the profile and then answer null for the whole
// user. Refused here, the operation sends nothing and answers BAD_USER_INPUT at the argument's
// path. So is a cursor that no page of its list could have ended with (dynamo.CheckCursor):
// `mutation { followUser(…) { followed { photos(after: "x") } } }` would otherwise follow, then
// answer BAD_USER_INPUT, and a retry CONFLICT. The root fields of a mutation or a subscription
// are left to their resolvers, which authorise the caller before they look at the input.
func argumentError(op *ast.OperationDefinition, f *selection.Field) *gqlerror.Error {
	if f.Depth() == 0 && op.Operation != ast.Query {
		return nil
	}
	if err := selection.CheckArguments(f, dynamo.CheckCursor); err != nil {
		// The path is built only for an error, as every operation is checked here.
		return gqlerror.WrapPath(f.Path(), err)
	}
	return nil
}
