package loaders

import (
	"context"
	"sync"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// pages returns a loader of list pages. DynamoDB has no batched Query, so a page costs one
// Query however it is grouped: the loader sends each page at once (a batch of one, no window,
// which would only add latency), and its cache makes two fields asking for the same page share
// one request.
func pages[K comparable, V any](name string, opts Options, query func(context.Context, K, domain.PageRequest) (V, error)) *dataloader.Loader[pageKey[K], V] {
	batch := func(ctx context.Context, keys []pageKey[K]) []*dataloader.Result[V] {
		results := make([]*dataloader.Result[V], len(keys))
		for i, k := range keys {
			v, err := query(ctx, k.Of, domain.PageRequest{First: k.First, After: k.After})
			results[i] = &dataloader.Result[V]{Data: v, Error: err}
		}
		return results
	}
	return dataloader.NewBatchedLoader(observed(opts.Observer, name, batch),
		dataloader.WithBatchCapacity[pageKey[K], V](1), dataloader.WithInputCapacity[pageKey[K], V](1))
}

// pageLoader is a loader of list pages (pages), made on its first use. Its fields are set
// before the operation starts.
type pageLoader[K comparable, V any] struct {
	name  string
	query func(*Loaders, context.Context, K, domain.PageRequest) (V, error)

	once   sync.Once
	loader *dataloader.Loader[pageKey[K], V]
}

// get returns p's loader, made with l's store and options the first time.
func (p *pageLoader[K, V]) get(l *Loaders) *dataloader.Loader[pageKey[K], V] {
	p.once.Do(func() {
		p.loader = pages(p.name, l.opts, func(ctx context.Context, k K, r domain.PageRequest) (V, error) {
			return p.query(l, ctx, k, r)
		})
	})
	return p.loader
}

// Photos returns a page of owner's photos, most recent first. The photos, and the owner's
// profile when the page reached it, prime the entity loader.
func (l *Loaders) Photos(ctx context.Context, owner string, p domain.PageRequest) (dynamo.PhotoPage, error) {
	page, err := load(ctx, l.photoPages.get(l), pageKey[string]{owner, p.First, p.After})
	if err != nil {
		return page, err
	}
	for _, photo := range page.Items {
		l.prime(ctx, &photo)
	}
	if page.Owner != nil {
		l.prime(ctx, page.Owner)
	}
	return page, nil
}

// Followers returns the profile of username (nil when absent, on first pages only) and a
// page of its followers. The profile primes the entity loader.
func (l *Loaders) Followers(ctx context.Context, username string, p domain.PageRequest) (dynamo.FollowersPage, error) {
	page, err := load(ctx, l.followerPages.get(l), pageKey[string]{username, p.First, p.After})
	if err != nil {
		return page, err
	}
	if page.User != nil {
		l.prime(ctx, page.User)
	}
	return page, nil
}

// Following returns a page of the friendships in which username follows someone.
func (l *Loaders) Following(ctx context.Context, username string, p domain.PageRequest) (domain.Page[domain.Friendship], error) {
	return load(ctx, l.followingPages.get(l), pageKey[string]{username, p.First, p.After})
}

// PhotoReactions returns the photo (on first pages) and a page of its reactions. The photo
// primes the entity loader.
func (l *Loaders) PhotoReactions(ctx context.Context, k domain.PhotoKey, p domain.PageRequest) (dynamo.PhotoReactionsPage, error) {
	page, err := load(ctx, l.reactionPages.get(l), pageKey[domain.PhotoKey]{k, p.First, p.After})
	if err != nil {
		return page, err
	}
	if page.Photo != nil {
		l.prime(ctx, page.Photo)
	}
	return page, nil
}

// UserReactions returns a page of the reactions username gave.
func (l *Loaders) UserReactions(ctx context.Context, username string, p domain.PageRequest) (domain.Page[domain.Reaction], error) {
	return load(ctx, l.userReactions.get(l), pageKey[string]{username, p.First, p.After})
}

// Feed returns a page of reader's feed with its photos, in feed order. A photo deleted since
// its entry was written (the feed catches up a moment later) is left out of the page, which
// still ends at the last entry read (domain.Page.End): the next page goes on past it, also
// when the page kept no photo. Alone says no other field of the operation's level can ask for
// entities: the page's photos are then read at once (see Prefetch).
func (l *Loaders) Feed(ctx context.Context, reader string, p domain.PageRequest, alone bool) (domain.Page[domain.Photo], error) {
	entries, err := load(ctx, l.feedPages.get(l), pageKey[string]{reader, p.First, p.After})
	if err != nil {
		return domain.Page[domain.Photo]{}, err
	}
	for _, photo := range entries.Photos {
		l.prime(ctx, &photo)
	}
	keys := make([]domain.NodeKey, len(entries.Items))
	for i, e := range entries.Items {
		keys[i] = e.Photo
	}
	if alone {
		l.Prefetch(ctx, keys...)
	}
	photos, err := l.Nodes(ctx, keys)
	if err != nil {
		return domain.Page[domain.Photo]{}, err
	}
	page := domain.Page[domain.Photo]{HasNextPage: entries.HasNextPage, End: entries.EndCursor()}
	for i, n := range photos {
		photo, err := entity[*domain.Photo](n, nil)
		if err != nil {
			return domain.Page[domain.Photo]{}, err
		}
		if photo != nil {
			page.Items = append(page.Items, *photo)
			page.Cursors = append(page.Cursors, entries.Cursors[i])
		}
	}
	return page, nil
}
