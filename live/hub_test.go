package live

import (
	"context"
	"errors"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestTopicOf(t *testing.T) {
	photo := domain.Photo{Owner: "ann", Timestamp: "2024-01-01T00:00:00Z"}
	for _, tc := range []struct {
		name   string
		change domain.Change
		want   Topic
		ok     bool
	}{
		{"a photo updated", domain.Change{Op: domain.Updated, Old: photo, New: photo}, PhotoTopic(photo.Key()), true},
		{"a reaction removed", domain.Change{Op: domain.Removed, Old: domain.Reaction{Username: "bob", Photo: photo.Key()}}, PhotoTopic(photo.Key()), true},
		{"a profile created", domain.Change{Op: domain.Added, New: domain.User{Username: "cy"}}, UserTopic("cy"), true},
		{"a follow", domain.Change{Op: domain.Added, New: domain.Friendship{Follower: "bob", Followed: "ann"}}, FollowersTopic("ann"), true},
		{"an unfollow is no new follower", domain.Change{Op: domain.Removed, Old: domain.Friendship{Follower: "bob", Followed: "ann"}}, FollowersTopic("ann"), false},
		{"a feed entry", domain.Change{Op: domain.Added, New: domain.FeedEntry{Reader: "bob", Photo: photo.Key()}}, FeedTopic("bob"), true},
		{"an expired feed entry", domain.Change{Op: domain.Removed, Old: domain.FeedEntry{Reader: "bob", Photo: photo.Key()}}, FeedTopic("bob"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := topicOf(tc.change)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Errorf("topic %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if UserTopic("a") == FollowersTopic("a") || PhotoTopic(domain.PhotoKey{Owner: "a", Timestamp: "b"}) == UserTopic("a\x00b") {
		t.Error("topics of different kinds compare equal")
	}
}

func userAdded(name string) domain.Change {
	return domain.Change{Op: domain.Added, New: domain.User{Username: name}}
}

// TestHub_ASlowSubscriberIsEndedNotWaitedFor: a subscriber whose buffer is full when a change
// comes is ended with ErrLagged; Handle never waits, and the others get every change.
func TestHub_ASlowSubscriberIsEndedNotWaitedFor(t *testing.T) {
	h := NewHub(Config{Buffer: 2})
	ctx := context.Background()
	slow, _ := h.Subscribe(ctx, UserTopic("ann"))
	reader, _ := h.Subscribe(ctx, UserTopic("ann"))
	other, _ := h.Subscribe(ctx, UserTopic("bob"))
	got := make(chan domain.Change, 10)
	for i := 0; i < 3; i++ {
		if err := h.Handle(ctx, []domain.Change{userAdded("ann")}); err != nil {
			t.Fatal(err)
		}
		got <- <-reader.Changes()
	}
	n := 0
	for range slow.Changes() { // two buffered, then closed
		n++
	}
	if n != 2 || !errors.Is(slow.Err(), ErrLagged) || domain.ErrorCode(slow.Err()) != domain.LimitExceeded {
		t.Errorf("the slow subscriber got %d changes and %v; want 2 and ErrLagged", n, slow.Err())
	}
	if len(got) != 3 || reader.Err() != nil {
		t.Errorf("the reader got %d changes and %v; want 3 and no error", len(got), reader.Err())
	}
	select {
	case c := <-other.Changes():
		t.Errorf("bob's subscriber got %+v", c)
	default:
	}
	if s := h.Stats(); s.Subscriptions != 2 || s.Lagged != 1 || s.Delivered != 5 {
		t.Errorf("stats %+v, want 2 subscriptions, 1 lagged, 5 delivered", s)
	}
	reader.Close()
	reader.Close() // twice is fine
	if s := h.Stats(); s.Subscriptions != 1 {
		t.Errorf("after Close: %d subscriptions", s.Subscriptions)
	}
}

func TestHub_SubscriptionsPerConnection(t *testing.T) {
	h := NewHub(Config{PerConnection: 2})
	conn := WithConnection(context.Background())
	a, err1 := h.Subscribe(conn, UserTopic("a"))
	_, err2 := h.Subscribe(conn, UserTopic("b"))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if _, err := h.Subscribe(conn, UserTopic("c")); domain.ErrorCode(err) != domain.LimitExceeded {
		t.Fatalf("a third subscription: %v, want LimitExceeded", err)
	}
	if _, err := h.Subscribe(WithConnection(context.Background()), UserTopic("c")); err != nil {
		t.Errorf("another connection: %v", err)
	}
	a.Close()
	if _, err := h.Subscribe(conn, UserTopic("c")); err != nil {
		t.Errorf("after one closed: %v", err)
	}
}

func TestHub_CloseEndsEverySubscription(t *testing.T) {
	h := NewHub(Config{})
	a, _ := h.Subscribe(context.Background(), UserTopic("a"))
	b, _ := h.Subscribe(context.Background(), FeedTopic("b"))
	h.Close()
	for _, s := range []*Subscription{a, b} {
		if _, open := <-s.Changes(); open || s.Err() != nil {
			t.Errorf("after Close: open %v, err %v", open, s.Err())
		}
	}
	if n := h.Stats().Subscriptions; n != 0 {
		t.Errorf("%d subscriptions after Close", n)
	}
}
