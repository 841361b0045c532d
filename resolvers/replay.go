package resolvers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/loaders"
)

// Replay-safe mutations (see domain.MutationMark and the schema's Mutation). A mutation sent
// with a client mutation id first looks for its mark: found, it answers from it (or refuses
// another input with the same id); not found, it writes with the mark in its context, so the
// store commits the mark in the mutation's own transaction. A mutation refused for a reason of
// state leaves the mark alone, with its error, so that its replay is refused the same way even
// when the state has changed since. A write whose transaction failed on the mark lost a race
// with a replay of itself, and answers from the winner's mark; so does a refusal whose own
// mark could not be written while the winner's is there. A replay of a photo deletion
// in steps, whose mark commits with the first step, finishes it before answering.

// Marks is what replays ask of the store.
type Marks interface {
	GetMutationMark(ctx context.Context, caller, id string) (*domain.MutationOutcome, error)
	PutMutationMark(ctx context.Context, m *domain.MutationMark, o domain.MutationOutcome) error
	// GetNode reads an entity strongly consistent: a replay may follow its commit at once.
	GetNode(ctx context.Context, k domain.NodeKey) (domain.Node, error)
	// FinishPhotoDeletion finishes a deletion in steps whose first step committed a mark,
	// if the photo still carries that deletion's id.
	FinishPhotoDeletion(ctx context.Context, key domain.PhotoKey, deletion string) error
}

// answerKind says what a mutation's answer is, and so what its mark keeps.
type answerKind uint8

const (
	// answerStored: the answer is a stored object, read again by its key on a replay (and
	// kept in the mark as returned, the answer once it is gone).
	answerStored answerKind = iota
	// answerRemoved: the answer is the object the mutation removed, kept in the mark.
	answerRemoved
	// answerData: the answer is no stored object (createPhotoUpload's form), kept in the
	// mark as JSON.
	answerData
)

// replayable is a mutation's client mutation id (nil without one) and what its replays need.
type replayable struct {
	id        *string
	marks     Marks
	retention time.Duration
	answer    answerKind
	// refused, when set, is the error a replay of a refusal answers: the recorded one with
	// what the client needs now (updateUser's Conflict: the profile as it is).
	refused func(context.Context, *domain.Error) error
}

// withRefused is r whose replayed refusals go through refused.
func (r replayable) withRefused(refused func(context.Context, *domain.Error) error) replayable {
	r.refused = refused
	return r
}

// replayable is the replay support of a mutation sent with id (a nil id: none).
func (r *Resolver) replayable(id *string, answer answerKind) replayable {
	retention := r.MutationRetention
	if retention <= 0 {
		retention = domain.DefaultMutationRetention
	}
	return replayable{id: id, marks: r.Store, retention: retention, answer: answer}
}

// runReplayable runs m, whose input in is valid, with its client mutation id.
func runReplayable[In, Out any](ctx context.Context, m mutation[In, Out], in In) (*Out, error) {
	name, hash, err := inputHash(ctx)
	if err != nil {
		return nil, domain.Wrap(domain.Internal, err, "hashing the input")
	}
	mark := &domain.MutationMark{
		Caller: m.actAs, ID: *m.replay.id, Mutation: name, InputHash: hash, Retention: m.replay.retention,
	}
	replay := func() (*Out, error) { return replayFromMark(ctx, m, mark, in) }
	if o, err := m.replay.marks.GetMutationMark(ctx, mark.Caller, mark.ID); err != nil || o != nil {
		if err != nil {
			return nil, err
		}
		return answerFrom(ctx, m, mark, in, o)
	}
	out, err := m.write(domain.WithMutationMark(ctx, mark), in)
	if errors.Is(err, domain.ErrMutationMarked) {
		return replay()
	}
	if err != nil {
		if refusal := stateRefusal(err); refusal != nil {
			perr := m.replay.marks.PutMutationMark(ctx, mark, domain.MutationOutcome{Err: refusal})
			switch {
			case errors.Is(perr, domain.ErrMutationMarked):
				return replay()
			case perr != nil:
				// The refusal may be a racing send's success (DynamoDB fails this PutItem with
				// TransactionConflict while that send's transaction commits its mark): answer
				// from its mark if there is one. With none (the store busy), the refusal stays
				// as it is: the mutation wrote nothing, so a replay runs it again.
				if o, gerr := m.replay.marks.GetMutationMark(ctx, mark.Caller, mark.ID); gerr == nil && o != nil {
					return answerFrom(ctx, m, mark, in, o)
				}
			}
		}
		return nil, err
	}
	if !mark.Written {
		// The writes carried no mark (an answer that is no stored object, a delete another
		// call finished, an update that changed nothing): the mark goes alone, after them.
		// These writes are safe to run twice (another upload form, which expires unused; a
		// delete already done), so a mark that cannot be written does not fail the mutation.
		o, err := outcomeOf(m.replay.answer, out)
		if err != nil {
			return nil, domain.Wrap(domain.Internal, err, "recording the outcome")
		}
		if err := m.replay.marks.PutMutationMark(ctx, mark, o); errors.Is(err, domain.ErrMutationMarked) {
			return replay()
		}
	}
	m.loaded(ctx, loaders.For(ctx), in, out)
	return &out, nil
}

// replayFromMark answers from the mark a racing replay committed.
func replayFromMark[In, Out any](ctx context.Context, m mutation[In, Out], mark *domain.MutationMark, in In) (*Out, error) {
	o, err := m.replay.marks.GetMutationMark(ctx, mark.Caller, mark.ID)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, domain.Errorf(domain.Unavailable, "clientMutationId %q: a racing mutation's mark expired meanwhile; retry", mark.ID)
	}
	return answerFrom(ctx, m, mark, in, o)
}

// answerFrom answers a mutation from the mark o of its client mutation id.
func answerFrom[In, Out any](ctx context.Context, m mutation[In, Out], mark *domain.MutationMark, in In, o *domain.MutationOutcome) (*Out, error) {
	if o.Mutation != mark.Mutation || o.InputHash != mark.InputHash {
		return nil, domain.Errorf(domain.Invalid, "clientMutationId %q was used for %s with another input: use a new id for a new mutation", mark.ID, o.Mutation)
	}
	var out Out
	switch {
	case o.Err != nil && m.replay.refused != nil:
		return nil, m.replay.refused(ctx, o.Err)
	case o.Err != nil:
		return nil, o.Err
	case o.Removed != nil:
		v, ok := o.Removed.(Out)
		if !ok {
			return nil, domain.Errorf(domain.Internal, "the mark of %q holds a %T", mark.ID, o.Removed)
		}
		if err := finishDeletion(ctx, m.replay.marks, mark, o); err != nil {
			return nil, err
		}
		out = v
	case o.Answer != nil:
		if err := json.Unmarshal(o.Answer, &out); err != nil {
			return nil, domain.Wrap(domain.Internal, err, "reading the mark's answer")
		}
	case o.Node != nil:
		n, err := m.replay.marks.GetNode(ctx, o.Node)
		if err != nil {
			return nil, err
		}
		if n == nil {
			// Gone since (a follow undone): the mutation did succeed, so its replay answers
			// with the object as it returned it.
			v, ok := o.Returned.(Out)
			if !ok {
				return nil, domain.Errorf(domain.NotFound, "the %s this mutation returned no longer exists", domain.NodeTypeName(o.Node))
			}
			out = v
			break
		}
		v, ok := any(n).(*Out)
		if !ok {
			return nil, domain.Errorf(domain.Internal, "the mark of %q names a %T", mark.ID, n)
		}
		out = *v
	default:
		return nil, domain.Errorf(domain.Internal, "the mark of %q records no outcome", mark.ID)
	}
	m.loaded(ctx, loaders.For(ctx), in, out)
	return &out, nil
}

// finishDeletion finishes the photo deletion in steps mark o recorded, if any: the mark
// commits with the deletion's first step, so the mutation that wrote it may have stopped
// before the last (a crash, a timeout), and its replay answers "deleted" only once it is.
// Only a photo still carrying that deletion's id is touched: one at the same key since is
// another photo.
func finishDeletion(ctx context.Context, marks Marks, mark *domain.MutationMark, o *domain.MutationOutcome) error {
	if o.Deletion == "" {
		return nil
	}
	p, ok := o.Removed.(domain.Photo)
	if !ok {
		return domain.Errorf(domain.Internal, "the mark of %q records a deletion of a %T", mark.ID, o.Removed)
	}
	return marks.FinishPhotoDeletion(ctx, p.Key(), o.Deletion)
}

// outcomeOf is the outcome a mark records for out.
func outcomeOf(kind answerKind, out any) (domain.MutationOutcome, error) {
	switch kind {
	case answerData:
		b, err := json.Marshal(out)
		return domain.MutationOutcome{Answer: b}, err
	case answerRemoved:
		n, ok := out.(domain.Node)
		if !ok {
			return domain.MutationOutcome{}, fmt.Errorf("a removed %T has no id", out)
		}
		return domain.MutationOutcome{Removed: n}, nil
	}
	n, ok := out.(domain.Node)
	if !ok {
		return domain.MutationOutcome{}, fmt.Errorf("a %T has no id", out)
	}
	return domain.MutationOutcome{Node: n.NodeKey(), Returned: n}, nil
}

// stateRefusal is err when it refuses a mutation for a reason of the data's state (the
// username taken, a stale version, the photo gone, the upload used or expired), which a replay
// must meet again even if the state changed; nil for an error a retry may get past (the store
// busy, an internal failure), which leaves no mark. Arguments are checked before the mark is
// read, so the only Invalid a write meets is an upload's state (domain.ErrUploadState); any
// other leaves no mark either.
func stateRefusal(err error) *domain.Error {
	var e *domain.Error
	if !errors.As(err, &e) {
		return nil
	}
	switch {
	case e.Code == domain.Conflict, e.Code == domain.NotFound,
		e.Code == domain.Invalid && errors.Is(err, domain.ErrUploadState):
		return &domain.Error{Code: e.Code, Message: e.Message}
	}
	return nil
}

// inputHash is the name of the mutation being resolved and the hash of its arguments as the
// operation gave them (variables substituted), without the client mutation id: a replay must
// send the same values, however it spells the document.
func inputHash(ctx context.Context) (string, string, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return "", "", errors.New("no field being resolved")
	}
	var vars map[string]any
	if oc := graphql.GetOperationContext(ctx); oc != nil {
		vars = oc.Variables
	}
	args := fc.Field.ArgumentMap(vars)
	delete(args, "clientMutationId")
	for name, v := range args {
		if input, ok := v.(map[string]any); ok {
			// A copy: the input may be the operation's own variable.
			input = maps.Clone(input)
			delete(input, "clientMutationId")
			args[name] = input
		}
	}
	hash, err := domain.InputHash(fc.Field.Name, args)
	return fc.Field.Name, hash, err
}
