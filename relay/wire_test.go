package relay

import (
	"reflect"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestWire_RoundTrip(t *testing.T) {
	name := "Ann"
	photo := domain.Photo{Owner: "ann", Timestamp: "2024-01-01T00:00:00Z", URL: "https://x/y.jpg",
		Reactions: domain.ReactionCounts{domain.ReactionThumbsUp: 1, domain.ReactionHeart: 2, domain.ReactionSmiley: 0, domain.ReactionSunglasses: 3}}
	for _, c := range []domain.Change{
		{Op: domain.Added, New: domain.User{Username: "ann", Profile: domain.Profile{Name: &name, Interests: []string{"a"}}, FollowerCount: 4}},
		{Op: domain.Updated, Old: photo, New: photo},
		{Op: domain.Removed, Old: domain.Reaction{Username: "bob", Type: domain.ReactionSunglasses, Photo: photo.Key(), Timestamp: "2024-01-02T00:00:00Z"}},
		{Op: domain.Added, New: domain.Friendship{Follower: "bob", Followed: "ann", Timestamp: "2024-01-03T00:00:00Z"}},
		{Op: domain.Added, New: domain.FeedEntry{Reader: "bob", Photo: photo.Key()}},
		{Op: domain.Updated, Old: domain.SyncHead{Log: domain.SyncLog{User: "bob"}, Seq: 1}, New: domain.SyncHead{Log: domain.SyncLog{User: "bob"}, Seq: 2}},
	} {
		b, err := encode(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decode(b)
		if err != nil || !reflect.DeepEqual(got, c) {
			t.Errorf("%s round-trips to %+v, %v; want %+v", b, got, err, c)
		}
	}
	for _, bad := range []string{`{`, `{"op":1,"entity":"wink","new":{}}`, `{"op":1,"entity":"user","new":{"Username":7}}`} {
		if _, err := decode([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}
