package resolvers

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/selection"
)

// selectedPage looks ahead into the selection of the field being resolved and returns the
// page request of its child field named child, when there is one with valid arguments. It lets
// a parent be read by the same Query as its children: a profile with its followers or photos,
// a photo with its reactions (access patterns 5, 7 and 9 in docs/design.md).
func selectedPage(ctx context.Context, child string, firstPageOnly bool) (domain.PageRequest, bool) {
	vars := graphql.GetOperationContext(ctx).Variables
	for _, f := range graphql.CollectFieldsCtx(ctx, nil) {
		if f.Name != child {
			continue
		}
		args := f.ArgumentMap(vars)
		p, err := selection.Page(args["first"], args["after"])
		if err != nil {
			continue // the child field reports its own error
		}
		if firstPageOnly && p.After != "" {
			continue
		}
		return p, true
	}
	return domain.PageRequest{}, false
}
