package resolvers

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/loaders"
	"github.com/quickphotos/quickphotos/selection"
)

// selectedPage looks ahead into the selection of the field being resolved and returns the
// page request of its child field named child, when there is one with valid arguments, and
// that field. It lets a parent be read by the same Query as its children: a profile with its
// followers or photos, a photo with its reactions (access patterns 5, 7 and 9 in
// docs/design.md).
func selectedPage(ctx context.Context, child string, firstPageOnly bool) (domain.PageRequest, graphql.CollectedField, bool) {
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
		return p, f, true
	}
	return domain.PageRequest{}, graphql.CollectedField{}, false
}

// nodesSelect reports whether sel, a connection's selection set, selects field on its edges'
// nodes (`edges { node { field } }`, through fragments too): then each edge will load the
// entity that field names, and whoever holds the page can read them all at once.
func nodesSelect(ctx context.Context, sel ast.SelectionSet, field string) bool {
	oc := graphql.GetOperationContext(ctx)
	for _, edges := range graphql.CollectFields(oc, sel, nil) {
		if edges.Name != "edges" {
			continue
		}
		for _, node := range graphql.CollectFields(oc, edges.Selections, nil) {
			if node.Name != "node" {
				continue
			}
			for _, f := range graphql.CollectFields(oc, node.Selections, nil) {
				if f.Name == field && readsEntity(oc, f) {
					return true
				}
			}
		}
	}
	return false
}

// nodeKeys are the keys of the entity that field names on each of a page's items, key(item),
// when sel, the selection of the page's connection, selects that field; else none.
func nodeKeys[T any](ctx context.Context, sel ast.SelectionSet, field string, items []T, key func(*T) domain.NodeKey) []domain.NodeKey {
	if len(items) == 0 || !nodesSelect(ctx, sel, field) {
		return nil
	}
	keys := make([]domain.NodeKey, len(items))
	for i := range items {
		keys[i] = key(&items[i])
	}
	return keys
}

// prefetchFor reads at once the entity that field names on each of a page's items, key(item),
// when the connection being resolved selects that field and is the only one of its kind at its
// level (see loaders.Prefetch): the elements then find them cached instead of each waiting for
// the batch window.
func prefetchFor[T any](ctx context.Context, field string, items []T, key func(*T) domain.NodeKey) {
	if !readsAtOnce(ctx) {
		return
	}
	loaders.For(ctx).Prefetch(ctx, nodeKeys(ctx, graphql.GetFieldContext(ctx).Field.Selections, field, items, key)...)
}

// readsAtOnce reports whether the field being resolved may read its level's entities at once
// (loaders.Prefetch): its operation has one root field, and it is within no list.
func readsAtOnce(ctx context.Context) bool {
	return loaders.For(ctx).Prefetches() && !underList(ctx)
}

// underList reports whether the field being resolved is within an element of a list: then
// the same field resolves for each of the list's elements at once, and only the batch window
// gathers their entities into one request per level, where each reading its own at once would
// cost a request per element.
func underList(ctx context.Context) bool {
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		if fc.Index != nil {
			return true
		}
	}
	return false
}

// related is an entity that a field of the object being resolved reads: the photo of a
// reaction, the two users of a friendship.
type related struct {
	field string
	key   domain.NodeKey
}

// selectedKeys are the keys of those of fields that the field being resolved selects: an
// object's fields resolve concurrently, and would otherwise each wait for the batch window to
// read theirs, where the object's resolver can read them at once (loaders.Prefetch).
func selectedKeys(ctx context.Context, fields ...related) []domain.NodeKey {
	var keys []domain.NodeKey
	oc := graphql.GetOperationContext(ctx)
	for _, f := range graphql.CollectFieldsCtx(ctx, nil) {
		for _, r := range fields {
			if f.Name == r.field && readsEntity(oc, f) {
				keys = append(keys, r.key)
			}
		}
	}
	return keys
}
