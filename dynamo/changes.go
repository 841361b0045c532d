package dynamo

import (
	"cmp"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/quickphotos/quickphotos/domain"
)

// ChangeFromRecord reads one record of the table's change stream as a change to an entity.
// false for records of items that are no entity of the domain (stream checkpoints, deletion
// records), which consumers skip. The record must carry new and old images.
func ChangeFromRecord(r streamtypes.Record) (domain.Change, bool, error) {
	if r.Dynamodb == nil {
		return domain.Change{}, false, fmt.Errorf("stream record %v without its change", r.EventID)
	}
	op, err := changeOp(string(r.EventName))
	if err != nil {
		return domain.Change{}, false, err
	}
	var values streamValues
	keys := values.item(r.Dynamodb.Keys)
	if !isEntity(keys) {
		return domain.Change{}, false, nil
	}
	c, ok, err := changeOf(op, keys, values.item(r.Dynamodb.OldImage), values.item(r.Dynamodb.NewImage))
	c.ID = cmp.Or(aws.ToString(r.EventID), aws.ToString(r.Dynamodb.SequenceNumber))
	return c, ok, err
}

// isEntity reports whether the item of keys is an entity: much of a busy stream is the
// consumers' own items (the change logs and their records), known by their keys without
// reading their images.
func isEntity(keys Item) bool { return entityDecoder(keyOf(keys)) != nil }

// changeOp reads a stream record's eventName, as every reader of a stream spells it.
func changeOp(eventName string) (domain.ChangeOp, error) {
	switch eventName {
	case "INSERT":
		return domain.Added, nil
	case "MODIFY":
		return domain.Updated, nil
	case "REMOVE":
		return domain.Removed, nil
	}
	return 0, fmt.Errorf("stream record with event %q", eventName)
}

// changeOf reads a change to the item with key keys from its old and new images (nil where
// the item did not exist).
func changeOf(op domain.ChangeOp, keys, old, new Item) (domain.Change, bool, error) {
	k := keyOf(keys)
	decode := entityDecoder(k)
	if decode == nil {
		return domain.Change{}, false, nil
	}
	_, movedIn := new[attrMovedFrom]
	_, movedOut := old[attrMovedTo]
	if movedIn && op == domain.Added || movedOut && op == domain.Removed {
		// MigrateTimestamps moved the item between a key of an earlier release's form and
		// the canonical one (see migratetimestamps.go): the entity is neither new nor gone.
		// (The removals of moved reactions and feed entries pass as changes of items no one
		// names any more: no subscription names the old key, and the feed ignores them.)
		return domain.Change{}, false, nil
	}
	c := domain.Change{Op: op}
	var err error
	if old != nil && op != domain.Added {
		if c.Old, err = decode(old); err != nil {
			return domain.Change{}, false, fmt.Errorf("stream record of %s %s: %w", k.PK, k.SK, err)
		}
	}
	if new != nil && op != domain.Removed {
		if c.New, err = decode(new); err != nil {
			return domain.Change{}, false, fmt.Errorf("stream record of %s %s: %w", k.PK, k.SK, err)
		}
	}
	if c.Old == nil && c.New == nil {
		return domain.Change{}, false, fmt.Errorf("stream record of %s %s without images: the stream must be %s", k.PK, k.SK, tableStream.StreamViewType)
	}
	return c, true, nil
}

// entityDecoder returns the converter of the items with key k, nil when k is no entity's key.
func entityDecoder(k Key) func(Item) (any, error) {
	switch kindOf(k) {
	case kindUser:
		return asAny(userFromItem)
	case kindPhoto:
		return asAny(photoFromItem)
	case kindFriendship:
		return asAny(friendshipFromItem)
	case kindReaction:
		return asAny(reactionFromItem)
	case kindFeedEntry:
		return asAny(feedEntryFromItem)
	case kindSyncHead:
		return asAny(syncHeadFromItem)
	}
	return nil
}

func asAny[T any](decode func(Item) (T, error)) func(Item) (any, error) {
	return func(item Item) (any, error) {
		v, err := decode(item)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}

// streamValues converts the items of a stream record from the Streams API's types into the
// DynamoDB API's (the two SDK packages declare the same union separately), taking the string
// and number members, most of an item's values, from slabs rather than allocating each: the
// items are read into the domain's types and dropped, and a busy table's consumers convert
// two images of every write.
type streamValues struct {
	s []types.AttributeValueMemberS
	n []types.AttributeValueMemberN
}

// streamSlab is how many members a slab holds: a photo's two images are about fifty values.
const streamSlab = 16

func (c *streamValues) item(item map[string]streamtypes.AttributeValue) Item {
	if item == nil {
		return nil
	}
	out := make(Item, len(item))
	for name, v := range item {
		out[name] = c.value(v)
	}
	return out
}

func (c *streamValues) value(v streamtypes.AttributeValue) types.AttributeValue {
	switch v := v.(type) {
	case *streamtypes.AttributeValueMemberS:
		if len(c.s) == cap(c.s) {
			c.s = make([]types.AttributeValueMemberS, 0, streamSlab)
		}
		c.s = append(c.s, types.AttributeValueMemberS{Value: v.Value})
		return &c.s[len(c.s)-1]
	case *streamtypes.AttributeValueMemberN:
		if len(c.n) == cap(c.n) {
			c.n = make([]types.AttributeValueMemberN, 0, streamSlab)
		}
		c.n = append(c.n, types.AttributeValueMemberN{Value: v.Value})
		return &c.n[len(c.n)-1]
	case *streamtypes.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: v.Value}
	case *streamtypes.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Value}
	case *streamtypes.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: v.Value}
	case *streamtypes.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: v.Value}
	case *streamtypes.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: v.Value}
	case *streamtypes.AttributeValueMemberBS:
		return &types.AttributeValueMemberBS{Value: v.Value}
	case *streamtypes.AttributeValueMemberL:
		l := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = c.value(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case *streamtypes.AttributeValueMemberM:
		return &types.AttributeValueMemberM{Value: c.item(v.Value)}
	}
	return &types.AttributeValueMemberNULL{Value: true}
}
