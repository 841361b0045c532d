package dynamo

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// Timestamps in keys take one form, the tutorial's (2018-05-30T15:42:38: UTC, whole seconds,
// no zone; see domain.TimestampLayout). The tutorial's items.json is written as it is. An
// items file in another spelling, such as an export of a table an earlier release wrote
// (2018-05-30T15:42:38Z), or one with an offset, is loaded in the canonical form, so that
// every photo it holds sits under the key the API names it by and an upload at the same
// instant is a conflict rather than a second photo.

// canonicalTimestamps returns item with the timestamps in its key, and in the attributes that
// hold or repeat one, in canonical form:
//
//   - a photo (USER#o / PHOTO#o#t) or a reaction (REACTION#… / PHOTO#o#t): t in the SK, the
//     reaction's photo attribute, which repeats the SK, and the timestamp attribute;
//   - a friendship (USER#… / #FRIEND#…): the timestamp attribute;
//   - a feed entry (FEED#r / t#o): t in the SK and the timestamp attribute, which repeats it;
//   - a deletion record (DELETION#o#t / #DELETION): t in the PK, the photo attribute and the
//     timestamp attribute (when the deletion began).
//
// Other items are returned as they are. An item of ours whose timestamp is not a timestamp at
// all is refused: it could never be read back. item itself is never changed.
func canonicalTimestamps(item Item) (Item, error) {
	k := keyOf(item)
	var canonical Key
	switch kindOf(k) {
	case kindPhoto, kindReaction:
		key, err := canonicalPhotoKey(attrSK, k.SK, photoKeyFromSK)
		if err != nil {
			return nil, err
		}
		canonical = Key{PK: k.PK, SK: photoSK(key)}
	case kindFriendship:
		canonical = k
	case kindFeedEntry:
		e, ok := feedEntryFromKey(k)
		if !ok {
			return nil, fmt.Errorf("%s %q is not a feed entry's (<timestamp>#<owner>)", attrSK, k.SK)
		}
		ts, err := domain.CanonicalTimestamp("the timestamp in "+attrSK, e.Photo.Timestamp)
		if err != nil {
			return nil, err
		}
		e.Photo.Timestamp = ts
		canonical = feedEntryKey(e)
	case kindDeletion:
		key, err := canonicalPhotoKey(attrPK, k.PK, photoKeyFromDeletionPK)
		if err != nil {
			return nil, err
		}
		canonical = photoDeletionKey(key)
	default:
		return item, nil
	}
	out := make(Item, len(item))
	for name, v := range item {
		out[name] = v
	}
	out[attrPK], out[attrSK] = str(canonical.PK), str(canonical.SK)
	if photo, ok := getString(item, attrPhoto); ok {
		if key, err := canonicalPhotoKey(attrPhoto, photo, photoKeyFromSK); err == nil {
			out[attrPhoto] = str(photoSK(key))
		}
	}
	if v, ok := item[attrTimestamp]; ok {
		s, isString := v.(*types.AttributeValueMemberS)
		if !isString {
			return nil, fmt.Errorf("attribute %s is not a string", attrTimestamp)
		}
		ts, err := domain.CanonicalTimestamp("attribute "+attrTimestamp, s.Value)
		if err != nil {
			return nil, err
		}
		out[attrTimestamp] = str(ts)
	}
	return out, nil
}

// canonicalPhotoKey reads the photo that s, the value of attribute name, names with parse,
// and returns it with its timestamp in canonical form.
func canonicalPhotoKey(name, s string, parse func(string) (domain.PhotoKey, bool)) (domain.PhotoKey, error) {
	key, ok := parse(s)
	if !ok {
		return domain.PhotoKey{}, fmt.Errorf("%s %q does not name a photo (<owner>#<timestamp>)", name, s)
	}
	ts, err := domain.CanonicalTimestamp("the timestamp in "+name, key.Timestamp)
	if err != nil {
		return domain.PhotoKey{}, err
	}
	key.Timestamp = ts
	return key, nil
}
