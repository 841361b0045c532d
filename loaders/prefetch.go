package loaders

import (
	"context"

	"github.com/quickphotos/quickphotos/domain"
)

// The entity loader waits its window (Options.Wait) for the keys of fields that resolve
// concurrently: gqlgen resolves an object's fields, and a list's elements, each in a goroutine
// of its own, and the window lets them share one BatchGetItem. Where a field already knows every
// key its level will ask for, the window is only latency, on every level of every operation.
// Prefetch reads those keys at once, and the fields' own loads are answered from the cache. A
// field knows that in two places, when its operation has one root field:
//   - the root field itself, which nothing else runs beside;
//   - a list's parent (a connection), for the entity each element's field names: a follower,
//     the user of a reaction. The elements read nothing else at that level.
// With several root fields, those of one level may share a batch, and only the window
// gathers them: Prefetch then leaves the keys to it.

// Prefetches reports whether Prefetch reads (the operation has one root field), so that a
// caller can skip gathering keys for nothing.
func (l *Loaders) Prefetches() bool { return l.opts.OneRootField }

// Prefetch reads the entities of keys not cached yet, in one batch and at once, and caches
// them, when the operation has one root field (Options.OneRootField); otherwise it does
// nothing. A failed read caches nothing: each field then loads its own key, and reports the
// error of that load.
func (l *Loaders) Prefetch(ctx context.Context, keys ...domain.NodeKey) {
	if !l.Prefetches() || len(keys) == 0 {
		return
	}
	missing := make([]domain.NodeKey, 0, len(keys))
	for _, k := range keys {
		if _, ok := l.cached.Get(ctx, k); !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return
	}
	found, err := l.readEntities(ctx, missing)
	if err != nil {
		return
	}
	for _, k := range missing {
		// Prime keeps what a concurrent load cached in the meantime; an entity that does not
		// exist is cached as nil, as the loader's own batch caches it.
		l.entities.Prime(ctx, k, found[k])
	}
}
