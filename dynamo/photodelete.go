package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Deleting a photo and its reactions.
//
// A photo carries its reaction counters, and every write that adds or removes a reaction
// changes its counter in the same transaction, so the counters equal the reaction items. A
// delete keeps that true at every step, under any interleaving with other writes and across
// a crash at any point, and never leaves a reaction without its photo:
//
//   - A photo with fewer reactions than one transaction holds goes in one TransactWriteItems
//     with them. The photo's condition is that its counters still equal the reactions read,
//     each reaction's that it still exists: a reaction added or removed after the read cancels
//     the transaction, which is read and tried again, instead of being orphaned.
//   - A photo with more reactions, or whose reactions keep changing, is deleted in steps. One
//     transaction marks the photo with a deletion id, which React's condition refuses, and
//     puts a deletion record by which the deletion is found again if the process dies. Then
//     the reactions go, each transaction deleting some and decrementing the counters by as
//     many. Last, the photo goes with its record, once its counters are those of the
//     reactions deleted with it.
//
// Whoever finds a photo marked (a retried deletePhoto, the replay of one sent with a client
// mutation id, FinishDeletions after a crash) carries on with the same id. Every step is conditional on the mark and on the items it deletes, so
// several can run side by side.
//
// The reads are Queries on InvertedIndex, which on DynamoDB lags the table: it may not hold a
// photo written a moment ago, or a mark just set. What the index shows decides only what to
// try (the writes' conditions are on the table); what it does not show is asked of the table,
// with a strongly consistent GetItem, before a delete concludes that there is no photo, or
// that another delete finished this one.

const (
	// maxTransactionActions is DynamoDB's limit on actions in one TransactWriteItems.
	maxTransactionActions = 100
	// oneTransactionDeleteAttempts is how often a delete in one transaction is tried against
	// reactions that keep changing before the photo is marked, which stops new reactions.
	oneTransactionDeleteAttempts = 3
)

// errPhotoChanged is how a delete's transaction tells its caller that a condition failed:
// the photo or its reactions changed since they were read.
var errPhotoChanged = errors.New("the photo or its reactions changed during the delete")

// DeletePhoto deletes a photo and every reaction to it (see above: one TransactWriteItems for a
// photo with up to 99 reactions, after one Query on InvertedIndex). NotFound when there is no
// such photo. Returns the photo as it was when the delete began.
func (s *Store) DeletePhoto(ctx context.Context, key domain.PhotoKey) (domain.Photo, error) {
	for attempt := 1; ; attempt++ {
		c, err := s.readPhotoCollection(ctx, key)
		if err != nil {
			return domain.Photo{}, err
		}
		if c.photo == nil {
			if err := s.readPhotoFromTable(ctx, key, &c); err != nil {
				return domain.Photo{}, err
			}
			if c.photo == nil {
				return domain.Photo{}, photoNotFound(key)
			}
		}
		if c.deletion != "" {
			if err := s.finishDeletion(ctx, key, c.deletion); err != nil {
				return domain.Photo{}, err
			}
			return *c.photo, nil
		}
		// A client mutation mark takes one action of the transaction.
		room := maxTransactionActions
		if markOf(ctx) != nil {
			room--
		}
		if !c.complete || len(c.reactions) >= room || attempt > oneTransactionDeleteAttempts {
			if err := s.deleteInSteps(ctx, *c.photo); err != nil {
				return domain.Photo{}, err
			}
			return *c.photo, nil
		}
		actions, _ := deleteActions(key, "", c)
		err = s.transactMarked(ctx, "delete", markOutcome{removed: photoItem(*c.photo)}, allIf(actions, errPhotoChanged))
		if err == nil {
			return *c.photo, nil
		}
		if !errors.Is(err, errPhotoChanged) {
			return domain.Photo{}, err
		}
		if !s.retry.wait(ctx, attempt) {
			return domain.Photo{}, ctx.Err()
		}
	}
}

// deleteInSteps marks photo as being deleted, then deletes its reactions and itself.
func (s *Store) deleteInSteps(ctx context.Context, photo domain.Photo) error {
	key := photo.Key()
	id := requestToken()
	// A client mutation mark goes with the first step, with the deletion's id: once the photo
	// is marked its deletion is certain (a replay finishes it with FinishPhotoDeletion, or the
	// sweeper after a crash).
	err := s.transactMarked(ctx, "delete (mark)", markOutcome{removed: photoItem(photo), deletion: id}, allIf([]types.TransactWriteItem{
		{Update: &types.Update{
			Key:                       PhotoKey(key).item(),
			UpdateExpression:          aws.String("SET #d = :id"),
			ConditionExpression:       aws.String("attribute_exists(PK) AND attribute_not_exists(#d)"),
			ExpressionAttributeNames:  map[string]string{"#d": attrDeletion},
			ExpressionAttributeValues: Item{":id": str(id)},
		}},
		{Put: &types.Put{
			Item:                photoDeletionItem(key, id, s.Now()),
			ConditionExpression: itemIsNew,
		}},
	}, errPhotoChanged))
	if errors.Is(err, errPhotoChanged) {
		// Deleted or marked by another delete since it was read: carry on with that one.
		var c photoCollection
		switch err := s.readPhotoFromTable(ctx, key, &c); {
		case err != nil:
			return err
		case c.photo == nil:
			return photoNotFound(key)
		case c.deletion == "":
			return domain.Errorf(domain.Unavailable, "the photo kept changing during the delete; retry later")
		}
		id = c.deletion
	} else if err != nil {
		return err
	}
	return s.finishDeletion(ctx, key, id)
}

// FinishPhotoDeletion finishes the deletion in steps of the photo at key with deletion id, as
// a replay of the deletePhoto that began it does. One strongly consistent GetItem of the photo
// first: when it is gone or carries no such mark (that deletion was finished, and a photo at
// the same key since is another one), nothing more. Unavailable when the photo's reactions
// keep changing.
func (s *Store) FinishPhotoDeletion(ctx context.Context, key domain.PhotoKey, id string) error {
	item, err := s.getItem(ctx, PhotoKey(key))
	if err != nil {
		return err
	}
	if d, _ := getString(item, attrDeletion); item == nil || d != id {
		return nil
	}
	return s.finishDeletion(ctx, key, id)
}

// finishDeletion deletes the reactions of a photo marked with deletion id, then the photo and
// its deletion record. It returns nil as soon as the photo is gone or carries another mark:
// then another delete finished it.
func (s *Store) finishDeletion(ctx context.Context, key domain.PhotoKey, id string) error {
	for failures := 0; ; {
		c, err := s.readPhotoCollection(ctx, key)
		if err != nil {
			return err
		}
		if c.photo == nil || c.deletion != id {
			// The index may not show the photo or its mark yet: the table says whether
			// another delete finished this one. If not, the reactions the index shows go
			// (the steps' conditions are on the table's photo and reactions).
			if err := s.readPhotoFromTable(ctx, key, &c); err != nil {
				return err
			}
			if c.photo == nil || c.deletion != id {
				return s.forgetDeletion(ctx, key, id)
			}
		}
		actions, last := deleteActions(key, id, c)
		err = s.transact(ctx, "delete", allIf(actions, errPhotoChanged))
		switch {
		case err == nil && last:
			return nil
		case err == nil:
			failures = 0
			continue
		case !errors.Is(err, errPhotoChanged):
			return err
		}
		failures++
		if failures >= s.retry.attempts {
			return domain.Errorf(domain.Unavailable, "the photo's reactions kept changing during the delete; it is finished later")
		}
		if !s.retry.wait(ctx, failures) {
			return ctx.Err()
		}
	}
}

// forgetDeletion removes the deletion record of a photo that is gone or marked by another
// deletion. The final step deletes both together, so this finds nothing to do unless the
// record was left by hand.
func (s *Store) forgetDeletion(ctx context.Context, key domain.PhotoKey, id string) error {
	err := s.transact(ctx, "delete (record)", []txAction{deleteIf(&types.Delete{
		Key:                       photoDeletionKey(key).item(),
		ConditionExpression:       aws.String("#d = :id"),
		ExpressionAttributeNames:  map[string]string{"#d": attrDeletion},
		ExpressionAttributeValues: Item{":id": str(id)},
	}, errRecordGone)})
	if errors.Is(err, errRecordGone) {
		return nil // gone, or another deletion's: nothing of ours to forget
	}
	return err
}

// errRecordGone is forgetDeletion's failed condition: the record is not the one it names.
var errRecordGone = errors.New("the deletion record is gone or another deletion's")

// deleteActions is one step of a delete: the reactions read (as many as fit), and either the
// photo, when they are all of its reactions (last), or a decrement of its counters by as
// many. id is the deletion the photo is marked with, "" for a delete in one transaction.
func deleteActions(key domain.PhotoKey, id string, c photoCollection) (actions []types.TransactWriteItem, last bool) {
	room := maxTransactionActions - 1
	if id != "" {
		room-- // the deletion record goes with the photo
	}
	reactions := c.reactions
	last = c.complete && len(reactions) <= room
	if len(reactions) > room {
		reactions = reactions[:room]
	}
	counts := domain.ReactionCounts{}
	actions = make([]types.TransactWriteItem, 0, len(reactions)+2)
	for _, r := range reactions {
		counts[r.Type]++
		actions = append(actions, types.TransactWriteItem{Delete: &types.Delete{
			Key:                 ReactionKey(r).item(),
			ConditionExpression: itemExists,
		}})
	}
	cond := newExpression()
	if id == "" {
		cond.and("attribute_exists(PK) AND attribute_not_exists(%s)", cond.name(attrDeletion))
	} else {
		cond.and("%s = %s", cond.name(attrDeletion), cond.value(str(id)))
	}
	if !last {
		var set []string
		for _, t := range domain.ReactionTypes {
			if n := counts[t]; n > 0 {
				counter := cond.name(attrReactions) + "." + cond.name(storedReactionTypes[t])
				cond.and("%s >= %s", counter, cond.value(num(n)))
				set = append(set, fmt.Sprintf("%s = %s - %s", counter, counter, cond.value(num(n))))
			}
		}
		return append(actions, types.TransactWriteItem{Update: &types.Update{
			Key:                       PhotoKey(key).item(),
			UpdateExpression:          aws.String("SET " + strings.Join(set, ", ")),
			ConditionExpression:       cond.condition(),
			ExpressionAttributeNames:  cond.names,
			ExpressionAttributeValues: cond.valuesOrNil(),
		}}), false
	}
	for _, t := range domain.ReactionTypes {
		counter := cond.name(attrReactions) + "." + cond.name(storedReactionTypes[t])
		if n := counts[t]; n > 0 {
			cond.and("%s = %s", counter, cond.value(num(n)))
		} else {
			cond.and("(attribute_not_exists(%s) OR %s = %s)", counter, counter, cond.value(num(0)))
		}
	}
	actions = append(actions, types.TransactWriteItem{Delete: &types.Delete{
		Key:                       PhotoKey(key).item(),
		ConditionExpression:       cond.condition(),
		ExpressionAttributeNames:  cond.names,
		ExpressionAttributeValues: cond.valuesOrNil(),
	}})
	if id != "" {
		actions = append(actions, types.TransactWriteItem{Delete: &types.Delete{Key: photoDeletionKey(key).item()}})
	}
	return actions, last
}

// photoCollection is a photo and the first of its reactions, read together.
type photoCollection struct {
	photo *domain.Photo
	// deletion is the id of the deletion under way, "" when none.
	deletion string
	// reactions are the first reactions read, at most one transaction's worth.
	reactions []domain.ReactionKey
	// complete is whether reactions are all of the photo's reactions.
	complete bool
}

// readPhotoCollection reads a photo and up to 100 of its reactions in one Query on
// InvertedIndex (the photo sorts after its reactions; the Query runs descending). The index
// is eventually consistent on DynamoDB; the conditions of the writes that follow are not.
// One item more than a transaction holds is asked for: DynamoDB returns a LastEvaluatedKey
// whenever the Limit is reached, so a photo with 99 reactions (one transaction's worth with
// the photo) read with a Limit of 100 would not be known to be complete.
func (s *Store) readPhotoCollection(ctx context.Context, key domain.PhotoKey) (photoCollection, error) {
	in := photoReactionsQuery(key)
	in.Limit = aws.Int32(maxTransactionActions + 1)
	out, err := s.query(ctx, in)
	if err != nil {
		return photoCollection{}, err
	}
	c := photoCollection{complete: out.LastEvaluatedKey == nil}
	for _, item := range out.Items {
		k := keyOf(item)
		if k.PK == userPK(key.Owner) {
			p, err := photoFromItem(item)
			if err != nil {
				return photoCollection{}, domain.Wrap(domain.Internal, err, "reading photo")
			}
			c.photo = &p
			c.deletion, _ = getString(item, attrDeletion)
			continue
		}
		user, t, ok := reactionFromPK(k.PK)
		if !ok {
			return photoCollection{}, domain.Errorf(domain.Internal, "reading reactions: malformed key %q", k.PK)
		}
		c.reactions = append(c.reactions, domain.ReactionKey{Username: user, Type: t, Photo: key})
	}
	return c, nil
}

// readPhotoFromTable sets c's photo and deletion from the table, strongly consistent (one
// GetItem): the photo nil when there is none. c's reactions are left as they are.
func (s *Store) readPhotoFromTable(ctx context.Context, key domain.PhotoKey, c *photoCollection) error {
	item, err := s.getItem(ctx, PhotoKey(key))
	if err != nil {
		return err
	}
	c.photo, c.deletion = nil, ""
	if item == nil {
		return nil
	}
	p, err := photoFromItem(item)
	if err != nil {
		return domain.Wrap(domain.Internal, err, "reading photo")
	}
	c.photo = &p
	c.deletion, _ = getString(item, attrDeletion)
	return nil
}

// photoDeletionItem is the record of a deletion of photo key with this id, begun at startedAt.
func photoDeletionItem(key domain.PhotoKey, id, startedAt string) Item {
	k := photoDeletionKey(key)
	return Item{
		attrPK:        str(k.PK),
		attrSK:        str(k.SK),
		attrPhoto:     str(photoSK(key)),
		attrDeletion:  str(id),
		attrTimestamp: str(startedAt),
	}
}

// DeletionSweepInterval and DeletionLease are how often a server (or the Lambda sweep
// function's schedule) looks for photo deletions that did not finish, and how old one must be
// before it is taken over: a delete still running finishes well within the lease (the Lambda
// API's timeout is shorter), and taking over one that is not is only wasted work.
const (
	DeletionSweepInterval = time.Minute
	DeletionLease         = time.Minute
)

// FinishDeletions finishes the photo deletions that began at least olderThan ago and are not
// finished (the process deleting stopped, or its request timed out), and returns how many
// it finished. It reads the deletion records in one InvertedIndex partition, a page at a time.
func (s *Store) FinishDeletions(ctx context.Context, olderThan time.Duration) (int, error) {
	in := &dynamodb.QueryInput{
		IndexName:                 aws.String(InvertedIndexName),
		KeyConditionExpression:    aws.String("SK = :d"),
		ExpressionAttributeValues: Item{":d": str(deletionSK)},
	}
	due := s.now().Add(-olderThan)
	finished := 0
	for {
		out, err := s.query(ctx, in)
		if err != nil {
			return finished, err
		}
		for _, item := range out.Items {
			pk, _ := getString(item, attrPK)
			key, ok := photoKeyFromDeletionPK(pk)
			id, _ := getString(item, attrDeletion)
			startedAt, _ := getString(item, attrTimestamp)
			began, err := domain.ParseTimestamp(attrTimestamp, startedAt)
			if !ok || id == "" || err != nil {
				return finished, domain.Errorf(domain.Internal, "malformed deletion record %q", pk)
			}
			if began.After(due) {
				continue
			}
			if err := s.finishDeletion(ctx, key, id); err != nil {
				return finished, err
			}
			finished++
		}
		if out.LastEvaluatedKey == nil {
			return finished, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// SweepDeletions finishes the deletions older than lease at once and then every interval
// (servers pass DeletionSweepInterval and DeletionLease), until ctx ends; report hears the
// outcome of every sweep that finished a deletion or failed.
func (s *Store) SweepDeletions(ctx context.Context, interval, lease time.Duration, report func(finished int, err error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := s.FinishDeletions(ctx, lease)
		if ctx.Err() != nil {
			return
		}
		if n > 0 || err != nil {
			report(n, err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func photoNotFound(k domain.PhotoKey) error {
	return domain.Errorf(domain.NotFound, "%q has no photo at %s", k.Owner, k.Timestamp)
}
