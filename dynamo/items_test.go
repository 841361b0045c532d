package dynamo

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/domain"
)

func TestItems_RoundTrip(t *testing.T) {
	name, email := "Ada", "ada@example.com"
	u := domain.User{Username: "ada", Profile: domain.Profile{Name: &name, Email: &email, Interests: []string{"maths", "poetry"}}, FollowerCount: 3, FollowingCount: 5}
	if got, err := userFromItem(userItem(u)); err != nil || !reflect.DeepEqual(got, u) {
		t.Errorf("user round-trips to %+v, %v", got, err)
	}
	if _, ok := userItem(u)[attrVersion]; ok {
		t.Error("a profile at version 0 is written with a version attribute")
	}
	u.Version = 7
	if got, err := userFromItem(userItem(u)); err != nil || !reflect.DeepEqual(got, u) {
		t.Errorf("user at version 7 round-trips to %+v, %v", got, err)
	}
	p := domain.Photo{Owner: "ada", Timestamp: "2019-03-03T18:20:10", URL: "https://cdn.example.com/a.jpg",
		Reactions: domain.ReactionCounts{domain.ReactionHeart: 2, domain.ReactionThumbsUp: 1, domain.ReactionSmiley: 0, domain.ReactionSunglasses: 0}}
	if got, err := photoFromItem(photoItem(p)); err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("photo round-trips to %+v, %v", got, err)
	}
	r := domain.Reaction{Username: "bob", Type: domain.ReactionSunglasses, Photo: p.Key(), Timestamp: "2020-01-01T00:00:00"}
	if got, err := reactionFromItem(reactionItem(r)); err != nil || got != r {
		t.Errorf("reaction round-trips to %+v, %v", got, err)
	}
	f := domain.Friendship{Follower: "bob", Followed: "ada", Timestamp: "2020-01-01T00:00:00"}
	if got, err := friendshipFromItem(friendshipItem(f)); err != nil || got != f {
		t.Errorf("friendship round-trips to %+v, %v", got, err)
	}
}

// TestItems_TutorialShapes reads items shaped like the tutorial's items.json: interests kept as
// one string, counters missing, a projection that left the username out.
func TestItems_TutorialShapes(t *testing.T) {
	u, err := userFromItem(Item{
		"PK": str("USER#jacksonjason"), "SK": str("#METADATA#jacksonjason"),
		"name": str("John Perry"), "interests": str("hiking"),
	})
	if err != nil || u.Username != "jacksonjason" || *u.Name != "John Perry" || len(u.Interests) != 1 || u.FollowerCount != 0 {
		t.Errorf("user %+v, %v", u, err)
	}
	u, _ = userFromItem(Item{"username": str("x"), "interests": &types.AttributeValueMemberSS{Value: []string{"a", "b"}}, "followers": &types.AttributeValueMemberN{Value: "7.0"}})
	if len(u.Interests) != 2 || u.FollowerCount != 7 {
		t.Errorf("user %+v", u)
	}
	if _, err := userFromItem(Item{"name": str("nobody")}); err == nil {
		t.Error("a profile without username or key was accepted")
	}
	p, err := photoFromItem(Item{"PK": str("USER#a"), "SK": str("PHOTO#a#2018-05-30T15:42:38"), "location": str("https://x/y")})
	if err != nil || p.Timestamp != "2018-05-30T15:42:38" || p.Reactions.Total() != 0 {
		t.Errorf("photo %+v, %v", p, err)
	}
}

func TestProfileUpdate(t *testing.T) {
	expr, names, values := profileUpdate(domain.ProfileChanges{
		Set:    map[domain.ProfileField]any{domain.FieldStatus: "hi", domain.FieldInterests: []string{"a"}},
		Remove: []domain.ProfileField{domain.FieldAddress},
	})
	if expr != "SET #s0 = :s0, #s1 = :s1 REMOVE #r0" {
		t.Errorf("expression %q", expr)
	}
	if names["#s0"] != "interests" || names["#s1"] != "status" || names["#r0"] != "address" || len(values) != 2 {
		t.Errorf("names %v values %v", names, values)
	}
	_, _, values = profileUpdate(domain.ProfileChanges{Remove: []domain.ProfileField{domain.FieldAddress}})
	if values != nil {
		t.Error("a REMOVE-only update sends empty ExpressionAttributeValues, which DynamoDB refuses")
	}
}
