package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Migrating the keys an earlier release wrote.
//
// Earlier releases spelt timestamps with a trailing Z (PHOTO#ada#2018-05-30T15:42:38Z); keys now
// take the tutorial's form (PHOTO#ada#2018-05-30T15:42:38, see domain.TimestampLayout), and the
// API names items by it alone. MigrateTimestamps rewrites every item of the old form, while a
// server may be serving, keeping every invariant that Check verifies true at every step:
//
//   - A photo moves with its reactions in one TransactWriteItems (old photo and reactions
//     deleted, new ones put), conditional on the old photo's counters still equalling the
//     reactions read and on no photo being at the new key yet: a reaction added or removed
//     meanwhile cancels it, and it is read and tried again.
//   - A photo with more reactions than one transaction holds moves in steps. One transaction
//     marks the old photo with a migration id and puts the new one, counters at zero, marked
//     with the same id; each step then moves some reactions, decrementing the old counters and
//     incrementing the new ones by as many; the last deletes the old photo, once its counters
//     are zero, and unmarks the new one. Meanwhile the new photo is the one the API reads and
//     writes; a reaction a user gave it again meanwhile is kept, and its old twin dropped with
//     its count. Whoever finds the old photo marked (a rerun after a kill) carries on with the
//     same id; if the new photo is gone, a client deleted it, and the old one is deleted too.
//   - A photo is first marked with the key it moves to (attrMovedTo), then its feed entries move,
//     each with its expiry, then the photo: the feed and subscriptions, fed by the table's
//     stream, never see the move as an upload, a reaction or a delete (see attrMovedFrom).
//   - A friendship's timestamp, and any timestamp attribute of an item whose key is canonical,
//     is set in place, on the condition that it is still what was read.
//
// A photo being deleted in steps is left to its deletion, which finishes on its own. What the
// migration cannot move (a photo uploaded at the same instant since the upgrade, a reaction
// whose photo is gone) is reported and left as it is; `quickphotos check` lists it too.
// Running it again moves what is left and changes nothing else.

// attrMovedFrom is the sort key an item had before MigrateTimestamps moved it. Consumers of the
// table's stream (feed fan-out, subscriptions) read the insertion of an item that carries it as
// no change to the domain: the photo, reaction or feed entry existed before, under its old key.
const attrMovedFrom = "movedFrom"

// attrMovedTo is the sort key a photo moves to, set on its old item before the move: consumers
// of the stream read the removal of a photo that carries it as no deletion (its feed entries
// have moved already, and fanning the removal out to every follower would cost a write each).
const attrMovedTo = "movedTo"

// attrMigration is the id of a photo's move in steps, on its old item and its new one.
const attrMigration = "migration"

// maxMovedWithPhoto is how many reactions move with their photo in one transaction: two
// actions each (delete, put), and two for the photo.
const maxMovedWithPhoto = (maxTransactionActions - 2) / 2

// Errors of the migration's transactions.
var (
	errMoveChanged = errors.New("the item changed during the move")
	errMoveTaken   = errors.New("an item is at the new key already")
)

// MigrationReport is what MigrateTimestamps did.
type MigrationReport struct {
	// Items is how many items the Scan read.
	Items int
	// Moved counts the items rewritten in canonical form, by kind: photos, reactions,
	// feed entries, friendships, other attributes.
	Moved map[string]int
	// Left are the items left in their old form, with the reason; empty when none.
	Left []Problem
}

// MigrateTimestamps rewrites every key and timestamp attribute that is not in canonical form
// (see above), reading the table with a consistent Scan, and returns what it did. progress,
// when not nil, hears the report after every page. An error of the store stops it; running it
// again carries on.
func (s *Store) MigrateTimestamps(ctx context.Context, progress func(MigrationReport)) (MigrationReport, error) {
	m := &migration{s: s, report: MigrationReport{Moved: map[string]int{}}}
	in := &dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}
	for {
		out, err := s.scan(ctx, in)
		if err != nil {
			return m.report, err
		}
		for _, item := range out.Items {
			m.report.Items++
			if err := m.item(ctx, item); err != nil {
				return m.report, err
			}
		}
		if progress != nil {
			progress(m.report)
		}
		if out.LastEvaluatedKey == nil {
			return m.report, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

type migration struct {
	s      *Store
	report MigrationReport
}

func (m *migration) left(k Key, format string, args ...any) {
	m.report.Left = append(m.report.Left, Problem{Key: k, Reason: fmt.Sprintf(format, args...)})
}

// item migrates one item the Scan read, which may have changed since.
func (m *migration) item(ctx context.Context, item Item) error {
	k := keyOf(item)
	canonical, err := canonicalTimestamps(item)
	if err != nil {
		m.left(k, "unreadable timestamp: %v; fix or delete the item by hand", err)
		return nil
	}
	if keyOf(canonical) == k {
		return m.setInPlace(ctx, item, canonical)
	}
	photo, isPhoto := photoFromKey(k)
	switch kind := kindOf(k); {
	case kind == kindPhoto && isPhoto:
		return m.movePhoto(ctx, photo)
	case kind == kindReaction:
		return m.reaction(ctx, k)
	case kind == kindFeedEntry || kind == kindPopularFollow:
		return m.moveFeedEntries(ctx, []Item{item})
	case kind == kindDeletion:
		m.left(k, "a photo deletion under way: it finishes on its own (a running serve, or quickphotos check --finish-deletions); migrate again then")
	default:
		m.left(k, "an item of no known entity")
	}
	return nil
}

// setInPlace sets the timestamp and photo attributes of item, whose key is canonical, to
// those of canonical, on the condition that they are still what was read.
func (m *migration) setInPlace(ctx context.Context, item, canonical Item) error {
	e := newExpression()
	var set []string
	for _, name := range []string{attrTimestamp, attrPhoto} {
		was, _ := getString(item, name)
		now, _ := getString(canonical, name)
		if was != now {
			e.and("%s = %s", e.name(name), e.value(str(was)))
			set = append(set, e.name(name)+" = "+e.value(str(now)))
		}
	}
	if len(set) == 0 {
		return nil
	}
	err := m.s.transact(ctx, "migrate (attributes)", []txAction{updateIf(&types.Update{
		Key:                       keyOf(item).item(),
		UpdateExpression:          aws.String("SET " + strings.Join(set, ", ")),
		ConditionExpression:       e.condition(),
		ExpressionAttributeNames:  e.names,
		ExpressionAttributeValues: e.values,
	}, errMoveChanged)})
	switch {
	case errors.Is(err, errMoveChanged):
		return nil // changed or gone since the Scan: whoever wrote it wrote the canonical form
	case err != nil:
		return err
	}
	k := keyOf(item)
	if kindOf(k) == kindFriendship {
		m.report.Moved["friendships"]++
	} else {
		m.report.Moved["other attributes"]++
	}
	return nil
}

// reaction handles a reaction under an old key: it moves with its photo, unless the photo is
// gone from the old key, when it is an orphan (or moved since the Scan read it).
func (m *migration) reaction(ctx context.Context, k Key) error {
	photo, _ := photoKeyFromSK(k.SK)
	item, err := m.s.getItem(ctx, PhotoKey(photo))
	if err != nil || item != nil {
		return err // the photo moves it, or says why it cannot
	}
	if item, err = m.s.getItem(ctx, k); err != nil || item == nil {
		return err // moved with its photo since the Scan read it
	}
	m.left(k, "a reaction without its photo at %s: quickphotos check --repair deletes it", photoSK(photo))
	return nil
}

// movedItem is item with its timestamps in canonical form, marked with the key it moves from.
func movedItem(item Item) (Item, error) {
	out, err := canonicalTimestamps(item)
	if err != nil {
		return nil, err
	}
	if _, ok := out[attrMovedFrom]; !ok {
		out[attrMovedFrom] = str(keyOf(item).SK)
	}
	return out, nil
}

// oldPhoto is a photo under an old key with the first of its reactions, read together.
type oldPhoto struct {
	photo     Item // nil when there is none
	reactions []Item
	complete  bool // reactions are all of them
}

func (p oldPhoto) attr(name string) string { s, _ := getString(p.photo, name); return s }

// readOldPhoto reads the photo at key with up to limit of its reactions, in one Query on
// InvertedIndex, whole items: they are put again under the new key.
func (m *migration) readOldPhoto(ctx context.Context, key domain.PhotoKey, limit int) (oldPhoto, error) {
	in := photoReactionsQuery(key)
	in.Limit = aws.Int32(int32(limit + 1))
	out, err := m.s.query(ctx, in)
	if err != nil {
		return oldPhoto{}, err
	}
	p := oldPhoto{complete: out.LastEvaluatedKey == nil}
	for _, item := range out.Items {
		if keyOf(item).PK == userPK(key.Owner) {
			p.photo = item
		} else {
			p.reactions = append(p.reactions, item)
		}
	}
	if len(p.reactions) > limit {
		p.reactions, p.complete = p.reactions[:limit], false
	}
	return p, nil
}

// movePhoto moves the photo at old, its reactions and its feed entries to the canonical key.
func (m *migration) movePhoto(ctx context.Context, old domain.PhotoKey) error {
	for attempt := 1; ; attempt++ {
		p, err := m.readOldPhoto(ctx, old, maxMovedWithPhoto)
		if err != nil {
			return err
		}
		switch {
		case p.photo == nil:
			return nil // moved or deleted since the Scan read it
		case p.attr(attrDeletion) != "":
			m.left(PhotoKey(old), "a photo deletion under way: it finishes on its own (a running serve, or quickphotos check --finish-deletions); migrate again then")
			return nil
		case p.attr(attrMigration) != "":
			return m.continueSteps(ctx, old, p.attr(attrMigration))
		}
		if err := m.markMoving(ctx, old, p.photo); err != nil {
			return err
		}
		if err := m.moveFeedEntriesOf(ctx, old); err != nil {
			return err
		}
		if !p.complete || attempt > oneTransactionDeleteAttempts {
			return m.moveInSteps(ctx, old, p.photo)
		}
		actions, err := m.moveTogether(old, p)
		if err != nil {
			m.left(PhotoKey(old), "%v", err)
			return nil
		}
		err = m.s.transact(ctx, "migrate (photo)", actions)
		switch {
		case err == nil:
			m.report.Moved["photos"]++
			m.report.Moved["reactions"] += len(p.reactions)
			return nil
		case errors.Is(err, errMoveTaken):
			m.leftTaken(old)
			return nil
		case !errors.Is(err, errMoveChanged):
			return err
		}
		if !m.s.retry.wait(ctx, attempt) {
			return ctx.Err()
		}
	}
}

// markMoving sets attrMovedTo on the old photo item photo at old, when it is not set yet. A
// mark left by a move that does not happen (the new key is taken) is harmless.
func (m *migration) markMoving(ctx context.Context, old domain.PhotoKey, photo Item) error {
	newSK := photoSK(mustCanonicalPhotoKey(old))
	if to, _ := getString(photo, attrMovedTo); to == newSK {
		return nil
	}
	err := m.s.transact(ctx, "migrate (mark)", []txAction{updateIf(&types.Update{
		Key:                       PhotoKey(old).item(),
		UpdateExpression:          aws.String("SET #to = :to"),
		ConditionExpression:       itemExists,
		ExpressionAttributeNames:  map[string]string{"#to": attrMovedTo},
		ExpressionAttributeValues: Item{":to": str(newSK)},
	}, errMoveChanged)})
	if errors.Is(err, errMoveChanged) {
		return nil // gone since it was read: the move reads it again and finds nothing
	}
	return err
}

func (m *migration) leftTaken(old domain.PhotoKey) {
	m.left(PhotoKey(old), "another photo is at the same instant's canonical key (uploaded since the upgrade): keep one, deleting the other by hand, and migrate again")
}

// moveTogether is the transaction that moves photo p and all its reactions.
func (m *migration) moveTogether(old domain.PhotoKey, p oldPhoto) ([]txAction, error) {
	counts := domain.ReactionCounts{}
	actions := make([]txAction, 0, 2+2*len(p.reactions))
	for _, r := range p.reactions {
		_, t, ok := reactionFromPK(keyOf(r).PK)
		if !ok {
			return nil, fmt.Errorf("a reaction with a malformed key %q", keyOf(r).PK)
		}
		counts[t]++
		moved, err := movedItem(r)
		if err != nil {
			return nil, err
		}
		actions = append(actions, deleteExisting(keyOf(r), errMoveChanged), putNew(moved, errMoveChanged))
	}
	cond := newExpression()
	cond.and("attribute_exists(PK) AND attribute_not_exists(%s) AND attribute_not_exists(%s)", cond.name(attrDeletion), cond.name(attrMigration))
	countersAre(cond, counts)
	moved, err := movedItem(p.photo)
	if err != nil {
		return nil, err
	}
	photo := []txAction{
		putNew(moved, errMoveTaken),
		deleteIf(&types.Delete{
			Key:                       PhotoKey(old).item(),
			ConditionExpression:       cond.condition(),
			ExpressionAttributeNames:  cond.names,
			ExpressionAttributeValues: cond.valuesOrNil(),
		}, errMoveChanged),
	}
	return append(photo, actions...), nil
}

// countersAre adds to cond that the photo's counters are counts (absent counting as zero).
func countersAre(cond *expression, counts domain.ReactionCounts) {
	for _, t := range domain.ReactionTypes {
		counter := cond.name(attrReactions) + "." + cond.name(storedReactionTypes[t])
		if n := counts[t]; n > 0 {
			cond.and("%s = %s", counter, cond.value(num(n)))
		} else {
			cond.and("(attribute_not_exists(%s) OR %s = %s)", counter, counter, cond.value(num(0)))
		}
	}
}

// moveInSteps starts the move in steps of the photo item photo at old: it marks the old photo
// and puts the new one, counters at zero, marked with the same id; continueSteps does the rest.
func (m *migration) moveInSteps(ctx context.Context, old domain.PhotoKey, photo Item) error {
	id := requestToken()
	moved, err := movedItem(photo)
	if err != nil {
		m.left(PhotoKey(old), "%v", err)
		return nil
	}
	counts := Item{}
	for _, t := range domain.ReactionTypes {
		counts[storedReactionTypes[t]] = num(0)
	}
	moved[attrReactions] = &types.AttributeValueMemberM{Value: counts}
	moved[attrMigration] = str(id)
	err = m.s.transact(ctx, "migrate (start)", []txAction{
		putNew(moved, errMoveTaken),
		updateIf(&types.Update{
			Key:                       PhotoKey(old).item(),
			UpdateExpression:          aws.String("SET #m = :id"),
			ConditionExpression:       aws.String("attribute_exists(PK) AND attribute_not_exists(#m) AND attribute_not_exists(#d)"),
			ExpressionAttributeNames:  map[string]string{"#m": attrMigration, "#d": attrDeletion},
			ExpressionAttributeValues: Item{":id": str(id)},
		}, errMoveChanged),
	})
	switch {
	case errors.Is(err, errMoveTaken):
		m.leftTaken(old)
		return nil
	case errors.Is(err, errMoveChanged):
		return m.movePhoto(ctx, old) // marked, moved or deleted meanwhile: read it again
	case err != nil:
		return err
	}
	return m.continueSteps(ctx, old, id)
}

// continueSteps moves the reactions of the old photo at old, marked with migration id, a
// transaction's worth at a time, then deletes it and unmarks the new one.
func (m *migration) continueSteps(ctx context.Context, old domain.PhotoKey, id string) error {
	newKey := PhotoKey(mustCanonicalPhotoKey(old))
	for failures := 0; ; {
		p, err := m.readOldPhoto(ctx, old, maxMovedWithPhoto)
		if err != nil {
			return err
		}
		if p.photo == nil || p.attr(attrMigration) != id {
			return nil // finished by another run
		}
		current, err := m.s.getItem(ctx, newKey)
		if err != nil {
			return err
		}
		if mark, _ := getString(current, attrMigration); current == nil || mark != id {
			// The new photo was deleted by a client during the move: so goes the old one.
			if _, err := m.s.DeletePhoto(ctx, old); err != nil && domain.ErrorCode(err) != domain.NotFound {
				return err
			}
			return nil
		}
		var actions []txAction
		last := p.complete && len(p.reactions) == 0
		if last {
			actions = m.finishSteps(old, newKey, id)
		} else if actions, err = m.moveStep(ctx, old, newKey, id, p.reactions); err != nil {
			return err
		}
		err = m.s.transact(ctx, "migrate (step)", actions)
		switch {
		case err == nil && last:
			m.report.Moved["photos"]++
			return nil
		case err == nil:
			m.report.Moved["reactions"] += len(p.reactions)
			failures = 0
			continue
		case !errors.Is(err, errMoveChanged):
			return err
		}
		failures++
		if failures >= m.s.retry.attempts {
			m.left(PhotoKey(old), "its reactions kept changing, or its counters differ from them (quickphotos check --repair fixes those), during a move in steps: migrate again")
			return nil
		}
		if !m.s.retry.wait(ctx, failures) {
			return ctx.Err()
		}
	}
}

// moveStep is one step of a move in steps: the reactions read go to the new photo, or are
// dropped where the user gave the new photo the same reaction meanwhile, and the counters
// follow.
func (m *migration) moveStep(ctx context.Context, old domain.PhotoKey, newKey Key, id string, reactions []Item) ([]txAction, error) {
	keys := make([]Key, len(reactions))
	movedItems := make([]Item, len(reactions))
	for i, r := range reactions {
		moved, err := movedItem(r)
		if err != nil {
			return nil, domain.Wrap(domain.Internal, err, "moving a reaction")
		}
		movedItems[i], keys[i] = moved, keyOf(moved)
	}
	present, err := m.s.batchGet(ctx, keys, []string{attrPK, attrSK})
	if err != nil {
		return nil, err
	}
	there := map[Key]bool{}
	for _, item := range present {
		there[keyOf(item)] = true
	}
	removed, added := domain.ReactionCounts{}, domain.ReactionCounts{}
	var actions []txAction
	for i, r := range reactions {
		_, t, _ := reactionFromPK(keyOf(r).PK)
		removed[t]++
		actions = append(actions, deleteExisting(keyOf(r), errMoveChanged))
		if there[keys[i]] {
			actions = append(actions, checkExists(keys[i], errMoveChanged))
		} else {
			added[t]++
			actions = append(actions, putNew(movedItems[i], errMoveChanged))
		}
	}
	return append(actions,
		updateIf(counterDelta(PhotoKey(old), id, removed, -1), errMoveChanged),
		updateIf(counterDelta(newKey, id, added, 1), errMoveChanged)), nil
}

// counterDelta adds sign × counts to the counters of the photo at key, marked with migration
// id; a decrement needs the counter to stay at zero or above.
func counterDelta(key Key, id string, counts domain.ReactionCounts, sign int) *types.Update {
	e := newExpression()
	mark := e.name(attrMigration)
	e.and("%s = %s", mark, e.value(str(id)))
	set := []string{fmt.Sprintf("%s = %s", mark, mark)} // an update must set something
	for _, t := range domain.ReactionTypes {
		n := counts[t]
		if n == 0 {
			continue
		}
		counter := e.name(attrReactions) + "." + e.name(storedReactionTypes[t])
		if sign < 0 {
			e.and("%s >= %s", counter, e.value(num(n)))
		}
		set = append(set, fmt.Sprintf("%s = if_not_exists(%s, %s) + %s", counter, counter, e.value(num(0)), e.value(num(sign*n))))
	}
	return &types.Update{
		Key:                       key.item(),
		UpdateExpression:          aws.String("SET " + strings.Join(set, ", ")),
		ConditionExpression:       e.condition(),
		ExpressionAttributeNames:  e.names,
		ExpressionAttributeValues: e.values,
	}
}

// finishSteps is the last step of a move in steps: the old photo, with no reaction left and
// its counters at zero, goes, and the new one loses its mark.
func (m *migration) finishSteps(old domain.PhotoKey, newKey Key, id string) []txAction {
	cond := newExpression()
	cond.and("%s = %s", cond.name(attrMigration), cond.value(str(id)))
	countersAre(cond, domain.ReactionCounts{})
	return []txAction{
		deleteIf(&types.Delete{
			Key:                       PhotoKey(old).item(),
			ConditionExpression:       cond.condition(),
			ExpressionAttributeNames:  cond.names,
			ExpressionAttributeValues: cond.valuesOrNil(),
		}, errMoveChanged),
		updateIf(&types.Update{
			Key:                       newKey.item(),
			UpdateExpression:          aws.String("REMOVE #m"),
			ConditionExpression:       aws.String("#m = :id"),
			ExpressionAttributeNames:  map[string]string{"#m": attrMigration},
			ExpressionAttributeValues: Item{":id": str(id)},
		}, errMoveChanged),
	}
}

// mustCanonicalPhotoKey is k with its timestamp in canonical form; k comes from a key that
// canonicalTimestamps read, so it has one.
func mustCanonicalPhotoKey(k domain.PhotoKey) domain.PhotoKey {
	c, err := domain.CanonicalTimestamp("timestamp", k.Timestamp)
	if err != nil {
		panic(fmt.Sprintf("photo key %v has no canonical form: %v", k, err))
	}
	return domain.PhotoKey{Owner: k.Owner, Timestamp: c}
}

// moveFeedEntriesOf moves the feed entries of the photo at old: every reader's entry sits in
// one InvertedIndex partition, the entry's sort key.
func (m *migration) moveFeedEntriesOf(ctx context.Context, old domain.PhotoKey) error {
	in := &dynamodb.QueryInput{
		IndexName:                 aws.String(InvertedIndexName),
		KeyConditionExpression:    aws.String("SK = :sk AND begins_with(PK, :feed)"),
		ExpressionAttributeValues: Item{":sk": str(feedSK(old)), ":feed": str(feedPartitions)},
	}
	for {
		out, err := m.s.query(ctx, in)
		if err != nil {
			return err
		}
		if err := m.moveFeedEntries(ctx, out.Items); err != nil {
			return err
		}
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// moveFeedEntries moves feed entries to their canonical keys, expiry and all: half a
// transaction's worth at a time, each entry deleted on the condition that it is still there
// (unfollows and deletions remove entries meanwhile), or one by one when one of them is gone.
func (m *migration) moveFeedEntries(ctx context.Context, entries []Item) error {
	var moves [][2]Item // old, moved
	for _, e := range entries {
		moved, err := movedItem(e)
		if err != nil {
			m.left(keyOf(e), "unreadable timestamp: %v; fix or delete the item by hand", err)
			continue
		}
		moves = append(moves, [2]Item{e, moved})
	}
	const perTransaction = maxTransactionActions / 2
	for len(moves) > 0 {
		n := min(len(moves), perTransaction)
		err := m.moveFeedGroup(ctx, moves[:n])
		if errors.Is(err, errMoveChanged) && n > 1 {
			for _, move := range moves[:n] {
				if err := m.moveFeedGroup(ctx, [][2]Item{move}); err != nil && !errors.Is(err, errMoveChanged) {
					return err
				}
			}
		} else if err != nil && !errors.Is(err, errMoveChanged) {
			return err
		}
		moves = moves[n:]
	}
	return nil
}

func (m *migration) moveFeedGroup(ctx context.Context, moves [][2]Item) error {
	actions := make([]txAction, 0, 2*len(moves))
	for _, move := range moves {
		// A plain put: an entry at the new key can only be the same photo's in the same feed.
		actions = append(actions, deleteExisting(keyOf(move[0]), errMoveChanged), putIf(&types.Put{Item: move[1]}, nil))
	}
	if err := m.s.transact(ctx, "migrate (feed entries)", actions); err != nil {
		return err
	}
	m.report.Moved["feed entries"] += len(moves)
	return nil
}
