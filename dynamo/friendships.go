package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Follow makes k.Follower follow k.Followed and counts it on both profiles (pattern 8: one
// TransactWriteItems). Conflict when already following; NotFound when either user is missing.
func (s *Store) Follow(ctx context.Context, k domain.FriendshipKey) (domain.Friendship, error) {
	f := domain.Friendship{Follower: k.Follower, Followed: k.Followed, Timestamp: s.Now()}
	err := s.transactMarked(ctx, "follow", markOutcome{node: k, returned: friendshipItem(f)}, []txAction{
		updateIf(followCounter(k.Followed, attrFollowers, 1), userNotFound(k.Followed)),
		updateIf(followCounter(k.Follower, attrFollowing, 1), userNotFound(k.Follower)),
		putNew(friendshipItem(f), domain.Errorf(domain.Conflict, "%q already follows %q", k.Follower, k.Followed)),
	})
	if err != nil {
		return domain.Friendship{}, err
	}
	return f, nil
}

// Unfollow deletes a friendship and uncounts it on both profiles, in one TransactWriteItems,
// after reading it (its timestamp is part of the answer). NotFound when k.Follower does not
// follow k.Followed. Returns the removed friendship.
func (s *Store) Unfollow(ctx context.Context, k domain.FriendshipKey) (domain.Friendship, error) {
	return removeCounted(ctx, s, "friendship", friendshipKey(k), friendshipFromItem, notFollowing(k),
		updateIf(followCounter(k.Followed, attrFollowers, -1), uncounted(fmt.Sprintf("user %q", k.Followed), "friendship")),
		updateIf(followCounter(k.Follower, attrFollowing, -1), uncounted(fmt.Sprintf("user %q", k.Follower), "friendship")))
}

// followCounter adds delta to a profile's followers or following counter, if the profile
// exists; a decrement also needs the counter to stay at zero or above.
func followCounter(username, counter string, delta int) *types.Update {
	e := newExpression()
	c := e.name(counter)
	e.and("attribute_exists(PK)")
	if delta < 0 {
		e.and("%s >= %s", c, e.value(num(-delta)))
	}
	return &types.Update{
		Key:                       UserKey(username).item(),
		UpdateExpression:          aws.String(fmt.Sprintf("ADD %s %s", c, e.value(num(delta)))),
		ConditionExpression:       e.condition(),
		ExpressionAttributeNames:  e.names,
		ExpressionAttributeValues: e.values,
	}
}

// FollowersPage is a page of a user's followers, and the user's profile when the Query reached it.
type FollowersPage struct {
	domain.Page[domain.Friendship]
	// User is the profile, read in the same Query on the first page (it sorts just after the
	// followers and the Query runs descending, so it comes first); nil on later pages and
	// when the user does not exist.
	User *domain.User
}

// Followers returns username's profile and a page of the friendships in which username is
// followed, in descending order of the follower's username (pattern 9: one Query over
// SK BETWEEN "#FRIEND#" AND "#METADATA#username", descending so the profile comes first).
func (s *Store) Followers(ctx context.Context, username string, page domain.PageRequest) (FollowersPage, error) {
	after, ok, err := decodeCursor(page.After, listFollowers, func(k Key) bool {
		f, ok := friendshipFromKey(k)
		return ok && f.Followed == username
	})
	if err != nil {
		return FollowersPage{}, err
	}
	want := page.First + 1
	if !ok {
		want++ // the profile comes first
	}
	items, err := s.queryItems(ctx, &dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :low AND :profile"),
		ExpressionAttributeValues: Item{
			":pk": str(userPK(username)), ":low": str(friendsLow), ":profile": str(metadataSK(username)),
		},
		ScanIndexForward:  aws.Bool(false),
		ExclusiveStartKey: startKey(after, ok),
	}, want)
	if err != nil {
		return FollowersPage{}, err
	}
	isProfile := func(k Key) bool { return k.SK == metadataSK(username) }
	user, friendships, keys, err := collection(items, isProfile, userFromItem, friendshipFromItem)
	if err != nil {
		return FollowersPage{}, err
	}
	return FollowersPage{Page: pageOf(friendships, keys, page.First, listFollowers), User: user}, nil
}

// Following returns a page of the friendships in which username follows someone, ordered by
// the followed user's username (pattern 10: one Query on InvertedIndex).
func (s *Store) Following(ctx context.Context, username string, page domain.PageRequest) (domain.Page[domain.Friendship], error) {
	after, ok, err := decodeCursor(page.After, listFollowing, func(k Key) bool {
		_, valid := usernameFromUserPK(k.PK)
		return k.SK == friendSK(username) && valid
	})
	if err != nil {
		return domain.Page[domain.Friendship]{}, err
	}
	items, err := s.queryItems(ctx, &dynamodb.QueryInput{
		IndexName:                 aws.String(InvertedIndexName),
		KeyConditionExpression:    aws.String("SK = :friend"),
		ExpressionAttributeValues: Item{":friend": str(friendSK(username))},
		ExclusiveStartKey:         startKey(after, ok),
	}, page.First+1)
	if err != nil {
		return domain.Page[domain.Friendship]{}, err
	}
	friendships, keys, err := decodeAll(items, friendshipFromItem)
	if err != nil {
		return domain.Page[domain.Friendship]{}, err
	}
	return pageOf(friendships, keys, page.First, listFollowing), nil
}

func notFollowing(k domain.FriendshipKey) error {
	return domain.Errorf(domain.NotFound, "%q does not follow %q", k.Follower, k.Followed)
}
