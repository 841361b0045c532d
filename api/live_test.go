package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/apitest"
	"github.com/quickphotos/quickphotos/live"
)

const photoChanged = `subscription($o: ID!, $t: String!) { photoChanged(owner: $o, timestamp: $t) {
  kind photo { reactionCounts { heart total } } reaction { type user { username } } } }`

type photoEvent struct {
	PhotoChanged struct {
		Kind  string
		Photo *struct {
			ReactionCounts struct{ Heart, Total int }
		}
		Reaction *struct {
			Type string
			User struct{ Username string }
		}
	}
}

func decodeEvent[T any](t *testing.T, r *apitest.Response) T {
	t.Helper()
	var v T
	r.Decode(t, &v)
	return v
}

// TestSubscriptions_PhotoChanged: a reaction and a deletion reach a graphql-ws subscriber of
// the photo, the deletion last, after which the subscription completes.
func TestSubscriptions_PhotoChanged(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	srv.MustCreateUsers(t, "owner", "fan")
	ts := apitest.Timestamp(1)
	srv.MustUploadPhoto(t, "owner", ts)
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "p", photoChanged, map[string]any{"o": "owner", "t": ts})
	// Subscribe returned once the server held the subscription, so the reaction reaches it.
	srv.MustReact(t, "fan", "owner", ts, "HEART")

	var kinds []string
	for len(kinds) < 2 {
		resp, ended := ws.Next(t, "p")
		if ended {
			t.Fatalf("the subscription ended after %v", kinds)
		}
		e := decodeEvent[photoEvent](t, resp).PhotoChanged
		kinds = append(kinds, e.Kind)
		switch e.Kind {
		case "REACTION_ADDED":
			if e.Reaction == nil || e.Reaction.Type != "HEART" || e.Reaction.User.Username != "fan" {
				t.Errorf("REACTION_ADDED with reaction %+v", e.Reaction)
			}
		case "UPDATED":
			if e.Photo == nil || e.Photo.ReactionCounts.Heart != 1 || e.Photo.ReactionCounts.Total != 1 {
				t.Errorf("UPDATED with photo %+v, want the counts after the reaction", e.Photo)
			}
		default:
			t.Errorf("event %s before the deletion", e.Kind)
		}
	}
	slices.Sort(kinds)
	if !slices.Equal(kinds, []string{"REACTION_ADDED", "UPDATED"}) {
		t.Fatalf("events %v, want a reaction added and the photo's counters updated", kinds)
	}

	if code := srv.DeletePhoto(t, "owner", ts).Code(); code != "" {
		t.Fatalf("delete: %s", code)
	}
	for {
		resp, ended := ws.Next(t, "p")
		if ended {
			t.Fatal("the subscription ended without a DELETED event")
		}
		e := decodeEvent[photoEvent](t, resp).PhotoChanged
		if e.Kind == "DELETED" {
			if e.Photo != nil {
				t.Errorf("DELETED with photo %+v", e.Photo)
			}
			break
		}
	}
	if _, ended := ws.Next(t, "p"); !ended {
		t.Error("an event after DELETED")
	}
}

// TestSubscriptions_WritesPastTheAPI: a profile written straight into the table, as any
// DynamoDB client would, reaches a subscriber over Server-Sent Events too.
func TestSubscriptions_WritesPastTheAPI(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	name := "Zoe"
	q := `subscription { userChanged(username: "zoe") { kind user { username name followerCount } } }`
	sse := srv.SubscribeSSE(t, q, nil)
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "u", q, nil)
	type userEvent struct {
		UserChanged struct {
			Kind string
			User *struct {
				Username, Name string
				FollowerCount  int
			}
		}
	}
	srv.WriteRaw(t, domain.Dataset{Users: []domain.User{{Username: "zoe", Profile: domain.Profile{Name: &name}, FollowerCount: 3}}})
	wsResp, _ := ws.Next(t, "u")
	for transport, resp := range map[string]*apitest.Response{"SSE": sse.Next(t), "graphql-ws": wsResp} {
		e := decodeEvent[userEvent](t, resp).UserChanged
		if e.Kind != "CREATED" || e.User == nil || e.User.Name != "Zoe" || e.User.FollowerCount != 3 {
			t.Errorf("%s: event %+v, want zoe CREATED as written", transport, e)
		}
	}
}

// TestSubscriptions_TheCallersOwn: followerAdded and feedPhotoAdded are the caller's, named by
// the token of connection_init; without one they are refused.
func TestSubscriptions_TheCallersOwn(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithLive(live.Config{}), apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob")

	anonymous := srv.DialWS(t, "")
	if code := anonymous.SubscribeRefused(t, "f", `subscription { followerAdded { follower { username } } }`, nil); code != "UNAUTHENTICATED" {
		t.Fatalf("followerAdded without a token: %s, want UNAUTHENTICATED", code)
	}
	if _, err := srv.TryDialWS("not-a-token"); err == nil {
		t.Error("a connection_init with a bad token was acknowledged")
	}

	ann := srv.DialWS(t, srv.Token(t, "ann"))
	ann.Subscribe(t, "f", `subscription { followerAdded { follower { username } followed { username } } }`, nil)
	ann.Subscribe(t, "feed", `subscription { feedPhotoAdded { owner { username } timestamp } }`, nil)
	srv.MustFollow(t, "bob", "ann")
	srv.MustFollow(t, "ann", "bob")
	var follower struct {
		FollowerAdded struct{ Follower, Followed struct{ Username string } }
	}
	resp, _ := ann.Next(t, "f")
	resp.Decode(t, &follower)
	if follower.FollowerAdded.Follower.Username != "bob" || follower.FollowerAdded.Followed.Username != "ann" {
		t.Errorf("followerAdded %+v, want bob following ann", follower)
	}

	srv.MustUploadPhoto(t, "bob", apitest.Timestamp(9))
	var photo struct {
		FeedPhotoAdded struct {
			Owner     struct{ Username string }
			Timestamp string
		}
	}
	resp, _ = ann.Next(t, "feed")
	resp.Decode(t, &photo)
	if photo.FeedPhotoAdded.Owner.Username != "bob" || photo.FeedPhotoAdded.Timestamp != apitest.Timestamp(9) {
		t.Errorf("feedPhotoAdded %+v, want bob's photo", photo)
	}
}

// TestSubscriptions_EveryInstanceDelivers: two server instances on one table, each with its
// own stream consumer, both deliver a change made through one of them.
func TestSubscriptions_EveryInstanceDelivers(t *testing.T) {
	one := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	two := one.Twin(t, live.Config{})
	q := `subscription { userChanged(username: "dee") { kind } }`
	a, b := one.DialWS(t, ""), two.DialWS(t, "")
	a.Subscribe(t, "u", q, nil)
	b.Subscribe(t, "u", q, nil)
	two.MustCreateUser(t, "dee")
	for name, ws := range map[string]*apitest.WS{"the instance written through": b, "the other": a} {
		resp, _ := ws.Next(t, "u")
		var e struct{ UserChanged struct{ Kind string } }
		resp.Decode(t, &e)
		if e.UserChanged.Kind != "CREATED" {
			t.Errorf("%s: %+v", name, e)
		}
	}
}

// TestSubscriptions_Limits: a connection holds at most PerConnection subscriptions, and the
// depth and cost limits apply to subscriptions as to queries.
func TestSubscriptions_Limits(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{PerConnection: 2}))
	ws := srv.DialWS(t, "")
	userChanged := func(i int) string {
		return fmt.Sprintf(`subscription { userChanged(username: "u%d") { kind } }`, i)
	}
	ws.Subscribe(t, "1", userChanged(1), nil)
	ws.Subscribe(t, "2", userChanged(2), nil)
	if code := ws.SubscribeRefused(t, "3", userChanged(3), nil); code != "LIMIT_EXCEEDED" {
		t.Fatalf("a third subscription on a connection capped at 2: %s", code)
	}
	deep := `subscription { userChanged(username: "a") { user { followers { edges { node { follower { followers { edges { node { follower { followers { edges { node { follower { username } } } } } } } } } } } } } } }`
	if code := ws.SubscribeRefused(t, "deep", deep, nil); code != "QUERY_LIMIT_EXCEEDED" {
		t.Fatalf("a subscription past the depth limit: %s", code)
	}
}

// TestSubscriptions_ASubscriberTooFarBehindIsTold: more changes at once than a subscriber's
// buffer holds end its subscription with LIMIT_EXCEEDED, over graphql-ws and SSE alike; the
// hub does not wait for it.
func TestSubscriptions_ASubscriberTooFarBehindIsTold(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{Buffer: 1}))
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "u", `subscription { userChanged(username: "flood") { kind } }`, nil)
	burst := make([]domain.Change, 10)
	for i := range burst {
		burst[i] = domain.Change{Op: domain.Updated, New: domain.User{Username: "flood", FollowerCount: i}}
	}
	if err := srv.Hub().Handle(t.Context(), burst); err != nil {
		t.Fatal(err)
	}
	for events := 0; ; events++ {
		resp, ended := ws.Next(t, "u")
		if resp != nil && len(resp.Errors) > 0 {
			if code := resp.Code(); code != "LIMIT_EXCEEDED" {
				t.Fatalf("ended with %s, want LIMIT_EXCEEDED", code)
			}
			break
		}
		if ended {
			t.Fatalf("the subscription completed after %d events without saying why", events)
		}
		if events > 2 {
			t.Fatalf("%d events delivered through a buffer of 1", events)
		}
	}
}

// TestSubscriptions_ConnectionCap: past MaxLiveConnections open ones, a new live connection is
// refused with 503, and is let in again once one closes.
func TestSubscriptions_ConnectionCap(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) { c.MaxLiveConnections = 1 }))
	first, err := srv.TryDialWS("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.TryDialWS(""); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("a second connection past a cap of 1: %v, want 503", err)
	}
	first.Close()
	apitest.Eventually(t, "a connection is let in after the first closed", func() (bool, string) {
		ws, err := srv.TryDialWS("")
		if err != nil {
			return false, err.Error()
		}
		ws.Close()
		return true, ""
	})
}
