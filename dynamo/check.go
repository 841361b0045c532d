package dynamo

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// CheckReport is what Check found in the table.
type CheckReport struct {
	// Items is how many items were read.
	Items int
	// PendingDeletions are the photos being deleted in steps (see photodelete.go): not a
	// problem, but FinishDeletions finishes them when no delete is running any more.
	PendingDeletions []domain.PhotoKey
	// Problems are the items that break an invariant, sorted; empty when the table is
	// consistent.
	Problems []Problem
}

// Problem is one item that breaks an invariant the access patterns keep.
type Problem struct {
	Key    Key
	Reason string
	// repair, when not nil, is the transaction that fixes it (see Repair).
	repair []types.TransactWriteItem
}

// Repairable reports whether Repair knows how to fix the problem.
func (p Problem) Repairable() bool { return p.repair != nil }

func (p Problem) String() string { return fmt.Sprintf("%s %s: %s", p.Key.PK, p.Key.SK, p.Reason) }

// Check reads the whole table with a consistent Scan (a read of every item: cheap on the
// embedded engine, a full table's read capacity on DynamoDB) and checks what every write keeps
// true under any interleaving and across crashes:
//
//   - every reaction has its photo and its user's profile, and every photo its owner's;
//   - a photo's counter of each type equals its reactions of that type;
//   - every friendship joins two profiles, and a profile's followers and following counters
//     equal its friendships;
//   - so no counter is below zero;
//   - a photo marked as being deleted has its deletion record with the same id, and the other
//     way round;
//   - every timestamp in a key, and in the attributes that hold or repeat one, is in the
//     canonical form (2018-05-30T15:42:38: UTC, whole seconds, no zone); earlier releases wrote
//     2018-05-30T15:42:38Z, which `quickphotos migrate timestamps` rewrites.
//
// Run it on a table no one is writing to: a write that commits during the Scan can make a
// consistent table look otherwise.
func (s *Store) Check(ctx context.Context) (CheckReport, error) {
	c := newChecker()
	in := &dynamodb.ScanInput{ConsistentRead: aws.Bool(true)}
	for {
		out, err := s.scan(ctx, in)
		if err != nil {
			return CheckReport{}, err
		}
		for _, item := range out.Items {
			c.add(item)
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return c.report(), nil
}

// checker gathers what Check needs of each item while the Scan runs.
type checker struct {
	items       int
	users       map[string]*checkedUser
	photos      map[domain.PhotoKey]*checkedPhoto
	friendships []Key
	// deletions maps a photo to the id in its deletion record.
	deletions map[domain.PhotoKey]string
	problems  []Problem
}

type checkedUser struct {
	exists               bool
	followers, following int
	// followedBy and follows count the friendship items.
	followedBy, follows int
}

type checkedPhoto struct {
	exists   bool
	counters domain.ReactionCounts
	deletion string
	// reactions are the keys of its reaction items, counted by type in counted.
	reactions []Key
	counted   domain.ReactionCounts
}

func newChecker() *checker {
	return &checker{
		users:     map[string]*checkedUser{},
		photos:    map[domain.PhotoKey]*checkedPhoto{},
		deletions: map[domain.PhotoKey]string{},
	}
}

func (c *checker) user(username string) *checkedUser {
	u := c.users[username]
	if u == nil {
		u = &checkedUser{}
		c.users[username] = u
	}
	return u
}

func (c *checker) photo(k domain.PhotoKey) *checkedPhoto {
	p := c.photos[k]
	if p == nil {
		p = &checkedPhoto{counted: domain.ReactionCounts{}}
		c.photos[k] = p
	}
	return p
}

func (c *checker) problem(k Key, format string, args ...any) {
	c.problems = append(c.problems, Problem{Key: k, Reason: fmt.Sprintf(format, args...)})
}

// repairable records a problem that repair fixes.
func (c *checker) repairable(k Key, repair []types.TransactWriteItem, format string, args ...any) {
	c.problems = append(c.problems, Problem{Key: k, Reason: fmt.Sprintf(format, args...), repair: repair})
}

// setCounter is a repair that sets counter (a path of names, e.g. reactions then heart) of
// the item at key to want, on the condition that it still is seen: every write that changes
// what a counter counts changes the counter too, so a write since the Scan fails the
// condition instead of being undone.
func setCounter(key Key, path []string, seen, want int) []types.TransactWriteItem {
	e := newExpression()
	var counter string
	for i, name := range path {
		if i > 0 {
			counter += "."
		}
		counter += e.name(name)
	}
	if seen == 0 {
		e.and("(attribute_not_exists(%s) OR %s = %s)", counter, counter, e.value(num(0)))
	} else {
		e.and("%s = %s", counter, e.value(num(seen)))
	}
	return []types.TransactWriteItem{{Update: &types.Update{
		Key:                       key.item(),
		UpdateExpression:          aws.String(fmt.Sprintf("SET %s = %s", counter, e.value(num(want)))),
		ConditionExpression:       e.condition(),
		ExpressionAttributeNames:  e.names,
		ExpressionAttributeValues: e.values,
	}}}
}

// add takes in one item of the Scan.
func (c *checker) add(item Item) {
	c.items++
	k := keyOf(item)
	c.checkTimestamps(k, item)
	switch kind := kindOf(k); kind {
	case kindUser:
		user, ok := userFromKey(k)
		if !ok {
			c.problem(k, "malformed %s key", kind)
			return
		}
		u := c.user(user)
		u.exists = true
		u.followers, u.following = getInt(item, attrFollowers), getInt(item, attrFollowing)
	case kindPhoto:
		photoKey, ok := photoFromKey(k)
		if !ok {
			c.problem(k, "malformed %s key", kind)
			return
		}
		photo, err := photoFromItem(item)
		if err != nil {
			c.problem(k, "unreadable photo: %v", err)
			return
		}
		p := c.photo(photoKey)
		p.exists, p.counters = true, photo.Reactions
		p.deletion, _ = getString(item, attrDeletion)
	case kindReaction:
		r, ok := reactionFromKey(k)
		if !ok {
			c.problem(k, "malformed %s key", kind)
			return
		}
		p := c.photo(r.Photo)
		p.reactions = append(p.reactions, k)
		p.counted[r.Type]++
	case kindFriendship:
		f, ok := friendshipFromKey(k)
		if !ok {
			c.problem(k, "malformed %s key", kind)
			return
		}
		c.user(f.Followed).followedBy++
		c.user(f.Follower).follows++
		c.friendships = append(c.friendships, k)
	case kindDeletion:
		pk, ok := photoKeyFromDeletionPK(k.PK)
		id, _ := getString(item, attrDeletion)
		if !ok || id == "" {
			c.problem(k, "malformed deletion record")
			return
		}
		c.deletions[pk] = id
	case kindFeedEntry, kindPopularFollow:
		// Feeds lag the table by design (they follow its stream) and expire by themselves,
		// so an entry of a photo just deleted is no inconsistency; only its key is checked.
		_, entry := feedEntryFromKey(k)
		_, mark := popularFromSK(k.SK)
		if !entry && !mark {
			c.problem(k, "malformed feed entry")
		}
	case kindCheckpoint:
		// A stream consumer's checkpoint.
	case kindUpload:
		// A photo upload's staging record: it expires by itself, and the sweeper removes its
		// objects with it.
		if _, err := uploadFromItem(item); err != nil {
			c.problem(k, "malformed upload record: %v", err)
		}
	case kindMutationMark:
		// A client mutation's mark: it expires by itself; only that it reads is checked.
		if _, err := outcomeFromItem(item); err != nil {
			c.problem(k, "malformed client mutation mark: %v", err)
		}
	case kindSyncKey:
		// The key that signs change log cursors.
	case kindSyncHead, kindSyncSeen:
		// Offline sync's change logs (synclog.go): written after the fact from the stream,
		// as feeds are; their entries and records expire by themselves.
		if _, ok := syncLogFromPK(k.PK); !ok {
			c.problem(k, "malformed %s key", kind)
		}
	case kindSyncEntry:
		if _, _, err := syncEntriesFromItem(item); err != nil {
			c.problem(k, "malformed change log entry: %v", err)
		}
	default:
		c.problem(k, "an item of no known entity")
	}
}

// checkTimestamps reports an item whose key or timestamp attributes are not in canonical form:
// the API names items by the canonical key only, so such an item is listed but cannot be read,
// reacted to or deleted.
func (c *checker) checkTimestamps(k Key, item Item) {
	canonical, err := canonicalTimestamps(item)
	switch {
	case err != nil:
		c.problem(k, "unreadable timestamp: %v", err)
	case keyOf(canonical) != k:
		want := keyOf(canonical)
		c.problem(k, "key not in the canonical form of timestamps, %s %s (run quickphotos migrate timestamps)", want.PK, want.SK)
	default:
		for _, name := range []string{attrTimestamp, attrPhoto} {
			got, _ := getString(item, name)
			if want, _ := getString(canonical, name); got != want {
				c.problem(k, "attribute %s %q not in the canonical form of timestamps, %q (run quickphotos migrate timestamps)", name, got, want)
			}
		}
	}
}

// report checks what was gathered.
func (c *checker) report() CheckReport {
	for k, p := range c.photos {
		c.checkPhoto(k, p)
	}
	for k, id := range c.deletions {
		if p := c.photos[k]; p == nil || !p.exists || p.deletion != id {
			c.problem(photoDeletionKey(k), "deletion record %s without a photo marked with it", id)
		}
	}
	for _, k := range c.friendships {
		f, _ := friendshipFromKey(k)
		for _, u := range []string{f.Followed, f.Follower} {
			if !c.users[u].exists {
				c.problem(k, "friendship without the profile of %q", u)
			}
		}
	}
	for name, u := range c.users {
		if !u.exists {
			continue
		}
		k := UserKey(name)
		if u.followers != u.followedBy {
			c.repairable(k, setCounter(k, []string{attrFollowers}, u.followers, u.followedBy),
				"%s is %d, but %d friendships follow the user", attrFollowers, u.followers, u.followedBy)
		}
		if u.following != u.follows {
			c.repairable(k, setCounter(k, []string{attrFollowing}, u.following, u.follows),
				"%s is %d, but the user is the follower in %d friendships", attrFollowing, u.following, u.follows)
		}
	}
	sort.Slice(c.problems, func(i, j int) bool {
		a, b := c.problems[i], c.problems[j]
		if a.Key != b.Key {
			return a.Key.PK < b.Key.PK || a.Key.PK == b.Key.PK && a.Key.SK < b.Key.SK
		}
		return a.Reason < b.Reason
	})
	r := CheckReport{Items: c.items, Problems: c.problems}
	for k, p := range c.photos {
		if p.exists && p.deletion != "" {
			r.PendingDeletions = append(r.PendingDeletions, k)
		}
	}
	sort.Slice(r.PendingDeletions, func(i, j int) bool {
		return photoSK(r.PendingDeletions[i]) < photoSK(r.PendingDeletions[j])
	})
	return r
}

func (c *checker) checkPhoto(k domain.PhotoKey, p *checkedPhoto) {
	for _, r := range p.reactions {
		if user, _, _ := reactionFromPK(r.PK); c.users[user] == nil || !c.users[user].exists {
			c.problem(r, "reaction without the profile of %q", user)
		}
	}
	if !p.exists {
		for _, r := range p.reactions {
			c.repairable(r, []types.TransactWriteItem{
				{ConditionCheck: &types.ConditionCheck{Key: PhotoKey(k).item(), ConditionExpression: itemIsNew}},
				{Delete: &types.Delete{Key: r.item(), ConditionExpression: itemExists}},
			}, "reaction without its photo")
		}
		return
	}
	key := PhotoKey(k)
	if u := c.users[k.Owner]; u == nil || !u.exists {
		c.problem(key, "photo without its owner's profile")
	}
	for _, t := range domain.ReactionTypes {
		if p.counters[t] != p.counted[t] {
			c.repairable(key, setCounter(key, []string{attrReactions, storedReactionTypes[t]}, p.counters[t], p.counted[t]),
				"counter %s is %d, but there are %d such reactions", t, p.counters[t], p.counted[t])
		}
	}
	if p.deletion != "" && c.deletions[k] != p.deletion {
		c.problem(key, "marked with deletion %s, which has no record", p.deletion)
	}
}

var errChangedSinceCheck = errors.New("the item changed since the check")

// Repair fixes the repairable problems of report, those that earlier releases could leave: it
// deletes reactions whose photo is gone and sets counters that differ from their items to what
// the items say. Each fix is one transaction, conditional on what Check saw, so that a write
// made since is never undone: a fix whose condition fails is skipped (check again). Returns
// how many problems it fixed.
func (s *Store) Repair(ctx context.Context, report CheckReport) (int, error) {
	fixed := 0
	for _, p := range report.Problems {
		if p.repair == nil {
			continue
		}
		err := s.transact(ctx, "repair", allIf(p.repair, errChangedSinceCheck))
		switch {
		case err == nil:
			fixed++
		case !errors.Is(err, errChangedSinceCheck):
			return fixed, err
		}
	}
	return fixed, nil
}
