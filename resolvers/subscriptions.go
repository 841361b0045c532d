package resolvers

import (
	"context"
	"math"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph/model"
	"github.com/quickphotos/quickphotos/live"
)

// syncPoke is the hint of a move of the caller's log head.
func syncPoke(c domain.Change) (*model.SyncPoke, bool, bool) {
	h := c.New.(domain.SyncHead)
	return &model.SyncPoke{Received: int(min(h.Seq, math.MaxInt32))}, true, false
}

// subscribe starts a subscription to topic and sends each change convert makes an event of
// (false skips it; last ends the subscription after it), until the subscription or the
// operation ends. A subscription the hub ended (it fell behind) records why with live.Ended.
func subscribe[T any](ctx context.Context, hub *live.Hub, topic live.Topic, convert func(domain.Change) (event *T, keep, last bool)) (<-chan *T, error) {
	if hub == nil {
		return nil, domain.Errorf(domain.Unavailable, "this server delivers no live updates")
	}
	sub, err := hub.Subscribe(ctx, topic)
	if err != nil {
		return nil, err
	}
	out := make(chan *T, 1)
	go func() {
		defer close(out)
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case c, ok := <-sub.Changes():
				if !ok {
					live.Ended(ctx, sub.Err())
					return
				}
				event, keep, last := convert(c)
				if keep {
					select {
					case out <- event:
					case <-ctx.Done():
						return
					}
				}
				if last {
					return
				}
			}
		}
	}()
	return out, nil
}

// photoChange is the event of a change to a photo or to one of its reactions.
func photoChange(c domain.Change) (*model.PhotoChange, bool, bool) {
	switch e := c.Entity().(type) {
	case domain.Reaction:
		kind := model.PhotoChangeKindReactionAdded
		if c.Op == domain.Removed {
			kind = model.PhotoChangeKindReactionRemoved
		}
		return &model.PhotoChange{Kind: kind, Reaction: &e}, c.Op != domain.Updated, false
	case domain.Photo:
		switch c.Op {
		case domain.Updated:
			return &model.PhotoChange{Kind: model.PhotoChangeKindUpdated, Photo: &e}, true, false
		case domain.Removed:
			return &model.PhotoChange{Kind: model.PhotoChangeKindDeleted}, true, true
		}
	}
	return nil, false, false
}

// userChange is the event of a change to a profile.
func userChange(c domain.Change) (*model.UserChange, bool, bool) {
	u, ok := c.Entity().(domain.User)
	if !ok {
		return nil, false, false
	}
	switch c.Op {
	case domain.Added:
		return &model.UserChange{Kind: model.UserChangeKindCreated, User: &u}, true, false
	case domain.Updated:
		return &model.UserChange{Kind: model.UserChangeKindUpdated, User: &u}, true, false
	}
	return &model.UserChange{Kind: model.UserChangeKindDeleted}, true, false
}

// newFollower is the event of a friendship in which the subscriber is followed.
func newFollower(c domain.Change) (*domain.Friendship, bool, bool) {
	f, ok := c.New.(domain.Friendship)
	return &f, ok && c.Op == domain.Added, false
}

// signedIn is the username of the caller, who must be signed in to have field.
func signedIn(ctx context.Context, field string) (string, error) {
	caller := domain.CallerFrom(ctx)
	if caller.Username == "" {
		return "", errNoSignedInCaller(field, caller)
	}
	return caller.Username, nil
}
