package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

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
	err := s.transactMarked(ctx, "upload", markOutcome{node: p.Key(), returned: photoItem(p)}, []txAction{
		checkExists(UserKey(p.Owner), userNotFound(p.Owner)),
		putNew(photoItem(p), domain.Errorf(domain.Conflict, "%q already has a photo at %s", p.Owner, p.Timestamp)),
	})
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
		p, ok := photoFromKey(k)
		return ok && p.Owner == owner
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
