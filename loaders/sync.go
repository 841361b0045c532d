package loaders

import (
	"context"

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
// dynamo.Store.SyncChanges), each upserted object read as it is now.
func (l *Loaders) Changes(ctx context.Context, user string, p domain.PageRequest) (SyncChanges, error) {
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
	nodes, err := l.Nodes(ctx, keys)
	if err != nil {
		return SyncChanges{}, err
	}
	out := SyncChanges{More: page.More, End: page.End}
	at := map[domain.NodeKey]int{}
	for i, e := range page.Entries {
		c := SyncChange{SyncEntry: e, Cursor: page.Cursors[i]}
		if e.Op == domain.Upserted {
			c.Node, nodes = nodes[0], nodes[1:]
			if c.Node == nil {
				c.Node, c.Op = nil, domain.Deleted
			}
		}
		// The page holds an object twice only for an unfollow and a new follow; the follow
		// found undone again since reads as a second deletion, which says nothing more.
		if j, ok := at[e.Object]; ok && out.Changes[j].Op == c.Op {
			out.Changes = append(out.Changes[:j], out.Changes[j+1:]...)
			for k, v := range at {
				if v > j {
					at[k] = v - 1
				}
			}
		}
		at[e.Object] = len(out.Changes)
		out.Changes = append(out.Changes, c)
	}
	return out, nil
}
