package dynamo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// CreateUser stores a new profile with zero counters (pattern 1: one conditional PutItem; with
// a client mutation mark, one TransactWriteItems of the profile and the mark). Conflict when
// the username is taken.
func (s *Store) CreateUser(ctx context.Context, username string, p domain.Profile) (domain.User, error) {
	u := domain.User{Username: username, Profile: p}
	taken := domain.Errorf(domain.Conflict, "username %q is taken", username)
	var err error
	if markOf(ctx) != nil {
		err = s.transactMarked(ctx, "profile creation", markOutcome{node: u.NodeKey(), returned: userItem(u)}, []txAction{putNew(userItem(u), taken)})
	} else {
		err = s.putItem(ctx, &dynamodb.PutItemInput{
			Item:                userItem(u),
			ConditionExpression: itemIsNew,
		})
		if isConditionFailed(err) {
			err = taken
		}
	}
	if err != nil {
		return domain.User{}, err
	}
	if u.Interests == nil {
		u.Interests = []string{}
	}
	return u, nil
}

// UpdateUser applies changes to an existing profile, moves its version, and returns it as
// stored afterwards (pattern 2: one conditional UpdateItem; with a client mutation mark, one
// TransactWriteItems of the update and the mark, then one GetItem of the profile). NotFound
// when there is no such user; with c.IfVersion, Conflict carrying a StaleVersion when the
// profile is at another version. With nothing to change it reads the profile instead.
func (s *Store) UpdateUser(ctx context.Context, username string, c domain.ProfileChanges) (domain.User, error) {
	if c.Empty() {
		u, err := s.currentUser(ctx, username)
		if err != nil {
			return domain.User{}, err
		}
		if c.IfVersion != nil && *c.IfVersion != u.Version {
			return domain.User{}, staleVersion(u, *c.IfVersion)
		}
		return u, nil
	}
	expr, names, values := versionedUpdate(c)
	update := &types.Update{
		Key:                       UserKey(username).item(),
		UpdateExpression:          &expr,
		ConditionExpression:       versionCondition(c.IfVersion, values),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
	}
	if markOf(ctx) != nil {
		action := updateIf(update, userNotFound(username))
		if c.IfVersion != nil {
			// The profile as it was comes with the cancellation, as it comes with the
			// UpdateItem below: a stale version is told from a missing profile without a read.
			action = updateOrExplain(update, func(old Item) error { return notUpdated(username, c.IfVersion, old) })
		}
		err := s.transactMarked(ctx, "profile update", markOutcome{node: domain.UserKey{Username: username}}, []txAction{action})
		if err != nil {
			return domain.User{}, err
		}
		return s.currentUser(ctx, username)
	}
	in := &dynamodb.UpdateItemInput{
		Key:                       update.Key,
		UpdateExpression:          update.UpdateExpression,
		ConditionExpression:       update.ConditionExpression,
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	}
	if c.IfVersion != nil {
		// The profile as it is comes with the refusal, to tell a stale version from a
		// missing profile without another request.
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	out, err := s.updateItem(ctx, in)
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return domain.User{}, notUpdated(username, c.IfVersion, failed.Item)
	}
	if err != nil {
		return domain.User{}, err
	}
	return userFromItem(out.Attributes)
}

// notUpdated is the refusal of an update of username's profile whose condition failed, told
// from the profile as it was (old; empty when there was none): no profile, or (asked for
// ifVersion) another version.
func notUpdated(username string, ifVersion *int, old Item) error {
	if ifVersion == nil || len(old) == 0 {
		return userNotFound(username)
	}
	u, err := userFromItem(old)
	if err != nil {
		return domain.Wrap(domain.Internal, err, "reading the profile")
	}
	return staleVersion(u, *ifVersion)
}

// currentUser reads username's profile, strongly consistent; NotFound when there is none.
func (s *Store) currentUser(ctx context.Context, username string) (domain.User, error) {
	item, err := s.getItem(ctx, UserKey(username))
	if err != nil {
		return domain.User{}, err
	}
	if item == nil {
		return domain.User{}, userNotFound(username)
	}
	return userFromItem(item)
}

// versionCondition is an update's condition: the profile exists and, when ifVersion is given,
// is at that version (a profile without the attribute is at version 0). Its values join values.
func versionCondition(ifVersion *int, values Item) *string {
	if ifVersion == nil {
		return itemExists
	}
	values[":expected"] = num(*ifVersion)
	if *ifVersion == 0 {
		return aws.String("attribute_exists(PK) AND (attribute_not_exists(#version) OR #version = :expected)")
	}
	return aws.String("attribute_exists(PK) AND #version = :expected")
}

func staleVersion(current domain.User, expected int) error {
	return &domain.Error{
		Code:    domain.Conflict,
		Message: fmt.Sprintf("user %q is at version %d, not %d: merge with the current profile (extensions.current) and retry", current.Username, current.Version, expected),
		Err:     &domain.StaleVersion{Current: current},
	}
}

// versionedUpdate is profileUpdate that also moves the profile's version: every write of the
// fields moves it, in the same request.
func versionedUpdate(c domain.ProfileChanges) (expr string, names map[string]string, values Item) {
	expr, names, values = profileUpdate(c)
	if values == nil {
		values = Item{}
	}
	names["#version"] = attrVersion
	values[":zero"], values[":one"] = num(0), num(1)
	move := "#version = if_not_exists(#version, :zero) + :one"
	if rest, ok := strings.CutPrefix(expr, "SET "); ok {
		return "SET " + move + ", " + rest, names, values
	}
	return "SET " + move + " " + expr, names, values
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
