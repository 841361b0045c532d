package loadtest

import (
	"fmt"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/sample"
)

// Request is one request of the load tool, as it sends it.
type Request struct {
	// Op is the operation that sends it.
	Op string
	// Body is the HTTP request's body, byte for byte as the tool sends it.
	Body []byte
	// Write says it is a mutation: the same document is sent with many inputs, and a server
	// answers it differently each time (timestamps, counters).
	Write bool
}

// FloorOperations are the operations whose requests Requests lists: the standard mix's.
var FloorOperations = []string{"profile", "photos", "photo", "followers", "following", "react", "follow"}

// Requests lists what the operations of FloorOperations send to servers holding the sample of
// users users made with seed: every distinct read request, then each mutation's document once
// (react, unreact, follow, unfollow), on a reaction and a friendship the sample does not hold,
// so that a server fresh with the sample answers each without error in the order listed.
func Requests(users int, seed uint64) ([]Request, error) {
	if users < 2 {
		return nil, fmt.Errorf("the sample must have at least 2 users, not %d", users)
	}
	d := sample.Generate(sample.Config{Users: users, Seed: seed})
	var calls []struct {
		op    string
		c     call
		write bool
	}
	add := func(op string, c call, write bool) {
		calls = append(calls, struct {
			op    string
			c     call
			write bool
		}{op, c, write})
	}
	for _, u := range d.Users {
		add("profile", userCall(profileQuery, u.Username), false)
		add("photos", userCall(photosQuery, u.Username), false)
		add("followers", userCall(followersQuery, u.Username), false)
		add("following", userCall(followingQuery, u.Username), false)
	}
	for _, p := range d.Photos {
		add("photo", photoCall(photoRef{p.Owner, p.Timestamp}), false)
	}
	user, photo, kind, err := newReaction(d)
	if err != nil {
		return nil, err
	}
	react, unreact := reactCalls(user, photo, kind)
	follower, followed, err := newFriendship(d)
	if err != nil {
		return nil, err
	}
	follow, unfollow := followCalls(follower, followed)
	add("react", react, true)
	add("react", unreact, true)
	add("follow", follow, true)
	add("follow", unfollow, true)

	reqs := make([]Request, len(calls))
	for i, c := range calls {
		body, err := c.c.body()
		if err != nil {
			return nil, err
		}
		reqs[i] = Request{Op: c.op, Body: body, Write: c.write}
	}
	return reqs, nil
}

// reactionType is the domain's type of each of the schema's ReactionType values.
var reactionType = map[string]domain.ReactionType{
	"HEART": domain.ReactionHeart, "SMILEY": domain.ReactionSmiley,
	"THUMBS_UP": domain.ReactionThumbsUp, "SUNGLASSES": domain.ReactionSunglasses,
}

// newReaction finds a reaction the dataset does not hold: the first user's, on the first photo
// and of the first type that leave one.
func newReaction(d *domain.Dataset) (string, photoRef, string, error) {
	held := map[domain.ReactionKey]bool{}
	for _, r := range d.Reactions {
		held[domain.ReactionKey{Username: r.Username, Type: r.Type, Photo: r.Photo}] = true
	}
	user := d.Users[0].Username
	for _, p := range d.Photos {
		for _, kind := range reactionTypes {
			k := domain.ReactionKey{Username: user, Type: reactionType[kind], Photo: domain.PhotoKey{Owner: p.Owner, Timestamp: p.Timestamp}}
			if !held[k] {
				return user, photoRef{p.Owner, p.Timestamp}, kind, nil
			}
		}
	}
	return "", photoRef{}, "", fmt.Errorf("the sample has no photo %s has not reacted to in every way", user)
}

// newFriendship finds two users of the dataset of whom the first does not follow the second.
func newFriendship(d *domain.Dataset) (string, string, error) {
	held := map[domain.FriendshipKey]bool{}
	for _, f := range d.Friendships {
		held[domain.FriendshipKey{Follower: f.Follower, Followed: f.Followed}] = true
	}
	for _, a := range d.Users {
		for _, b := range d.Users {
			if a.Username != b.Username && !held[domain.FriendshipKey{Follower: a.Username, Followed: b.Username}] {
				return a.Username, b.Username, nil
			}
		}
	}
	return "", "", fmt.Errorf("every user of the sample follows every other")
}
