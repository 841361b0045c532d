package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Photo uploads. createPhotoUpload writes a staging record (uploadItem) before it hands out
// where to send the file; uploadPhoto reads it, makes the images, and then writes the photo
// and marks the record used in one TransactWriteItems, whose condition on the record (unused,
// not expired) lets exactly one of two racing uploadPhoto calls through. Records stay after
// they expire, so that a late or repeated uploadPhoto is told why, until the media sweeper
// removes them with their objects; the table's TTL attribute removes any the sweeper never
// got to, UploadRetention after expiry. Every record shares one InvertedIndex partition (the
// sweeper's Query), as the deletion records do: on DynamoDB one index partition takes about a
// thousand writes a second, far above the uploads an instance finishes.

// UploadRetention is how long after its expiry an upload's record may stay before the table's
// TTL removes it: well past the sweeper's interval, so that the sweeper, which deletes the
// upload's objects first, normally removes it.
const UploadRetention = 24 * time.Hour

// CreateUpload writes the staging record of a new upload. Upload ids are random, so a record
// already there is an internal error, not the caller's.
func (s *Store) CreateUpload(ctx context.Context, u domain.Upload) error {
	err := s.putItem(ctx, &dynamodb.PutItemInput{Item: uploadItem(u), ConditionExpression: itemIsNew})
	if isConditionFailed(err) {
		return domain.Errorf(domain.Internal, "upload id %q collided", u.ID)
	}
	return err
}

// GetUpload reads an upload's staging record (strongly consistent: it decides whether the
// upload may still be used). NotFound when there is none.
func (s *Store) GetUpload(ctx context.Context, id string) (domain.Upload, error) {
	item, err := s.getItem(ctx, uploadKey(id))
	if err != nil {
		return domain.Upload{}, err
	}
	if item == nil {
		return domain.Upload{}, uploadNotFound(id)
	}
	u, err := uploadFromItem(item)
	if err != nil {
		return domain.Upload{}, domain.Wrap(domain.Internal, err, "reading the upload")
	}
	return u, nil
}

// errUploadChanged is how UploadPhotoFrom's transaction reports that the upload's record
// no longer allowed it (used by another call, expired, or gone); the record is read again
// to say which.
var errUploadChanged = errors.New("the upload was used, expired or removed")

// UploadPhotoFrom stores photo p made of upload u, and marks u used by p (its timestamp), in
// one TransactWriteItems with UploadPhoto's checks: the upload's record must still be u's
// owner's, unused and not expired at now, the owner must exist, and the owner must have no
// photo at p's timestamp. Of two calls racing on one upload one succeeds and the other gets
// Conflict. The upload's action comes first, so that its failure is the one reported.
func (s *Store) UploadPhotoFrom(ctx context.Context, p domain.Photo, u domain.Upload, now time.Time) (domain.Photo, error) {
	p.Reactions = domain.ReactionCounts{}
	for _, t := range domain.ReactionTypes {
		p.Reactions[t] = 0
	}
	p.Upload = u.ID
	markUsed := updateIf(&types.Update{
		Key:                      uploadKey(u.ID).item(),
		UpdateExpression:         aws.String("SET #used = :true, #photo = :photo"),
		ConditionExpression:      aws.String("attribute_exists(PK) AND #owner = :owner AND #used = :false AND #expires > :now"),
		ExpressionAttributeNames: map[string]string{"#used": attrUsed, "#photo": attrPhotoTimestamp, "#owner": attrOwner, "#expires": attrUploadExpires},
		ExpressionAttributeValues: Item{
			":true": &types.AttributeValueMemberBOOL{Value: true}, ":false": &types.AttributeValueMemberBOOL{Value: false},
			":photo": str(p.Timestamp),
			":owner": str(p.Owner), ":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Unix(), 10)},
		},
	}, errUploadChanged)
	err := s.transactMarked(ctx, "upload", markOutcome{node: p.Key(), returned: photoItem(p)}, []txAction{
		markUsed,
		checkExists(UserKey(p.Owner), userNotFound(p.Owner)),
		putNew(photoItem(p), domain.Errorf(domain.Conflict, "%q already has a photo at %s", p.Owner, p.Timestamp)),
	})
	if errors.Is(err, errUploadChanged) {
		now, err := s.GetUpload(ctx, u.ID)
		if err != nil {
			return domain.Photo{}, err
		}
		if err := now.UsableBy(p.Owner, s.now()); err != nil {
			return domain.Photo{}, err
		}
		return domain.Photo{}, domain.Errorf(domain.Internal, "upload %q refused by its condition, yet usable", u.ID)
	}
	if err != nil {
		return domain.Photo{}, err
	}
	return p, nil
}

// ExpiredUploads returns the uploads that expired before before, read from their
// InvertedIndex partition a page at a time (a Query, filtered).
func (s *Store) ExpiredUploads(ctx context.Context, before time.Time) ([]domain.Upload, error) {
	in := &dynamodb.QueryInput{
		IndexName:                 aws.String(InvertedIndexName),
		KeyConditionExpression:    aws.String("SK = :u"),
		FilterExpression:          aws.String("#expires < :before"),
		ExpressionAttributeNames:  map[string]string{"#expires": attrUploadExpires},
		ExpressionAttributeValues: Item{":u": str(uploadSK), ":before": &types.AttributeValueMemberN{Value: strconv.FormatInt(before.Unix(), 10)}},
	}
	var uploads []domain.Upload
	for {
		out, err := s.query(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, item := range out.Items {
			u, err := uploadFromItem(item)
			if err != nil {
				return nil, domain.Wrap(domain.Internal, err, "reading expired uploads")
			}
			uploads = append(uploads, u)
		}
		if out.LastEvaluatedKey == nil {
			return uploads, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// DeleteUpload removes an upload's staging record; removing one already gone is no error.
func (s *Store) DeleteUpload(ctx context.Context, id string) error {
	// The store's API holds no DeleteItem; a one-action transaction is the same write.
	return s.transact(ctx, "upload removal", []txAction{deleteIf(&types.Delete{Key: uploadKey(id).item()}, nil)})
}

func uploadNotFound(id string) error { return domain.UploadNotFound(id) }

func uploadItem(u domain.Upload) Item {
	k := uploadKey(u.ID)
	item := Item{
		attrPK:            str(k.PK),
		attrSK:            str(k.SK),
		attrOwner:         str(u.Owner),
		attrContentType:   str(u.ContentType),
		attrByteSize:      &types.AttributeValueMemberN{Value: strconv.FormatInt(u.Bytes, 10)},
		attrUploadExpires: &types.AttributeValueMemberN{Value: strconv.FormatInt(u.Expires.Unix(), 10)},
		attrUsed:          &types.AttributeValueMemberBOOL{Value: u.Used},
		attrExpiresAt:     &types.AttributeValueMemberN{Value: strconv.FormatInt(u.Expires.Add(UploadRetention).Unix(), 10)},
	}
	if u.PhotoTimestamp != "" {
		item[attrPhotoTimestamp] = str(u.PhotoTimestamp)
	}
	return item
}

func uploadFromItem(item Item) (domain.Upload, error) {
	pk, _ := getString(item, attrPK)
	id, ok := uploadIDFromPK(pk)
	if !ok {
		return domain.Upload{}, fmt.Errorf("upload record with malformed PK %q", pk)
	}
	u := domain.Upload{ID: id}
	u.Owner, _ = getString(item, attrOwner)
	u.ContentType, _ = getString(item, attrContentType)
	u.Bytes = int64(getInt(item, attrByteSize))
	u.Expires = time.Unix(int64(getInt(item, attrUploadExpires)), 0).UTC()
	used, ok := item[attrUsed].(*types.AttributeValueMemberBOOL)
	if !ok || u.Owner == "" || u.ContentType == "" {
		return domain.Upload{}, fmt.Errorf("upload record %q without owner, type or used flag", id)
	}
	u.Used = used.Value
	u.PhotoTimestamp, _ = getString(item, attrPhotoTimestamp)
	return u, nil
}
