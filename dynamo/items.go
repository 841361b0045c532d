package dynamo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Item is one DynamoDB item. Items never leave this package: the converters below turn them
// into domain values and back.
type Item = map[string]types.AttributeValue

func str(s string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: s} }
func num(n int) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
}

// userItem is the profile item of u.
func userItem(u domain.User) Item {
	k := UserKey(u.Username)
	item := Item{
		attrPK:        str(k.PK),
		attrSK:        str(k.SK),
		attrUsername:  str(u.Username),
		attrFollowers: num(u.FollowerCount),
		attrFollowing: num(u.FollowingCount),
	}
	for _, f := range domain.StringFields {
		if v := *u.Field(f); v != nil {
			item[profileAttributes[f]] = str(*v)
		}
	}
	if u.Interests != nil {
		item[attrInterests] = stringList(u.Interests)
	}
	if u.Version != 0 {
		// Absent is version 0: a new profile's item is as it was before versions.
		item[attrVersion] = num(u.Version)
	}
	return item
}

func stringList(list []string) *types.AttributeValueMemberL {
	l := make([]types.AttributeValue, len(list))
	for i, s := range list {
		l[i] = str(s)
	}
	return &types.AttributeValueMemberL{Value: l}
}

// userFromItem reads a profile item. Attributes a projection left out keep their zero value.
func userFromItem(item Item) (domain.User, error) {
	username, ok := getString(item, attrUsername)
	if !ok {
		pk, _ := getString(item, attrPK)
		if username, ok = usernameFromUserPK(pk); !ok {
			return domain.User{}, fmt.Errorf("profile item without username (PK %q)", pk)
		}
	}
	u := domain.User{Username: username}
	for _, f := range domain.StringFields {
		if s, ok := getString(item, profileAttributes[f]); ok {
			*u.Field(f) = &s
		}
	}
	u.Interests = getStrings(item, attrInterests)
	u.Version = getInt(item, attrVersion)
	u.FollowerCount = getInt(item, attrFollowers)
	u.FollowingCount = getInt(item, attrFollowing)
	return u, nil
}

// photoItem is the item of photo p, with a counter for every reaction type.
func photoItem(p domain.Photo) Item {
	k := PhotoKey(p.Key())
	counts := Item{}
	for _, t := range domain.ReactionTypes {
		counts[storedReactionTypes[t]] = num(p.Reactions[t])
	}
	item := Item{
		attrPK:        str(k.PK),
		attrSK:        str(k.SK),
		attrUsername:  str(p.Owner),
		attrTimestamp: str(p.Timestamp),
		attrReactions: &types.AttributeValueMemberM{Value: counts},
	}
	if p.URL != "" {
		item[attrLocation] = str(p.URL)
	}
	if p.Images != nil {
		images := Item{}
		for size, img := range p.Images {
			images[string(size)] = &types.AttributeValueMemberM{Value: Item{
				attrImageKey: str(img.Key), attrWidth: num(img.Width), attrHeight: num(img.Height), attrImageType: str(img.ContentType),
			}}
		}
		item[attrImages] = &types.AttributeValueMemberM{Value: images}
		item[attrWidth], item[attrHeight], item[attrUpload] = num(p.Width), num(p.Height), str(p.Upload)
	}
	return item
}

// photoImages reads the renditions of an uploaded photo; nil for a photo hosted elsewhere.
func photoImages(item Item) domain.Images {
	m, ok := item[attrImages].(*types.AttributeValueMemberM)
	if !ok {
		return nil
	}
	images := domain.Images{}
	for _, size := range domain.ImageSizes {
		v, ok := m.Value[string(size)].(*types.AttributeValueMemberM)
		if !ok {
			continue
		}
		img := domain.StoredImage{Width: getInt(v.Value, attrWidth), Height: getInt(v.Value, attrHeight)}
		img.Key, _ = getString(v.Value, attrImageKey)
		img.ContentType, _ = getString(v.Value, attrImageType)
		images[size] = img
	}
	return images
}

func photoFromItem(item Item) (domain.Photo, error) {
	sk, _ := getString(item, attrSK)
	key, ok := photoKeyFromSK(sk)
	if !ok {
		return domain.Photo{}, fmt.Errorf("photo item with malformed SK %q", sk)
	}
	p := domain.Photo{Owner: key.Owner, Timestamp: key.Timestamp, Reactions: domain.ReactionCounts{}}
	p.URL, _ = getString(item, attrLocation)
	if p.Images = photoImages(item); p.Images != nil {
		p.Width, p.Height = getInt(item, attrWidth), getInt(item, attrHeight)
		p.Upload, _ = getString(item, attrUpload)
	}
	if m, ok := item[attrReactions].(*types.AttributeValueMemberM); ok {
		for _, t := range domain.ReactionTypes {
			p.Reactions[t] = getInt(m.Value, storedReactionTypes[t])
		}
	}
	return p, nil
}

// reactionItem is the item of reaction r.
func reactionItem(r domain.Reaction) Item {
	k := ReactionKey(domain.ReactionKey{Username: r.Username, Type: r.Type, Photo: r.Photo})
	return Item{
		attrPK:           str(k.PK),
		attrSK:           str(k.SK),
		attrReactingUser: str(r.Username),
		attrReactionType: str(storedReactionTypes[r.Type]),
		attrPhoto:        str(k.SK),
		attrTimestamp:    str(r.Timestamp),
	}
}

func reactionFromItem(item Item) (domain.Reaction, error) {
	pk, _ := getString(item, attrPK)
	sk, _ := getString(item, attrSK)
	user, t, ok1 := reactionFromPK(pk)
	photo, ok2 := photoKeyFromSK(sk)
	if !ok1 || !ok2 {
		return domain.Reaction{}, fmt.Errorf("reaction item with malformed key %q/%q", pk, sk)
	}
	r := domain.Reaction{Username: user, Type: t, Photo: photo}
	r.Timestamp, _ = getString(item, attrTimestamp)
	return r, nil
}

// friendshipItem is the item of friendship f.
func friendshipItem(f domain.Friendship) Item {
	k := friendshipKey(domain.FriendshipKey{Follower: f.Follower, Followed: f.Followed})
	return Item{
		attrPK:            str(k.PK),
		attrSK:            str(k.SK),
		attrFollowedUser:  str(f.Followed),
		attrFollowingUser: str(f.Follower),
		attrTimestamp:     str(f.Timestamp),
	}
}

func friendshipFromItem(item Item) (domain.Friendship, error) {
	pk, _ := getString(item, attrPK)
	sk, _ := getString(item, attrSK)
	followed, ok1 := usernameFromUserPK(pk)
	follower, ok2 := followerFromSK(sk)
	if !ok1 || !ok2 {
		return domain.Friendship{}, fmt.Errorf("friendship item with malformed key %q/%q", pk, sk)
	}
	f := domain.Friendship{Follower: follower, Followed: followed}
	f.Timestamp, _ = getString(item, attrTimestamp)
	return f, nil
}

func getString(item Item, name string) (string, bool) {
	if s, ok := item[name].(*types.AttributeValueMemberS); ok {
		return s.Value, true
	}
	return "", false
}

// getStrings reads a list of strings stored as L, SS, or a single S (the tutorial's data
// keeps some lists as one string).
func getStrings(item Item, name string) []string {
	switch v := item[name].(type) {
	case *types.AttributeValueMemberL:
		out := make([]string, 0, len(v.Value))
		for _, e := range v.Value {
			if s, ok := e.(*types.AttributeValueMemberS); ok {
				out = append(out, s.Value)
			}
		}
		return out
	case *types.AttributeValueMemberSS:
		return append([]string(nil), v.Value...)
	case *types.AttributeValueMemberS:
		if strings.TrimSpace(v.Value) == "" {
			return []string{}
		}
		return []string{v.Value}
	}
	return nil
}

// getInt reads a counter; counters are whole numbers far below 2^63, and a missing or
// malformed one counts as zero rather than failing the whole read.
func getInt(item Item, name string) int {
	n, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil {
		f, ferr := strconv.ParseFloat(n.Value, 64)
		if ferr != nil {
			return 0
		}
		return int(f)
	}
	return v
}
