package dynamo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// feedEntryItem is the item of a feed entry. It carries the photo's owner and timestamp as
// attributes too, so that a filter can pick one owner's entries, and expires at expires.
func feedEntryItem(e domain.FeedEntry, expires time.Time) Item {
	k := feedEntryKey(e)
	return Item{
		attrPK:        str(k.PK),
		attrSK:        str(k.SK),
		attrUsername:  str(e.Photo.Owner),
		attrTimestamp: str(e.Photo.Timestamp),
		attrExpiresAt: &types.AttributeValueMemberN{Value: strconv.FormatInt(expires.Unix(), 10)},
	}
}

func feedEntryFromItem(item Item) (domain.FeedEntry, error) {
	k := keyOf(item)
	e, ok := feedEntryFromKey(k)
	if !ok {
		return domain.FeedEntry{}, fmt.Errorf("feed entry item with malformed key %q/%q", k.PK, k.SK)
	}
	return e, nil
}

// Feed returns a page of reader's feed, newest photo first (pattern 11: one Query on the
// reader's feed partition, descending). Entries are written by the feed's stream consumer
// (package feed), so a photo appears a moment after its upload.
func (s *Store) Feed(ctx context.Context, reader string, page domain.PageRequest) (domain.Page[domain.FeedEntry], error) {
	after, ok, err := decodeCursor(page.After, listFeed, func(k Key) bool {
		e, valid := feedEntryFromKey(k)
		return valid && e.Reader == reader
	})
	if err != nil {
		return domain.Page[domain.FeedEntry]{}, err
	}
	items, err := s.queryItems(ctx, &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :feed"),
		ExpressionAttributeValues: Item{":feed": str(feedPK(reader))},
		ScanIndexForward:          aws.Bool(false),
		ExclusiveStartKey:         startKey(after, ok),
	}, page.First+1)
	if err != nil {
		return domain.Page[domain.FeedEntry]{}, err
	}
	entries, keys, err := decodeAll(items, feedEntryFromItem)
	if err != nil {
		return domain.Page[domain.FeedEntry]{}, err
	}
	return pageOf(entries, keys, page.First, listFeed), nil
}

// AddToFeeds writes entries, each expiring at expires: BatchWriteItem, 25 a request. Writing an
// entry again only moves its expiry, so a stream record handled twice changes nothing else.
func (s *Store) AddToFeeds(ctx context.Context, entries []domain.FeedEntry, expires time.Time) error {
	writes := make([]types.WriteRequest, len(entries))
	for i, e := range entries {
		writes[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: feedEntryItem(e, expires)}}
	}
	return s.batchWrite(ctx, writes)
}

// RemoveFromFeeds deletes entries, those already gone included: BatchWriteItem, 25 a request.
func (s *Store) RemoveFromFeeds(ctx context.Context, entries []domain.FeedEntry) error {
	writes := make([]types.WriteRequest, len(entries))
	for i, e := range entries {
		writes[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: feedEntryKey(e).item()}}
	}
	return s.batchWrite(ctx, writes)
}

// FeedEntriesOf returns the entries of owner's photos in reader's feed: a Query of the whole
// feed partition with a filter, which reads every entry (feeds are bounded by their expiry);
// for an unfollow, which is rare next to reads.
func (s *Store) FeedEntriesOf(ctx context.Context, reader, owner string) ([]domain.FeedEntry, error) {
	in := &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :feed"),
		FilterExpression:          aws.String("#owner = :owner"),
		ExpressionAttributeNames:  map[string]string{"#owner": attrUsername},
		ExpressionAttributeValues: Item{":feed": str(feedPK(reader)), ":owner": str(owner)},
		ProjectionExpression:      aws.String("PK, SK"),
	}
	var entries []domain.FeedEntry
	for {
		out, err := s.query(ctx, in)
		if err != nil {
			return nil, err
		}
		found, _, err := decodeAll(out.Items, feedEntryFromItem)
		if err != nil {
			return nil, err
		}
		entries = append(entries, found...)
		if out.LastEvaluatedKey == nil {
			return entries, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// EachFollowerPage calls fn with the usernames of username's followers, a Query page at a
// time (up to 1 MB of friendship keys each), until they are all listed or fn fails.
func (s *Store) EachFollowerPage(ctx context.Context, username string, fn func(followers []string) error) error {
	in := &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :friend)"),
		ExpressionAttributeValues: Item{":pk": str(userPK(username)), ":friend": str(friendsLow)},
		ProjectionExpression:      aws.String("SK"),
	}
	for {
		out, err := s.query(ctx, in)
		if err != nil {
			return err
		}
		followers := make([]string, 0, len(out.Items))
		for _, item := range out.Items {
			sk, _ := getString(item, attrSK)
			if f, ok := followerFromSK(sk); ok {
				followers = append(followers, f)
			}
		}
		if len(followers) > 0 {
			if err := fn(followers); err != nil {
				return err
			}
		}
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}
