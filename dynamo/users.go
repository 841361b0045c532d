package dynamo

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// CreateUser stores a new profile with zero counters (pattern 1: one conditional PutItem).
// Conflict when the username is taken.
func (s *Store) CreateUser(ctx context.Context, username string, p domain.Profile) (domain.User, error) {
	u := domain.User{Username: username, Profile: p}
	err := s.putItem(ctx, &dynamodb.PutItemInput{
		Item:                userItem(u),
		ConditionExpression: itemIsNew,
	})
	if isConditionFailed(err) {
		return domain.User{}, domain.Errorf(domain.Conflict, "username %q is taken", username)
	}
	if err != nil {
		return domain.User{}, err
	}
	if u.Interests == nil {
		u.Interests = []string{}
	}
	return u, nil
}

// UpdateUser applies changes to an existing profile and returns it as stored afterwards
// (pattern 2: one conditional UpdateItem). NotFound when there is no such user. With nothing
// to change it reads the profile instead.
func (s *Store) UpdateUser(ctx context.Context, username string, c domain.ProfileChanges) (domain.User, error) {
	if c.Empty() {
		item, err := s.getItem(ctx, UserKey(username))
		if err != nil {
			return domain.User{}, err
		}
		if item == nil {
			return domain.User{}, userNotFound(username)
		}
		return userFromItem(item)
	}
	expr, names, values := profileUpdate(c)
	out, err := s.updateItem(ctx, &dynamodb.UpdateItemInput{
		Key:                       UserKey(username).item(),
		UpdateExpression:          &expr,
		ConditionExpression:       itemExists,
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		return domain.User{}, userNotFound(username)
	}
	if err != nil {
		return domain.User{}, err
	}
	return userFromItem(out.Attributes)
}

// profileUpdate builds the update expression for c, attributes in a fixed order so the same
// change always makes the same request.
func profileUpdate(c domain.ProfileChanges) (expr string, names map[string]string, values Item) {
	names, values = map[string]string{}, Item{}
	fields := slices.SortedFunc(maps.Keys(c.Set), func(a, b domain.ProfileField) int {
		return strings.Compare(profileAttributes[a], profileAttributes[b])
	})
	var set, remove []string
	for i, f := range fields {
		n, v := fmt.Sprintf("#s%d", i), fmt.Sprintf(":s%d", i)
		names[n] = profileAttributes[f]
		switch val := c.Set[f].(type) {
		case []string:
			values[v] = stringList(val)
		case string:
			values[v] = str(val)
		}
		set = append(set, n+" = "+v)
	}
	for i, f := range c.Remove {
		n := fmt.Sprintf("#r%d", i)
		names[n] = profileAttributes[f]
		remove = append(remove, n)
	}
	var parts []string
	if len(set) > 0 {
		parts = append(parts, "SET "+strings.Join(set, ", "))
	}
	if len(remove) > 0 {
		parts = append(parts, "REMOVE "+strings.Join(remove, ", "))
	}
	if len(values) == 0 {
		values = nil
	}
	return strings.Join(parts, " "), names, values
}

// GetUsers returns the profiles of usernames that exist (pattern 3: BatchGetItem, 100 keys a
// request). fields, when not nil, are the only optional profile fields read (the others are
// left nil); the username and the counters are always read.
func (s *Store) GetUsers(ctx context.Context, usernames []string, fields []domain.ProfileField) (map[string]domain.User, error) {
	keys := make([]Key, len(usernames))
	for i, u := range usernames {
		keys[i] = UserKey(u)
	}
	attributes := userAttributes(fields)
	if attributes != nil {
		attributes = append([]string{attrPK, attrUsername}, attributes...)
	}
	items, err := s.batchGet(ctx, keys, attributes)
	if err != nil {
		return nil, err
	}
	users := make(map[string]domain.User, len(items))
	for _, item := range items {
		u, err := userFromItem(item)
		if err != nil {
			return nil, domain.Wrap(domain.Internal, err, "reading profiles")
		}
		users[u.Username] = u
	}
	return users, nil
}

func userNotFound(username string) error {
	return domain.Errorf(domain.NotFound, "user %q does not exist", username)
}
