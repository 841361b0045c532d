package dynamo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

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

// FeedPage is a page of a feed, with the photos that were read with it.
type FeedPage struct {
	domain.Page[domain.FeedEntry]
	// Photos are the page's photos of popular users, read from their own partitions; the
	// others are to be read by key.
	Photos map[domain.PhotoKey]domain.Photo
}

// MaxPopularFollows bounds the popular users whose photos a feed merges when it is read: each
// costs one Query per page.
const MaxPopularFollows = 20

// Feed returns a page of reader's feed, newest photo first (pattern 11). Entries are written
// by the feed's stream consumer (package feed), so a photo appears a moment after its upload;
// the photos of the popular users reader follows are not written there but merged in here.
//
// The first page is one Query on the reader's feed partition (the marks of popular follows
// sort first, then the entries, newest first), plus one Query on each popular user's photos,
// sent together. A later page reads the marks in a Query of their own, beside the entries'.
func (s *Store) Feed(ctx context.Context, reader string, page domain.PageRequest) (FeedPage, error) {
	after, ok, err := decodeCursor(page.After, listFeed, func(k Key) bool {
		e, valid := feedEntryFromKey(k)
		return valid && e.Reader == reader
	})
	if err != nil {
		return FeedPage{}, err
	}
	popular, entries, err := s.readFeedPartition(ctx, reader, after, ok, page.First+1)
	if err != nil {
		return FeedPage{}, err
	}
	photos, err := s.popularPhotos(ctx, popular, after, ok, page.First+1)
	if err != nil {
		return FeedPage{}, err
	}
	return mergeFeed(reader, entries, photos, page.First), nil
}

// readFeedPartition reads the popular users reader follows and, after the cursor when ok,
// want entries of reader's feed.
func (s *Store) readFeedPartition(ctx context.Context, reader string, after Key, ok bool, want int) (popular []string, entries []domain.FeedEntry, err error) {
	pk := Item{":feed": str(feedPK(reader))}
	split := func(items []Item) error {
		for _, item := range items {
			k := keyOf(item)
			if u, mark := popularFromSK(k.SK); mark {
				popular = append(popular, u)
				continue
			}
			e, valid := feedEntryFromKey(k)
			if !valid {
				return domain.Errorf(domain.Internal, "reading a feed: malformed key %q/%q", k.PK, k.SK)
			}
			if len(entries) < want {
				entries = append(entries, e)
			}
		}
		return nil
	}
	if !ok {
		// The marks come first in the descending Query: ask for as many more items as there
		// may be marks, so that one request reads both.
		items, err := s.queryItems(ctx, &dynamodb.QueryInput{
			KeyConditionExpression: aws.String("PK = :feed"), ExpressionAttributeValues: pk,
			ScanIndexForward: aws.Bool(false), ProjectionExpression: aws.String("PK, SK"),
		}, want+MaxPopularFollows)
		if err != nil {
			return nil, nil, err
		}
		return popular, entries, split(items)
	}
	g, gctx := errgroup.WithContext(ctx)
	var marks, rest []Item
	g.Go(func() (err error) {
		marks, err = s.queryItems(gctx, &dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("PK = :feed AND begins_with(SK, :popular)"),
			ExpressionAttributeValues: Item{":feed": pk[":feed"], ":popular": str(popularMarks)},
			ProjectionExpression:      aws.String("PK, SK"),
		}, MaxPopularFollows)
		return err
	})
	g.Go(func() (err error) {
		rest, err = s.queryItems(gctx, &dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("PK = :feed AND SK < :popular"),
			ExpressionAttributeValues: Item{":feed": pk[":feed"], ":popular": str(popularMarks)},
			ScanIndexForward:          aws.Bool(false), ProjectionExpression: aws.String("PK, SK"),
			ExclusiveStartKey: after.item(),
		}, want)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	return popular, entries, split(append(marks, rest...))
}

// popularPhotos reads, for each popular user (at most MaxPopularFollows), the want newest
// photos that come after the cursor in feed order, in one Query each, sent together.
func (s *Store) popularPhotos(ctx context.Context, popular []string, after Key, ok bool, want int) ([]domain.Photo, error) {
	popular = popular[:min(len(popular), MaxPopularFollows)]
	results := make([][]Item, len(popular))
	g, gctx := errgroup.WithContext(ctx)
	var pos domain.FeedEntry
	if ok {
		pos, _ = feedEntryFromKey(after)
	}
	for i, u := range popular {
		// Photos sort in the feed by timestamp then owner: after the cursor come u's photos up
		// to the cursor's timestamp, that one included only when u sorts below the cursor's
		// owner. BETWEEN includes its bound, so the Query asks for one more and drops it.
		high, limit := photosHigh, want
		var excluded string
		if ok {
			high = photoSK(domain.PhotoKey{Owner: u, Timestamp: pos.Photo.Timestamp})
			if u >= pos.Photo.Owner {
				excluded, limit = high, want+1
			}
		}
		in := &dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("PK = :pk AND SK BETWEEN :low AND :high"),
			ExpressionAttributeValues: Item{":pk": str(userPK(u)), ":low": str(photoPrefix(u)), ":high": str(high)},
			ScanIndexForward:          aws.Bool(false),
		}
		g.Go(func() error {
			items, err := s.queryItems(gctx, in, limit)
			results[i] = slices.DeleteFunc(items, func(item Item) bool { return keyOf(item).SK == excluded })
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	photos, _, err := decodeAll(slices.Concat(results...), photoFromItem)
	return photos, err
}

// mergeFeed makes the page of first entries of the feed from its entries and the photos of
// popular users, in feed order (newest first, then by owner), each photo once.
func mergeFeed(reader string, entries []domain.FeedEntry, photos []domain.Photo, first int) FeedPage {
	byKey := map[domain.PhotoKey]domain.Photo{}
	seen := map[domain.PhotoKey]bool{}
	var all []domain.FeedEntry
	for _, e := range entries {
		if !seen[e.Photo] {
			seen[e.Photo] = true
			all = append(all, e)
		}
	}
	for _, p := range photos {
		byKey[p.Key()] = p
		if !seen[p.Key()] {
			seen[p.Key()] = true
			all = append(all, domain.FeedEntry{Reader: reader, Photo: p.Key()})
		}
	}
	slices.SortFunc(all, func(a, b domain.FeedEntry) int { return strings.Compare(feedSK(b.Photo), feedSK(a.Photo)) })
	keys := make([]Key, len(all))
	for i, e := range all {
		keys[i] = feedEntryKey(e)
	}
	return FeedPage{Page: pageOf(all, keys, first, listFeed), Photos: byKey}
}

// FollowPopular marks, in readers' feeds, that they follow popular, whose photos are then
// merged into their feeds when read instead of written there, and whose public change log they
// read from position logFrom on: BatchWriteItem, 25 a request.
func (s *Store) FollowPopular(ctx context.Context, popular string, readers []string, logFrom uint64) error {
	writes := make([]types.WriteRequest, len(readers))
	for i, r := range readers {
		k := popularFollowKey(r, popular)
		item := Item{attrPK: str(k.PK), attrSK: str(k.SK), attrLogFrom: seqValue(logFrom)}
		writes[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: item}}
	}
	return s.batchWrite(ctx, writes)
}

// UnfollowPopular removes the marks FollowPopular wrote, those already gone included.
func (s *Store) UnfollowPopular(ctx context.Context, popular string, readers []string) error {
	writes := make([]types.WriteRequest, len(readers))
	for i, r := range readers {
		writes[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: popularFollowKey(r, popular).item()}}
	}
	return s.batchWrite(ctx, writes)
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
