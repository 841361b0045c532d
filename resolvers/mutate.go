package resolvers

import (
	"context"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/loaders"
)

// mutation is what every mutation does, in this order: the caller must be allowed to act as
// the user the mutation acts as; its input becomes a valid, canonical argument (or an Invalid
// error) before anything is written; the store writes; and the operation's loaders learn
// what changed, so that the fields selected on the result read the new state. With a client
// mutation id, the write is replay-safe (replay.go).
type mutation[In, Out any] struct {
	actAs  string
	input  func() (In, error)
	write  func(context.Context, In) (Out, error)
	loaded func(context.Context, *loaders.Loaders, In, Out)
	// replay holds the client mutation id and what a replay needs (see replayable).
	replay replayable
}

func (m mutation[In, Out]) run(ctx context.Context) (*Out, error) {
	if err := domain.CallerFrom(ctx).MayActAs(m.actAs); err != nil {
		return nil, err
	}
	if m.replay.id != nil {
		if err := domain.ValidateClientMutationID("clientMutationId", *m.replay.id); err != nil {
			return nil, err
		}
	}
	in, err := m.input()
	if err != nil {
		return nil, err
	}
	if m.replay.id != nil {
		return runReplayable(ctx, m, in)
	}
	out, err := m.write(ctx, in)
	if err != nil {
		return nil, err
	}
	m.loaded(ctx, loaders.For(ctx), in, out)
	return &out, nil
}

// validated is a mutation input that is valid once validate says so.
func validated[In any](in In, validate ...func(In) error) func() (In, error) {
	return func() (In, error) {
		for _, v := range validate {
			if err := v(in); err != nil {
				return in, err
			}
		}
		return in, nil
	}
}

// primeUser tells the loaders a mutation's resulting profile.
func primeUser[In any](ctx context.Context, l *loaders.Loaders, _ In, u domain.User) {
	l.PrimeUser(ctx, u)
}

// forgetReactedPhoto makes the loaders read again the photo a reaction changed the counters of,
// at once when the answer selects it.
func forgetReactedPhoto(ctx context.Context, l *loaders.Loaders, k domain.ReactionKey, _ domain.Reaction) {
	l.ForgetPhoto(ctx, k.Photo)
	l.Prefetch(ctx, selectedKeys(ctx, related{"photo", k.Photo})...)
}

// forgetFriends makes the loaders read again the two profiles a friendship changed the
// counters of, at once, in one batch, those the answer selects.
func forgetFriends(ctx context.Context, l *loaders.Loaders, k domain.FriendshipKey, _ domain.Friendship) {
	l.ForgetUsers(ctx, k.Follower, k.Followed)
	l.Prefetch(ctx, selectedKeys(ctx, related{"follower", domain.UserKey{Username: k.Follower}}, related{"followed", domain.UserKey{Username: k.Followed}})...)
}
