package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// operation is one kind of request of the workload.
type operation struct {
	name string
	// about says what it is, for the command's help.
	about string
	// asCaller: the operation reads as the signed-in caller, so it needs a token.
	asCaller bool
	// write: the operation is a mutation.
	write bool
	// next builds the request a client sends next.
	next func(c *client) call
}

// call is one request about to be sent.
type call struct {
	document string
	vars     map[string]any
	// actor is the user the request acts as ("" for none): its token goes with the request when
	// the run has a signing secret.
	actor string
	// settle, when set, learns from the answer's error code ("" for success) what the next call
	// on the same thing must do.
	settle func(code string)
	// upload, when set, is the photo this call uploads: subscription mode times its arrival.
	upload *photoRef
	// flow, when set, is sent instead of the document: an operation of several requests
	// (uploadfile), timed as one.
	flow func(ctx context.Context, hc *http.Client, url, token string) (answer, error)
}

// The documents are what a mobile client of the app sends; tools/apollo-peer implements the same.
const (
	profileQuery     = `query Profile($u: ID!) { user(username: $u) { username name status interests pinnedImage followerCount followingCount } }`
	photosQuery      = `query Photos($u: ID!) { user(username: $u) { username photos(first: 20) { edges { cursor node { username timestamp url reactionCounts { total } } } pageInfo { hasNextPage endCursor } } } }`
	photoQuery       = `query Photo($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { username timestamp url reactionCounts { heart smiley thumbsUp sunglasses total } reactions(first: 20) { edges { node { type timestamp user { username name } } } } } }`
	followersQuery   = `query Followers($u: ID!) { user(username: $u) { followerCount followers(first: 20) { edges { node { timestamp follower { username name } } } } } }`
	followingQuery   = `query Following($u: ID!) { user(username: $u) { following(first: 10) { edges { node { followed { username photos(first: 5) { edges { node { timestamp url } } } } } } } } }`
	feedQuery        = `query Feed { feed(first: 20) { edges { cursor node { username timestamp url owner { name } reactionCounts { total } } } pageInfo { hasNextPage endCursor } } }`
	reactMutation    = `mutation React($i: ReactionInput!) { reactToPhoto(input: $i) { type timestamp photo { reactionCounts { total } } } }`
	unreactMutation  = `mutation Unreact($i: ReactionInput!) { removeReaction(input: $i) { type } }`
	followMutation   = `mutation Follow($i: FriendshipInput!) { followUser(input: $i) { timestamp follower { followingCount } followed { followerCount } } }`
	unfollowMutation = `mutation Unfollow($i: FriendshipInput!) { unfollowUser(input: $i) { timestamp } }`
	uploadMutation   = `mutation Upload($i: UploadPhotoInput!) { uploadPhoto(input: $i) { username timestamp } }`
	feedSubscribe    = `subscription { feedPhotoAdded { username timestamp } }`
)

// reactionTypes are the schema's ReactionType values.
var reactionTypes = []string{"HEART", "SMILEY", "THUMBS_UP", "SUNGLASSES"}

// operations are every operation a mix can name.
var operations = map[string]*operation{
	"profile": {name: "profile", about: "a user's profile",
		next: func(c *client) call { return userCall(profileQuery, c.user()) }},
	"photos": {name: "photos", about: "a user's 20 most recent photos with their reaction totals",
		next: func(c *client) call { return userCall(photosQuery, c.user()) }},
	"photo": {name: "photo", about: "a photo with its counters and 20 reactions with their users",
		next: func(c *client) call { return photoCall(c.photo()) }},
	"followers": {name: "followers", about: "a user's first 20 followers with their names",
		next: func(c *client) call { return userCall(followersQuery, c.user()) }},
	"following": {name: "following", about: "the first 10 users a user follows, with 5 photos of each",
		next: func(c *client) call { return userCall(followingQuery, c.user()) }},
	"feed": {name: "feed", about: "the caller's feed, 20 photos with owners and totals (needs --jwt-secret)", asCaller: true,
		next: func(c *client) call { return call{document: feedQuery, actor: c.user()} }},
	"react": {name: "react", about: "reacts to a photo, or removes the reaction the run made before", write: true,
		next: func(c *client) call {
			user, p, kind := c.user(), c.photo(), reactionTypes[c.rand.IntN(len(reactionTypes))]
			react, unreact := reactCalls(user, p, kind)
			return c.toggle(strings.Join([]string{"reaction", user, p.Owner, p.Timestamp, kind}, "|"), react, unreact, nil)
		}},
	"follow": {name: "follow", about: "follows a user, or unfollows one the run followed before", write: true,
		next: func(c *client) call {
			follower, followed := c.twoUsers()
			follow, unfollow := followCalls(follower, followed)
			sent := time.Now()
			return c.toggle("friendship|"+follower+"|"+followed, follow, unfollow,
				func() { c.pop.followed(follower, followed, sent) })
		}},
	"uploadfile": {name: "uploadfile", about: "uploads a photo file: createPhotoUpload, the file (a 1600 × 1200 JPEG) POSTed to the form, uploadPhoto(upload:)", write: true,
		next: func(c *client) call {
			p := c.newPhoto()
			file := sampleFile(c.rand.IntN(sampleFiles))
			return call{actor: p.Owner, upload: &p, flow: func(ctx context.Context, hc *http.Client, url, token string) (answer, error) {
				return uploadFile(ctx, hc, url, token, p, file)
			}}
		}},
	"upload": {name: "upload", about: "uploads a photo (to its owner's followers' feeds)", write: true,
		next: func(c *client) call {
			p := c.newPhoto()
			input := map[string]any{"owner": p.Owner, "timestamp": p.Timestamp, "url": "https://cdn.example.com/loadtest/" + p.Owner + "/" + p.Timestamp + ".jpg"}
			return call{document: uploadMutation, vars: map[string]any{"i": input}, actor: p.Owner, upload: &p}
		}},
}

// The calls of the operations whose requests the floor (package floor) answers from a recording:
// Requests builds the same ones, so the two cannot drift apart.

// userCall reads document about user u.
func userCall(document, u string) call {
	return call{document: document, vars: map[string]any{"u": u}}
}

// photoCall reads photo p with its reactions.
func photoCall(p photoRef) call {
	return call{document: photoQuery, vars: map[string]any{"o": p.Owner, "t": p.Timestamp}}
}

// reactCalls are user's reaction of kind to p, and its removal.
func reactCalls(user string, p photoRef, kind string) (react, unreact call) {
	input := map[string]any{"username": user, "owner": p.Owner, "timestamp": p.Timestamp, "type": kind}
	return call{document: reactMutation, vars: map[string]any{"i": input}, actor: user},
		call{document: unreactMutation, vars: map[string]any{"i": input}, actor: user}
}

// followCalls are follower's follow of followed, and its undoing.
func followCalls(follower, followed string) (follow, unfollow call) {
	input := map[string]any{"follower": follower, "followed": followed}
	return call{document: followMutation, vars: map[string]any{"i": input}, actor: follower},
		call{document: unfollowMutation, vars: map[string]any{"i": input}, actor: follower}
}

// OperationNames lists the operations a mix can name.
func OperationNames() []string {
	names := make([]string, 0, len(operations))
	for name := range operations {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Describe says what each operation does, a line each.
func Describe() string {
	var b strings.Builder
	for _, name := range OperationNames() {
		fmt.Fprintf(&b, "  %-10s %s\n", name, operations[name].about)
	}
	return b.String()
}
