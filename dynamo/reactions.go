package dynamo

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"github.com/quickphotos/quickphotos/domain"
)

// React stores a reaction and counts it on the photo (pattern 6: one TransactWriteItems: the
// reaction put if new, the photo's counter incremented if the photo exists and is not being
// deleted, the reacting user checked). Conflict when already reacted; NotFound when the photo
// or the user does not exist, or the photo is being deleted.
func (s *Store) React(ctx context.Context, k domain.ReactionKey) (domain.Reaction, error) {
	r := domain.Reaction{Username: k.Username, Type: k.Type, Photo: k.Photo, Timestamp: s.Now()}
	err := s.transactMarked(ctx, "reaction", markOutcome{node: k, returned: reactionItem(r)}, []txAction{
		updateIf(counterUpdate(PhotoKey(k.Photo), k.Type, 1),
			domain.Errorf(domain.NotFound, "%q has no photo at %s, or it is being deleted", k.Photo.Owner, k.Photo.Timestamp)),
		checkExists(UserKey(k.Username), userNotFound(k.Username)),
		putNew(reactionItem(r), domain.Errorf(domain.Conflict, "%q already reacted with %s to this photo", k.Username, k.Type)),
	})
	if err != nil {
		return domain.Reaction{}, err
	}
	return r, nil
}

// RemoveReaction deletes a reaction and uncounts it on the photo, in one TransactWriteItems,
// after reading it (its timestamp is part of the answer). NotFound when there is no such
// reaction. Returns the removed reaction.
func (s *Store) RemoveReaction(ctx context.Context, k domain.ReactionKey) (domain.Reaction, error) {
	return removeCounted(ctx, s, "reaction", ReactionKey(k), reactionFromItem, reactionNotFound(k),
		updateIf(counterUpdate(PhotoKey(k.Photo), k.Type, -1),
			uncounted(fmt.Sprintf("%q's photo at %s", k.Photo.Owner, k.Photo.Timestamp), "reaction")))
}

// counterUpdate adds delta to the photo's counter of type t. An increment needs the photo to
// exist and not be under deletion (see photodelete.go); a decrement needs the counter to stay
// at zero or above.
func counterUpdate(photo Key, t domain.ReactionType, delta int) *types.Update {
	e := newExpression()
	counter := e.name(attrReactions) + "." + e.name(storedReactionTypes[t])
	e.and("attribute_exists(PK)")
	if delta > 0 {
		e.and("attribute_not_exists(%s)", e.name(attrDeletion))
	} else {
		e.and("%s >= %s", counter, e.value(num(-delta)))
	}
	return &types.Update{
		Key:                       photo.item(),
		UpdateExpression:          aws.String(fmt.Sprintf("SET %s = if_not_exists(%s, %s) + %s", counter, counter, e.value(num(0)), e.value(num(delta)))),
		ConditionExpression:       e.condition(),
		ExpressionAttributeNames:  e.names,
		ExpressionAttributeValues: e.values,
	}
}

// PhotoReactionsPage is a page of a photo's reactions, and the photo when the Query reached it.
type PhotoReactionsPage struct {
	domain.Page[domain.Reaction]
	// Photo is read in the same Query on the first page (it sorts first, newest-first order
	// on InvertedIndex); nil on later pages and when the photo does not exist.
	Photo *domain.Photo
}

// photoReactionsQuery reads a photo's item collection on InvertedIndex: the photo (PK USER#o)
// then, descending, its reactions (PK REACTION#…).
func photoReactionsQuery(key domain.PhotoKey) *dynamodb.QueryInput {
	return &dynamodb.QueryInput{
		IndexName:                 aws.String(InvertedIndexName),
		KeyConditionExpression:    aws.String("SK = :photo AND PK BETWEEN :low AND :high"),
		ExpressionAttributeValues: Item{":photo": str(photoSK(key)), ":low": str(reactionsLow), ":high": str(photoItemHigh)},
		ScanIndexForward:          aws.Bool(false),
	}
}

// PhotoReactions returns the photo and a page of its reactions, in descending order of the
// reacting user (pattern 7: one Query on InvertedIndex).
func (s *Store) PhotoReactions(ctx context.Context, key domain.PhotoKey, page domain.PageRequest) (PhotoReactionsPage, error) {
	after, ok, err := decodeCursor(page.After, listPhotoReactions, func(k Key) bool {
		r, ok := reactionFromKey(k)
		return ok && r.Photo == key
	})
	if err != nil {
		return PhotoReactionsPage{}, err
	}
	in := photoReactionsQuery(key)
	in.ExclusiveStartKey = startKey(after, ok)
	want := page.First + 1
	if !ok {
		want++ // the photo itself comes first
	}
	items, err := s.queryItems(ctx, in, want)
	if err != nil {
		return PhotoReactionsPage{}, err
	}
	isPhoto := func(k Key) bool { return k.PK == userPK(key.Owner) }
	photo, reactions, keys, err := collection(items, isPhoto, photoFromItem, reactionFromItem)
	if err != nil {
		return PhotoReactionsPage{}, err
	}
	return PhotoReactionsPage{Page: pageOf(reactions, keys, page.First, listPhotoReactions), Photo: photo}, nil
}

// UserReactions returns a page of the reactions username gave, ordered by type (in stored
// order: +1, heart, smiley, sunglasses), then by photo. A user's reactions live in one
// partition per type, so the first page costs one Query per type, sent together; a later page
// skips the types before its cursor.
func (s *Store) UserReactions(ctx context.Context, username string, page domain.PageRequest) (domain.Page[domain.Reaction], error) {
	after, ok, err := decodeCursor(page.After, listUserReactions, func(k Key) bool {
		user, _, valid := reactionFromPK(k.PK)
		_, photo := photoKeyFromSK(k.SK)
		return valid && user == username && photo
	})
	if err != nil {
		return domain.Page[domain.Reaction]{}, err
	}
	var remaining []domain.ReactionType
	for _, t := range reactionTypesInKeyOrder {
		if !ok || reactionPK(username, t) >= after.PK {
			remaining = append(remaining, t)
		}
	}
	results := make([][]Item, len(remaining))
	g, gctx := errgroup.WithContext(ctx)
	for i, t := range remaining {
		in := &dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: Item{":pk": str(reactionPK(username, t))},
		}
		if ok && reactionPK(username, t) == after.PK {
			in.ExclusiveStartKey = after.item()
		}
		g.Go(func() error {
			items, err := s.queryItems(gctx, in, page.First+1)
			results[i] = items
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return domain.Page[domain.Reaction]{}, err
	}
	reactions, keys, err := decodeAll(slices.Concat(results...), reactionFromItem)
	if err != nil {
		return domain.Page[domain.Reaction]{}, err
	}
	return pageOf(reactions, keys, page.First, listUserReactions), nil
}

func reactionNotFound(k domain.ReactionKey) error {
	return domain.Errorf(domain.NotFound, "%q has not reacted with %s to %q's photo at %s", k.Username, k.Type, k.Photo.Owner, k.Photo.Timestamp)
}
