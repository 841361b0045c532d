package loaders

import (
	"cmp"
	"context"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/quickphotos/quickphotos/domain"
)

// User returns the profile of username, nil when there is none.
func (l *Loaders) User(ctx context.Context, username string) (*domain.User, error) {
	return load(ctx, l.users, username)
}

// Users returns the profiles of usernames in order, nil where there is none. Like load, it
// forgets every key that failed, so no error is served from the cache.
//
// It queues every key before it waits on any, in this goroutine: LoadMany starts a goroutine
// per key, and on a busy machine some of them started after the batch window had closed,
// splitting one list into several BatchGetItem requests.
func (l *Loaders) Users(ctx context.Context, usernames []string) ([]*domain.User, error) {
	thunks := make([]dataloader.Thunk[*domain.User], len(usernames))
	for i, u := range usernames {
		thunks[i] = l.users.Load(ctx, u)
	}
	users := make([]*domain.User, len(usernames))
	var first error
	for i, thunk := range thunks {
		u, err := thunk()
		if err != nil {
			l.users.Clear(ctx, usernames[i])
			first = cmp.Or(first, err)
			continue
		}
		users[i] = u
	}
	if first != nil {
		return nil, first
	}
	return users, nil
}

// Photo returns the photo with key k, nil when there is none.
func (l *Loaders) Photo(ctx context.Context, k domain.PhotoKey) (*domain.Photo, error) {
	return load(ctx, l.photos, k)
}

// ForgetUsers drops cached profiles, after a write changed them.
func (l *Loaders) ForgetUsers(ctx context.Context, usernames ...string) {
	for _, u := range usernames {
		l.users.Clear(ctx, u)
	}
}

// ForgetPhoto drops a cached photo, after a write changed it.
func (l *Loaders) ForgetPhoto(ctx context.Context, k domain.PhotoKey) {
	l.photos.Clear(ctx, k)
}

// PrimeUser caches a profile the caller already holds (a mutation's result).
func (l *Loaders) PrimeUser(ctx context.Context, u domain.User) {
	l.users.Clear(ctx, u.Username).Prime(ctx, u.Username, &u)
}

// PrimePhoto caches a photo the caller already holds.
func (l *Loaders) PrimePhoto(ctx context.Context, p domain.Photo) {
	l.photos.Clear(ctx, p.Key()).Prime(ctx, p.Key(), &p)
}

func (l *Loaders) batchUsers(fields []domain.ProfileField) dataloader.BatchFunc[string, *domain.User] {
	return batchGet(func(ctx context.Context, usernames []string) (map[string]domain.User, error) {
		return l.store.GetUsers(ctx, usernames, fields)
	})
}

func (l *Loaders) batchPhotos() dataloader.BatchFunc[domain.PhotoKey, *domain.Photo] {
	return batchGet(l.store.GetPhotos)
}

// batchGet turns a store read of many keys into a batch function: one result per key, in the
// keys' order, nil where the key has no entity, and the read's error for every key when it
// failed.
func batchGet[K comparable, V any](get func(context.Context, []K) (map[K]V, error)) dataloader.BatchFunc[K, *V] {
	return func(ctx context.Context, keys []K) []*dataloader.Result[*V] {
		found, err := get(ctx, keys)
		results := make([]*dataloader.Result[*V], len(keys))
		for i, k := range keys {
			switch v, ok := found[k]; {
			case err != nil:
				results[i] = &dataloader.Result[*V]{Error: err}
			case ok:
				results[i] = &dataloader.Result[*V]{Data: &v}
			default:
				results[i] = &dataloader.Result[*V]{}
			}
		}
		return results
	}
}
