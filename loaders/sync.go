package loaders

import (
	"context"
	"slices"

	"github.com/quickphotos/quickphotos/domain"
)

// SyncChange is an entry of a page of changes with its object as it is now: nil when the
// entry is a deletion, or an upsert of an object deleted since (then reported as a deletion).
type SyncChange struct {
	domain.SyncEntry
	Node   domain.Node
	Cursor string
}

// SyncChanges is a page of user's changes with their objects, read in one wave of the entity
// loader.
type SyncChanges struct {
	Changes []SyncChange
	More    bool
	End     string
}

// Changes returns a page of the changes to user's sync scope after p.After (see
// dynamo.Store.SyncChanges), each upserted object read as it is now: at once when alone says
// no other field of the operation's level can ask for entities (see Prefetch).
func (l *Loaders) Changes(ctx context.Context, user string, p domain.PageRequest, alone bool) (SyncChanges, error) {
	page, err := load(ctx, l.syncPages.get(l), pageKey[string]{user, p.First, p.After})
	if err != nil {
		return SyncChanges{}, err
	}
	var keys []domain.NodeKey
	for _, e := range page.Entries {
		if e.Op == domain.Upserted {
			keys = append(keys, e.Object)
		}
	}
	if alone {
		l.Prefetch(ctx, keys...)
	}
	nodes, err := l.Nodes(ctx, keys)
	if err != nil {
		return SyncChanges{}, err
	}
	changes := make([]SyncChange, len(page.Entries))
	for i, e := range page.Entries {
		changes[i] = SyncChange{SyncEntry: e, Cursor: page.Cursors[i]}
		if e.Op == domain.Upserted {
			changes[i].Node, nodes = nodes[0], nodes[1:]
			if changes[i].Node == nil {
				changes[i].Op = domain.Deleted
			}
		}
	}
	// The page holds an object twice only for an unfollow and a new follow; a follow found
	// undone again since reads as a second deletion, which says nothing more: the first goes.
	out := SyncChanges{More: page.More, End: page.End}
	for i, c := range changes {
		if !slices.ContainsFunc(changes[i+1:], func(d SyncChange) bool { return d.Object == c.Object && d.Op == c.Op }) {
			out.Changes = append(out.Changes, c)
		}
	}
	return out, nil
}
