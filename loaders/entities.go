package loaders

import (
	"cmp"
	"context"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/quickphotos/quickphotos/domain"
)

// One loader reads every entity that has a key of its own — profiles, photos, reactions,
// friendships — so that the entities an operation asks for at one level, whatever their types,
// share one BatchGetItem: `nodes(ids:)` over three photos and two users is one request, and so
// is `{ user(…) photo(…) }`. Its cache is keyed by domain.NodeKey and holds pointers, nil where
// an entity does not exist.

// User returns the profile of username, nil when there is none.
func (l *Loaders) User(ctx context.Context, username string) (*domain.User, error) {
	return entity[*domain.User](l.Node(ctx, domain.UserKey{Username: username}))
}

// Users returns the profiles of usernames in order, nil where there is none.
func (l *Loaders) Users(ctx context.Context, usernames []string) ([]*domain.User, error) {
	nodes, err := l.Nodes(ctx, UserKeys(usernames))
	if err != nil {
		return nil, err
	}
	users := make([]*domain.User, len(nodes))
	for i, n := range nodes {
		if users[i], err = entity[*domain.User](n, nil); err != nil {
			return nil, err
		}
	}
	return users, nil
}

// UserKeys are the keys of the profiles of usernames, in order.
func UserKeys(usernames []string) []domain.NodeKey {
	keys := make([]domain.NodeKey, len(usernames))
	for i, u := range usernames {
		keys[i] = domain.UserKey{Username: u}
	}
	return keys
}

// Photo returns the photo with key k, nil when there is none.
func (l *Loaders) Photo(ctx context.Context, k domain.PhotoKey) (*domain.Photo, error) {
	return entity[*domain.Photo](l.Node(ctx, k))
}

// Node returns the entity k identifies (a *domain.User, *domain.Photo, *domain.Reaction or
// *domain.Friendship), nil when there is none.
func (l *Loaders) Node(ctx context.Context, k domain.NodeKey) (domain.Node, error) {
	return load(ctx, l.entities, k)
}

// Nodes returns the entities keys identify, in order, nil where there is none. Like load, it
// forgets every key that failed, so no error is served from the cache.
//
// It queues every key before it waits on any, in this goroutine: LoadMany starts a goroutine
// per key, and on a busy machine some of them started after the batch window had closed,
// splitting one list into several BatchGetItem requests.
func (l *Loaders) Nodes(ctx context.Context, keys []domain.NodeKey) ([]domain.Node, error) {
	thunks := make([]dataloader.Thunk[domain.Node], len(keys))
	for i, k := range keys {
		thunks[i] = l.entities.Load(ctx, k)
	}
	nodes := make([]domain.Node, len(keys))
	var first error
	for i, thunk := range thunks {
		n, err := thunk()
		if err != nil {
			l.entities.Clear(ctx, keys[i])
			first = cmp.Or(first, err)
			continue
		}
		nodes[i] = n
	}
	if first != nil {
		return nil, first
	}
	return nodes, nil
}

// entity returns n as a T, nil when there is none. The loader's key says the type of its
// value, so another type is a bug.
func entity[T domain.Node](n domain.Node, err error) (T, error) {
	var none T
	if err != nil || n == nil {
		return none, err
	}
	v, ok := n.(T)
	if !ok {
		return none, domain.Errorf(domain.Internal, "loaders: %T loaded where %T was expected", n, none)
	}
	return v, nil
}

// ForgetUsers drops cached profiles, after a write changed them.
func (l *Loaders) ForgetUsers(ctx context.Context, usernames ...string) {
	for _, u := range usernames {
		l.entities.Clear(ctx, domain.UserKey{Username: u})
	}
}

// ForgetPhoto drops a cached photo, after a write changed it.
func (l *Loaders) ForgetPhoto(ctx context.Context, k domain.PhotoKey) {
	l.entities.Clear(ctx, k)
}

// PrimeUser caches a profile the caller already holds (a mutation's result), in place of any
// cached before.
func (l *Loaders) PrimeUser(ctx context.Context, u domain.User) {
	l.entities.Clear(ctx, u.NodeKey()).Prime(ctx, u.NodeKey(), &u)
}

// PrimePhoto caches a photo the caller already holds, in place of any cached before.
func (l *Loaders) PrimePhoto(ctx context.Context, p domain.Photo) {
	l.entities.Clear(ctx, p.NodeKey()).Prime(ctx, p.NodeKey(), &p)
}

// prime caches an entity a read brought along (a Query's page), unless one is cached already.
func (l *Loaders) prime(ctx context.Context, n domain.Node) {
	l.entities.Prime(ctx, n.NodeKey(), n)
}

// batchEntities reads a batch of keys of any types with one BatchGetItem per 100 keys. The
// observer hears the keys of each type as a batch of the loader of that name (users, photos,
// reactions, friendships), as when each type had a loader of its own.
func (l *Loaders) batchEntities() dataloader.BatchFunc[domain.NodeKey, domain.Node] {
	return func(ctx context.Context, keys []domain.NodeKey) []*dataloader.Result[domain.Node] {
		found, err := l.readEntities(ctx, keys)
		results := make([]*dataloader.Result[domain.Node], len(keys))
		for i, k := range keys {
			switch v, ok := found[k]; {
			case err != nil:
				results[i] = &dataloader.Result[domain.Node]{Error: err}
			case ok:
				results[i] = &dataloader.Result[domain.Node]{Data: v}
			default:
				results[i] = &dataloader.Result[domain.Node]{}
			}
		}
		return results
	}
}

// readEntities reads keys with one BatchGetItem per 100 keys (the profiles' fields narrowed to
// those the operation reads), telling the observer of the batch.
func (l *Loaders) readEntities(ctx context.Context, keys []domain.NodeKey) (map[domain.NodeKey]domain.Node, error) {
	if l.opts.Observer != nil {
		observeKinds(l.opts.Observer, keys)
	}
	return l.store.GetNodes(ctx, keys, l.opts.ProfileFields)
}

// loaderNames name the batches of each type for the observer.
var loaderNames = map[string]string{
	domain.NodeUser: "users", domain.NodePhoto: "photos",
	domain.NodeReaction: "reactions", domain.NodeFriendship: "friendships",
}

func observeKinds(o BatchObserver, keys []domain.NodeKey) {
	counts := map[string]int{}
	for _, k := range keys {
		counts[domain.NodeTypeName(k)]++
	}
	for _, kind := range []string{domain.NodeUser, domain.NodePhoto, domain.NodeReaction, domain.NodeFriendship} {
		if n := counts[kind]; n > 0 {
			o.ObserveBatch(loaderNames[kind], n)
		}
	}
}
