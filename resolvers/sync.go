package resolvers

import (
	"context"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph/model"
	"github.com/quickphotos/quickphotos/loaders"
)

// changesConnection is the page of user's changes after after, for the user themself only.
func changesConnection(ctx context.Context, user string, first *int, after *string) (*model.SyncChangeConnection, error) {
	caller, err := signedIn(ctx, "changes")
	if err != nil {
		return nil, err
	}
	if caller != user {
		return nil, domain.Errorf(domain.Forbidden, "only %q may read their changes", user)
	}
	p, err := pageRequest(first, after)
	if err != nil {
		return nil, err
	}
	page, err := loaders.For(ctx).Changes(ctx, user, p, readsAtOnce(ctx))
	if err != nil {
		return nil, err
	}
	c := &model.SyncChangeConnection{
		Edges:    make([]model.SyncChangeEdge, len(page.Changes)),
		PageInfo: &model.PageInfo{HasNextPage: page.More},
		Cursor:   page.End,
	}
	for i, ch := range page.Changes {
		c.Edges[i] = model.SyncChangeEdge{Cursor: ch.Cursor, Node: &model.SyncChange{
			ObjectID:   domain.NodeID(ch.Object),
			ObjectType: domain.NodeTypeName(ch.Object),
			Operation:  ch.Op,
			Version:    ch.Version,
			Node:       ch.Node,
		}}
	}
	if n := len(c.Edges); n > 0 {
		c.PageInfo.StartCursor, c.PageInfo.EndCursor = &c.Edges[0].Cursor, &c.Edges[n-1].Cursor
	}
	return c, nil
}
