package loaders

import (
	"cmp"
	"context"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// DefaultWait is how long the entity loader gathers keys before it sends a batch, unless
// Options.Wait says otherwise. GraphQL resolves the siblings of a list concurrently; a few
// milliseconds lets all of them join one request, where no field read their keys at once
// (Prefetch). The list loaders never wait: see pages.
const DefaultWait = 5 * time.Millisecond

// Options tunes a set of loaders.
type Options struct {
	// ProfileFields, when not nil, are the only optional profile fields the operation reads:
	// BatchGetItem asks DynamoDB for just those (and the counters), saving transfer.
	ProfileFields []domain.ProfileField
	// Observer, when set, is told the size of every batch.
	Observer BatchObserver
	// Wait is how long the entity loader gathers keys before it sends a batch; zero means
	// DefaultWait. A longer wait groups more reliably on a busy machine, at the cost of
	// latency on every level that waits for it (see Prefetch).
	Wait time.Duration
	// SyncRetention is how long the change logs keep their entries: a cursor older is
	// refused. Zero means domain.DefaultSyncRetention.
	SyncRetention time.Duration
	// OneRootField says the operation has a single root field, so that nothing runs beside
	// it: Prefetch may then read at once what a field knows its level will ask for.
	OneRootField bool
}

// wait is the batch window of o.
func (o Options) wait() time.Duration {
	if o.Wait > 0 {
		return o.Wait
	}
	return DefaultWait
}

// BatchObserver is told the size of every batch a loader sends, so operators can see how well
// an operation's reads are grouped.
type BatchObserver interface {
	ObserveBatch(loader string, keys int)
}

// observed reports each batch of f, under name, to o.
func observed[K comparable, V any](o BatchObserver, name string, f dataloader.BatchFunc[K, V]) dataloader.BatchFunc[K, V] {
	if o == nil {
		return f
	}
	return func(ctx context.Context, keys []K) []*dataloader.Result[V] {
		o.ObserveBatch(name, len(keys))
		return f(ctx, keys)
	}
}

// Loaders are the dataloaders of one GraphQL operation.
type Loaders struct {
	store *dynamo.Store
	opts  Options

	// entities reads profiles, photos, reactions and friendships by key, all of them in one
	// BatchGetItem per wave (see entities.go).
	entities *dataloader.Loader[domain.NodeKey, domain.Node]
	// cached is the entity loader's cache, which Prefetch reads.
	cached *dataloader.InMemoryCache[domain.NodeKey, domain.Node]
	// The list loaders are made when first used: an operation reads a list or two, and the
	// others' loaders should cost it nothing.
	photoPages     pageLoader[string, dynamo.PhotoPage]
	followerPages  pageLoader[string, dynamo.FollowersPage]
	followingPages pageLoader[string, domain.Page[domain.Friendship]]
	reactionPages  pageLoader[domain.PhotoKey, dynamo.PhotoReactionsPage]
	feedPages      pageLoader[string, dynamo.FeedPage]
	userReactions  pageLoader[string, domain.Page[domain.Reaction]]
	syncPages      pageLoader[string, domain.SyncPage]
}

// pageKey names one page of one list: whose list, and which page.
type pageKey[K comparable] struct {
	Of    K
	First int
	After string
}

// inputBuffer is how many keys a loader's batch buffers on their way to it. dataloader's
// default, 1000, allocated an 8 KB channel for every batch of every operation, a tenth of a
// profile read's memory; the batch reads its keys as they come, so a Load past the buffer
// waits a moment, no more.
const inputBuffer = 16

// New returns the loaders of one operation over store.
func New(store *dynamo.Store, opts Options) *Loaders {
	l := &Loaders{store: store, opts: opts, cached: dataloader.NewCache[domain.NodeKey, domain.Node]()}
	l.entities = dataloader.NewBatchedLoader(l.batchEntities(), dataloader.WithCache[domain.NodeKey, domain.Node](l.cached),
		dataloader.WithWait[domain.NodeKey, domain.Node](opts.wait()), dataloader.WithBatchCapacity[domain.NodeKey, domain.Node](100),
		dataloader.WithInputCapacity[domain.NodeKey, domain.Node](inputBuffer))
	// The queries capture nothing, so that setting them allocates nothing.
	l.photoPages = pageLoader[string, dynamo.PhotoPage]{name: "photoPages",
		query: func(l *Loaders, ctx context.Context, owner string, p domain.PageRequest) (dynamo.PhotoPage, error) {
			return l.store.ListPhotos(ctx, owner, p)
		}}
	l.followerPages = pageLoader[string, dynamo.FollowersPage]{name: "followerPages",
		query: func(l *Loaders, ctx context.Context, user string, p domain.PageRequest) (dynamo.FollowersPage, error) {
			return l.store.Followers(ctx, user, p)
		}}
	l.followingPages = pageLoader[string, domain.Page[domain.Friendship]]{name: "followingPages",
		query: func(l *Loaders, ctx context.Context, user string, p domain.PageRequest) (domain.Page[domain.Friendship], error) {
			return l.store.Following(ctx, user, p)
		}}
	l.reactionPages = pageLoader[domain.PhotoKey, dynamo.PhotoReactionsPage]{name: "photoReactionPages",
		query: func(l *Loaders, ctx context.Context, k domain.PhotoKey, p domain.PageRequest) (dynamo.PhotoReactionsPage, error) {
			return l.store.PhotoReactions(ctx, k, p)
		}}
	l.userReactions = pageLoader[string, domain.Page[domain.Reaction]]{name: "userReactionPages",
		query: func(l *Loaders, ctx context.Context, user string, p domain.PageRequest) (domain.Page[domain.Reaction], error) {
			return l.store.UserReactions(ctx, user, p)
		}}
	l.feedPages = pageLoader[string, dynamo.FeedPage]{name: "feedPages",
		query: func(l *Loaders, ctx context.Context, reader string, p domain.PageRequest) (dynamo.FeedPage, error) {
			return l.store.Feed(ctx, reader, p)
		}}
	l.syncPages = pageLoader[string, domain.SyncPage]{name: "syncPages",
		query: func(l *Loaders, ctx context.Context, user string, p domain.PageRequest) (domain.SyncPage, error) {
			return l.store.SyncChanges(ctx, user, p.After, p.First, cmp.Or(l.opts.SyncRetention, domain.DefaultSyncRetention))
		}}
	return l
}

// Renewed returns new, empty loaders with l's store and options: a subscription reads with
// them for each event, so that nothing cached for an earlier event is served stale.
func (l *Loaders) Renewed() *Loaders { return New(l.store, l.opts) }

type ctxKey struct{}

// With returns ctx carrying l.
func With(ctx context.Context, l *Loaders) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// For returns the loaders of the operation running in ctx. It panics when there are none:
// that is a wiring bug, not a runtime condition.
func For(ctx context.Context) *Loaders {
	l, ok := ctx.Value(ctxKey{}).(*Loaders)
	if !ok {
		panic("loaders: no loaders in context; wrap the operation with loaders.With")
	}
	return l
}

// load runs one Load and forgets the key when it failed, so an error (a cancelled request,
// a throttled batch) is never served from the cache.
func load[K comparable, V any](ctx context.Context, l *dataloader.Loader[K, V], key K) (V, error) {
	v, err := l.Load(ctx, key)()
	if err != nil {
		l.Clear(ctx, key)
	}
	return v, err
}
