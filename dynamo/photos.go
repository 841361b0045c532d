package dynamo

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// UploadPhoto stores a new photo with zero reaction counters (pattern 4: one TransactWriteItems
// that checks the owner exists and never overwrites a photo). NotFound when the owner has no
// profile, Conflict when the owner already has a photo at that timestamp.
func (s *Store) UploadPhoto(ctx context.Context, p domain.Photo) (domain.Photo, error) {
	p.Reactions = domain.ReactionCounts{}
	for _, t := range domain.ReactionTypes {
		p.Reactions[t] = 0
	}
	err := s.transact(ctx, "upload", []types.TransactWriteItem{
		{ConditionCheck: &types.ConditionCheck{
			Key:                 UserKey(p.Owner).item(),
			ConditionExpression: aws.String("attribute_exists(PK)"),
		}},
		{Put: &types.Put{
			Item:                PhotoItem(p),
			ConditionExpression: aws.String("attribute_not_exists(PK)"),
		}},
	},
		onFailed{0, userNotFound(p.Owner)},
		onFailed{1, domain.Errorf(domain.Conflict, "%q already has a photo at %s", p.Owner, p.Timestamp)},
	)
	if err != nil {
		return domain.Photo{}, err
	}
	return p, nil
}

// GetPhotos returns the photos with these keys that exist: BatchGetItem, 100 keys a request.
func (s *Store) GetPhotos(ctx context.Context, keys []domain.PhotoKey) (map[domain.PhotoKey]domain.Photo, error) {
	ks := make([]Key, len(keys))
	for i, k := range keys {
		ks[i] = PhotoKey(k)
	}
	items, err := s.batchGet(ctx, ks, nil)
	if err != nil {
		return nil, err
	}
	photos := make(map[domain.PhotoKey]domain.Photo, len(items))
	for _, item := range items {
		p, err := photoFromItem(item)
		if err != nil {
			return nil, domain.Wrap(domain.Internal, err, "reading photos")
		}
		photos[p.Key()] = p
	}
	return photos, nil
}

// PhotoPage is a page of a user's photos, and the owner's profile when the Query reached it.
type PhotoPage struct {
	domain.Page[domain.Photo]
	// Owner is the profile, read for free when the page reaches the end of the owner's
	// photos (the profile sorts just before them); nil otherwise.
	Owner *domain.User
}

// ListPhotos returns a page of owner's photos, most recent first (pattern 5: one Query over
// SK BETWEEN "#METADATA#owner" AND "PHOTO$", newest first, so the last page brings the profile).
func (s *Store) ListPhotos(ctx context.Context, owner string, page domain.PageRequest) (PhotoPage, error) {
	after, ok, err := decodeCursor(page.After, listPhotos, func(k Key) bool {
		return k.PK == userPK(owner) && strings.HasPrefix(k.SK, photoPrefix(owner))
	})
	if err != nil {
		return PhotoPage{}, err
	}
	items, err := s.queryItems(ctx, &dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :profile AND :end"),
		ExpressionAttributeValues: Item{
			":pk": str(userPK(owner)), ":profile": str(metadataSK(owner)), ":end": str(photosHigh),
		},
		ScanIndexForward:  aws.Bool(false),
		ExclusiveStartKey: startKey(after, ok),
	}, page.First+1)
	if err != nil {
		return PhotoPage{}, err
	}
	isProfile := func(k Key) bool { return k.SK == metadataSK(owner) }
	profile, photos, keys, err := collection(items, isProfile, userFromItem, photoFromItem)
	if err != nil {
		return PhotoPage{}, err
	}
	return PhotoPage{Page: pageOf(photos, keys, page.First, listPhotos), Owner: profile}, nil
}

// DeletePhoto deletes a photo, uncounting nothing (the counters live on the photo itself), and
// the reactions to it: the photo and up to 99 reactions go in one TransactWriteItems; reactions
// beyond what one transaction holds are removed after it in batches, so a reaction can outlive
// its photo only while the delete is running. NotFound when there is no such photo. Returns
// the deleted photo.
func (s *Store) DeletePhoto(ctx context.Context, key domain.PhotoKey) (domain.Photo, error) {
	photo, reactions, err := s.photoWithAllReactions(ctx, key)
	if err != nil {
		return domain.Photo{}, err
	}
	if photo == nil {
		return domain.Photo{}, photoNotFound(key)
	}
	inTx := reactions[:min(len(reactions), maxTransactionActions-1)]
	actions := []types.TransactWriteItem{{Delete: &types.Delete{
		Key:                 PhotoKey(key).item(),
		ConditionExpression: aws.String("attribute_exists(PK)"),
	}}}
	for _, k := range inTx {
		actions = append(actions, types.TransactWriteItem{Delete: &types.Delete{Key: k.item()}})
	}
	if err := s.transact(ctx, "delete", actions, onFailed{0, photoNotFound(key)}); err != nil {
		return domain.Photo{}, err
	}
	if err := s.batchDelete(ctx, reactions[len(inTx):]); err != nil {
		return domain.Photo{}, err
	}
	return *photo, nil
}

// maxTransactionActions is DynamoDB's limit on actions in one TransactWriteItems.
const maxTransactionActions = 100

// photoWithAllReactions reads a photo and the keys of all its reactions from InvertedIndex.
func (s *Store) photoWithAllReactions(ctx context.Context, key domain.PhotoKey) (*domain.Photo, []Key, error) {
	in := photoReactionsQuery(key)
	var photo *domain.Photo
	var reactions []Key
	for {
		out, err := s.query(ctx, in)
		if err != nil {
			return nil, nil, err
		}
		for _, item := range out.Items {
			k := keyOf(item)
			if k.PK == userPK(key.Owner) {
				p, err := photoFromItem(item)
				if err != nil {
					return nil, nil, domain.Wrap(domain.Internal, err, "reading photo")
				}
				photo = &p
				continue
			}
			reactions = append(reactions, k)
		}
		if out.LastEvaluatedKey == nil {
			return photo, reactions, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func photoNotFound(k domain.PhotoKey) error {
	return domain.Errorf(domain.NotFound, "%q has no photo at %s", k.Owner, k.Timestamp)
}
