package dynamo

import (
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/quickphotos/quickphotos/domain"
)

// toStream is streamValues.item's inverse, to build records from the items the store writes.
func toStream(item Item) map[string]streamtypes.AttributeValue {
	if item == nil {
		return nil
	}
	out := map[string]streamtypes.AttributeValue{}
	for name, v := range item {
		out[name] = toStreamValue(v)
	}
	return out
}

func toStreamValue(v types.AttributeValue) streamtypes.AttributeValue {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return &streamtypes.AttributeValueMemberS{Value: v.Value}
	case *types.AttributeValueMemberN:
		return &streamtypes.AttributeValueMemberN{Value: v.Value}
	case *types.AttributeValueMemberBOOL:
		return &streamtypes.AttributeValueMemberBOOL{Value: v.Value}
	case *types.AttributeValueMemberL:
		l := make([]streamtypes.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = toStreamValue(e)
		}
		return &streamtypes.AttributeValueMemberL{Value: l}
	case *types.AttributeValueMemberM:
		return &streamtypes.AttributeValueMemberM{Value: toStream(v.Value)}
	}
	panic("toStreamValue: a type the test does not use")
}

func record(event streamtypes.OperationType, old, new Item) streamtypes.Record {
	keys := old
	if keys == nil {
		keys = new
	}
	return streamtypes.Record{EventID: aws.String("e"), EventName: event, Dynamodb: &streamtypes.StreamRecord{
		Keys: toStream(keyOf(keys).item()), OldImage: toStream(old), NewImage: toStream(new),
	}}
}

func TestChangeFromRecord(t *testing.T) {
	name := "Ada"
	user := domain.User{Username: "ada", Profile: domain.Profile{Name: &name, Interests: []string{"maths"}}, FollowerCount: 2}
	renamed := user
	renamed.Name = nil
	photo := domain.Photo{Owner: "ada", Timestamp: "2024-01-01T00:00:00", URL: "https://x/y.jpg", Reactions: domain.ReactionCounts{domain.ReactionThumbsUp: 0, domain.ReactionHeart: 1, domain.ReactionSmiley: 0, domain.ReactionSunglasses: 0}}
	reaction := domain.Reaction{Username: "bob", Type: domain.ReactionHeart, Photo: photo.Key(), Timestamp: "2024-01-02T00:00:00"}
	friendship := domain.Friendship{Follower: "bob", Followed: "ada", Timestamp: "2024-01-03T00:00:00"}
	entry := domain.FeedEntry{Reader: "bob", Photo: photo.Key()}
	checkpoint := checkpointKey("feed", "shard-1").item()
	moved := func(item Item) Item {
		item[attrMovedFrom] = str("PHOTO#ada#2024-01-01T00:00:00Z")
		return item
	}
	movedOut := func(item Item) Item {
		item[attrMovedTo] = str("PHOTO#ada#2024-01-01T00:00:00")
		return item
	}

	for _, tc := range []struct {
		name   string
		record streamtypes.Record
		want   domain.Change
		skip   bool
	}{
		{"a new profile", record(streamtypes.OperationTypeInsert, nil, userItem(user)), domain.Change{Op: domain.Added, New: user}, false},
		{"a profile updated", record(streamtypes.OperationTypeModify, userItem(user), userItem(renamed)), domain.Change{Op: domain.Updated, Old: user, New: renamed}, false},
		{"a photo removed", record(streamtypes.OperationTypeRemove, photoItem(photo), nil), domain.Change{Op: domain.Removed, Old: photo}, false},
		{"a reaction", record(streamtypes.OperationTypeInsert, nil, reactionItem(reaction)), domain.Change{Op: domain.Added, New: reaction}, false},
		{"a friendship", record(streamtypes.OperationTypeInsert, nil, friendshipItem(friendship)), domain.Change{Op: domain.Added, New: friendship}, false},
		{"a feed entry", record(streamtypes.OperationTypeInsert, nil, feedEntryItem(entry, time.Unix(1700000000, 0))), domain.Change{Op: domain.Added, New: entry}, false},
		{"a checkpoint is no entity", record(streamtypes.OperationTypeInsert, nil, checkpoint), domain.Change{}, true},
		// A client mutation mark, even one holding a removed photo, is no entity: the feed's
		// fan-out and the live hub never see it.
		{"a client mutation mark is no entity", record(streamtypes.OperationTypeInsert, nil, markItem(&domain.MutationMark{Caller: "ada", ID: "m-1"}, markOutcome{removed: photoItem(photo)}, time.Unix(1700000000, 0))), domain.Change{}, true},
		{"a client mutation mark expiring", record(streamtypes.OperationTypeRemove, markItem(&domain.MutationMark{Caller: "ada", ID: "m-1"}, markOutcome{node: user.NodeKey()}, time.Unix(1700000000, 0)), nil), domain.Change{}, true},
		// MigrateTimestamps moving an earlier release's key is no upload, reaction or feed
		// entry: fan-out and subscriptions skip it. Later changes of the item are changes.
		{"a photo moved to its canonical key", record(streamtypes.OperationTypeInsert, nil, moved(photoItem(photo))), domain.Change{}, true},
		{"a reaction moved", record(streamtypes.OperationTypeInsert, nil, moved(reactionItem(reaction))), domain.Change{}, true},
		{"a feed entry moved", record(streamtypes.OperationTypeInsert, nil, moved(feedEntryItem(entry, time.Unix(1700000000, 0)))), domain.Change{}, true},
		{"a photo's old item removed once moved", record(streamtypes.OperationTypeRemove, movedOut(photoItem(photo)), nil), domain.Change{}, true},
		{"a moved photo updated", record(streamtypes.OperationTypeModify, moved(photoItem(photo)), moved(photoItem(photo))), domain.Change{Op: domain.Updated, Old: photo, New: photo}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := ChangeFromRecord(tc.record)
			if err != nil || ok == tc.skip {
				t.Fatalf("ok %v, err %v; want ok %v", ok, err, !tc.skip)
			}
			if tc.want.Op != 0 {
				tc.want.ID = "e" // the record's eventID
			}
			if !tc.skip && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("change %+v, want %+v", got, tc.want)
			}
		})
	}

	t.Run("a record without images is refused", func(t *testing.T) {
		r := record(streamtypes.OperationTypeInsert, nil, userItem(user))
		r.Dynamodb.NewImage = nil
		if _, _, err := ChangeFromRecord(r); err == nil {
			t.Error("a KEYS_ONLY record was read as a change")
		}
	})
}
