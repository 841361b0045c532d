package resolvers

import (
	"context"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph/model"
	"github.com/quickphotos/quickphotos/loaders"
	"github.com/quickphotos/quickphotos/selection"
)

// pageRequest reads a connection's arguments with the reader the request's checks use
// (selection.Page): first has a schema default, so nil means the client sent an explicit null.
func pageRequest(first *int, after *string) (domain.PageRequest, error) {
	return selection.Page(first, after)
}

func pageInfo[T any](p domain.Page[T]) *model.PageInfo {
	info := &model.PageInfo{HasNextPage: p.HasNextPage}
	if end := p.EndCursor(); end != "" {
		info.EndCursor = &end
	}
	if len(p.Cursors) > 0 {
		start := p.Cursors[0]
		info.StartCursor = &start
	}
	return info
}

func photoConnection(p domain.Page[domain.Photo]) *model.PhotoConnection {
	c := &model.PhotoConnection{Edges: make([]model.PhotoEdge, len(p.Items)), PageInfo: pageInfo(p)}
	for i := range p.Items {
		c.Edges[i] = model.PhotoEdge{Cursor: p.Cursors[i], Node: &p.Items[i]}
	}
	return c
}

func friendshipConnection(p domain.Page[domain.Friendship], total int) *model.FriendshipConnection {
	c := &model.FriendshipConnection{Edges: make([]model.FriendshipEdge, len(p.Items)), PageInfo: pageInfo(p), TotalCount: total}
	for i := range p.Items {
		c.Edges[i] = model.FriendshipEdge{Cursor: p.Cursors[i], Node: &p.Items[i]}
	}
	return c
}

func reactionConnection(p domain.Page[domain.Reaction], total *int) *model.ReactionConnection {
	c := &model.ReactionConnection{Edges: make([]model.ReactionEdge, len(p.Items)), PageInfo: pageInfo(p), TotalCount: total}
	for i := range p.Items {
		c.Edges[i] = model.ReactionEdge{Cursor: p.Cursors[i], Node: &p.Items[i]}
	}
	return c
}

// feedConnection is a page of reader's feed.
func feedConnection(ctx context.Context, reader string, first *int, after *string) (*model.PhotoConnection, error) {
	p, err := pageRequest(first, after)
	if err != nil {
		return nil, err
	}
	page, err := loaders.For(ctx).Feed(ctx, reader, p, readsAtOnce(ctx))
	if err != nil {
		return nil, err
	}
	prefetchFor(ctx, "owner", page.Items, func(p *domain.Photo) domain.NodeKey { return domain.UserKey{Username: p.Owner} })
	return photoConnection(page), nil
}
