package dynamo

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

// The tutorial's items.json spells timestamps without a zone (2018-05-30T15:42:38), while the
// server keys photos by the canonical form (2018-05-30T15:42:38Z, see domain.TimestampLayout)
// and refuses zone-less timestamps from clients. Loaded as written, the tutorial's photos would
// sit under keys no request can name, and a re-upload at the same instant would make a second
// photo. So the loader reads a zone-less timestamp as UTC, the zone the tutorial's data was
// recorded in, and writes the canonical form into every key and attribute that holds one.

// zonelessTimestamp is the tutorial's spelling: an RFC 3339 date-time with no zone.
var zonelessTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?$`)

// canonicalLoadTimestamp returns ts in canonical form, reading a zone-less ts as UTC.
func canonicalLoadTimestamp(field, ts string) (string, error) {
	if zonelessTimestamp.MatchString(ts) {
		ts += "Z"
	}
	return domain.CanonicalTimestamp(field, ts)
}

// canonicalTimestamps rewrites the timestamps of a photo, reaction or friendship item into
// canonical form: the photo's timestamp in an SK (and in a reaction's photo attribute, which
// repeats it) and the timestamp attribute. Other items are returned unchanged. An item of ours
// whose timestamp is not a timestamp at all is refused: it could never be read back.
func canonicalTimestamps(item Item) (Item, error) {
	pk, _ := getString(item, attrPK)
	sk, _ := getString(item, attrSK)
	photoKeyed := strings.HasPrefix(sk, prefixPhoto)
	ours := photoKeyed || (strings.HasPrefix(pk, prefixUser) && strings.HasPrefix(sk, prefixFriend))
	if !ours {
		return item, nil
	}
	out := make(Item, len(item))
	for name, v := range item {
		out[name] = v
	}
	if photoKeyed {
		key, ok := photoKeyFromSK(sk)
		if !ok {
			return nil, fmt.Errorf("%s %q is not a photo key (PHOTO#<owner>#<timestamp>)", attrSK, sk)
		}
		ts, err := canonicalLoadTimestamp("the timestamp in "+attrSK, key.Timestamp)
		if err != nil {
			return nil, err
		}
		key.Timestamp = ts
		canonical := photoSK(key)
		out[attrSK] = str(canonical)
		if photo, ok := getString(item, attrPhoto); ok && photo == sk {
			out[attrPhoto] = str(canonical)
		}
	}
	if v, ok := item[attrTimestamp]; ok {
		s, isString := v.(*types.AttributeValueMemberS)
		if !isString {
			return nil, fmt.Errorf("attribute %s is not a string", attrTimestamp)
		}
		ts, err := canonicalLoadTimestamp("attribute "+attrTimestamp, s.Value)
		if err != nil {
			return nil, err
		}
		out[attrTimestamp] = str(ts)
	}
	return out, nil
}
