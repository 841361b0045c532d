package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// The seeded model test of offline sync (docs/offline-sync.md). Each seed is a small world:
// three to five users, each with one or two devices, on a server with authentication, the
// feed's consumer (which writes the change logs) and a crash injected between a mutation's
// commit and its answer. Devices go offline and online at random. Offline, a device queues
// mutations, each with a client mutation id, made from what it knows (its own profile's
// version for updateUser's expectedVersion); online, it sends its queue in order, some
// mutations twice, some into a crash, whose lost answer it gets by sending the same mutation
// with the same id again, and it pulls the changes after its cursor. Meanwhile the other
// devices and an outside writer (a plain DynamoDB client: photos put, profile names updated,
// past the API) change the scope. At the end every device sends what it queued and catches
// up, and its state must equal a fresh read of its scope.
//
// A device's state is built only from its first full read of the scope (after starting its
// sync) and the changes it pulls: an upsert stores the fields below, read from the change's
// node; a deletion drops the object. What is compared, per the scope's contract, is the set of
// objects by global id (which names the object's key: a reaction's user, type and photo, a
// friendship's two users) and of each:
//
//	own profile          name, status, pinnedImage, interests, version, followerCount,
//	                     followingCount
//	own photos           timestamp, url, reactionCounts (the owner's counters are in the scope)
//	feed photos          owner, timestamp, url (their counters are not in the contract)
//	reactions            type, timestamp: those on own photos and those made
//	friendships          timestamp: followers and followed
//	followed profiles    name, status, pinnedImage, interests, version (their counters are
//	                     not in the contract)
//
// Each mutation's first answer (what every send of it must repeat: see modelUpload, or the
// error's code and message) is recorded, and every later send of it must answer the same; a
// crashed send has no answer, and the next one gives the first. CONFLICT and NOT_FOUND
// are outcomes a device lives with (a stale version, a follow made already, a photo deleted by
// the user's other device); any other error fails the seed.
//
// Seeds share a server, a group at a time, each seed under usernames of its own. Replaying a
// seed (`go test ./api -run 'TestSync_Model/.*/seed=17$'`) replays its schedule; how far
// behind the logs are when a device pulls depends on timing, and with it the versions a
// device expects. QUICKPHOTOS_SYNC_SEEDS sets how many seeds run (syncModelSeeds), and
// QUICKPHOTOS_SYNC_FANOUT_LIMIT and QUICKPHOTOS_SYNC_BACKFILL the feed (syncModelFeed).
//
// Every other group of seeds has users popular from two followers (syncModelFeeds), whose
// followers read their public logs beside their own, with a backfill above any world's photos
// per user: a follow of a popular user brings its latest --feed-backfill photos, while the
// feed merges all of them (docs/offline-sync.md states that edge of the scope).
func TestSync_Model(t *testing.T) {
	seeds := syncModelSeeds(t)
	feeds := syncModelFeeds(t)
	const perServer = 25
	for lo := 0; lo < seeds; lo += perServer {
		hi := min(lo+perServer, seeds)
		feedCfg := feeds[lo/perServer%len(feeds)]
		t.Run(fmt.Sprintf("seeds=%d-%d", lo, hi-1), func(t *testing.T) {
			t.Parallel() // the groups' servers share nothing
			t.Logf("feed: backfill %d, popular from %d followers", feedCfg.Backfill, feedCfg.FanOutLimit)
			crash := &crashServedCommit{}
			srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithFeed(feedCfg),
				apitest.WithStoreObserver(crash),
				// This test counts no requests: a short batch window keeps its thousands of
				// requests from waiting out apitest.BatchWait each.
				apitest.WithConfig(func(c *api.Config) { c.BatchWait = time.Millisecond }))
			var tally modelTally
			for seed := lo; seed < hi; seed++ {
				t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
					runSyncModel(t, srv, crash, uint64(seed), &tally)
				})
			}
			srv.MustBeConsistent(t)
			t.Logf("%+v", tally)
			// Seeds that never crashed, replayed, were refused or written to from outside
			// would not test what this test claims to (one seed run alone may not).
			if tally.Seeds >= 10 && (tally.Crashes == 0 || tally.Replays == 0 || tally.Refusals == 0 || tally.Outside == 0 || tally.Changes == 0) {
				t.Errorf("%d seeds did not exercise every part of the model: %+v", tally.Seeds, tally)
			}
		})
	}
}

// syncModelSeeds is how many seeds TestSync_Model runs: QUICKPHOTOS_SYNC_SEEDS when set; else
// 250 on the embedded engine (about 40 s on two cores), and 25 with -short or on DynamoDB
// Local, whose requests take several times as long.
func syncModelSeeds(t *testing.T) int {
	if v := os.Getenv("QUICKPHOTOS_SYNC_SEEDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("QUICKPHOTOS_SYNC_SEEDS=%q: want a positive number", v)
		}
		return n
	}
	if testing.Short() || apitest.Backend() == apitest.StoreDynamoDBLocal {
		return 25
	}
	return 250
}

// modelTally counts what a group of seeds did.
type modelTally struct {
	Seeds, Mutations, Crashes, Replays, Refusals, Outside, Pulls, Changes int
}

// syncModelFeeds are the feed configurations the groups of seeds take in turn: a backfill of 3
// photos, which a world's users often pass, with no user popular; and users popular from 2
// followers, with a backfill above any world's photos per user (see TestSync_Model).
// QUICKPHOTOS_SYNC_FANOUT_LIMIT and QUICKPHOTOS_SYNC_BACKFILL, when set, make every group's.
func syncModelFeeds(t *testing.T) []feed.Config {
	limit, backfill := os.Getenv("QUICKPHOTOS_SYNC_FANOUT_LIMIT"), os.Getenv("QUICKPHOTOS_SYNC_BACKFILL")
	if limit == "" && backfill == "" {
		return []feed.Config{{Backfill: 3, FanOutLimit: feed.DefaultFanOutLimit}, {Backfill: 100, FanOutLimit: 2}}
	}
	cfg := feed.Config{Backfill: 3, FanOutLimit: feed.DefaultFanOutLimit}
	for name, field := range map[string]*int{"QUICKPHOTOS_SYNC_FANOUT_LIMIT": &cfg.FanOutLimit, "QUICKPHOTOS_SYNC_BACKFILL": &cfg.Backfill} {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				t.Fatalf("%s=%q: want a positive number", name, v)
			}
			*field = n
		}
	}
	return []feed.Config{cfg}
}

// crashServedCommit is crashAfterCommit for a server with stream consumers beside it: once
// armed, it fails the next TransactWriteItems that commits for a request the API serves (not
// the consumers' writes, whose goroutines a panic would end), before the API answers.
type crashServedCommit struct {
	mu           sync.Mutex
	armed, fired bool
}

func (c *crashServedCommit) arm() {
	c.mu.Lock()
	c.armed, c.fired = true, false
	c.mu.Unlock()
}

// disarm ends the arming and reports whether the crash happened since arm.
func (c *crashServedCommit) disarm() (fired bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fired = c.fired
	c.armed, c.fired = false, false
	return fired
}

func (c *crashServedCommit) BeginRequest(ctx context.Context, operation, _ string) (context.Context, func(dynamo.RequestOutcome)) {
	served := ctx.Value(http.LocalAddrContextKey) != nil
	return ctx, func(o dynamo.RequestOutcome) {
		c.mu.Lock()
		crash := c.armed && served && operation == "TransactWriteItems" && o.Err == nil
		if crash {
			c.armed, c.fired = false, true
		}
		c.mu.Unlock()
		if crash {
			panic("the server dies after the commit")
		}
	}
}

// The fields a device keeps of each object of its scope (see TestSync_Model).
type (
	profileFields struct {
		Name, Status, PinnedImage, Interests string
		Version                              int
	}
	ownProfile struct {
		profileFields
		FollowerCount, FollowingCount int
	}
	ownPhoto struct {
		Timestamp, URL string
		Counts         modelCounts
	}
	feedPhoto        struct{ Owner, Timestamp, URL string }
	reactionFields   struct{ Type, Timestamp string }
	friendshipFields struct{ Timestamp string }
	modelCounts      struct{ Heart, Smiley, ThumbsUp, Sunglasses, Total int }
)

// scopeState is what a device knows of its scope, each object by its global id.
type scopeState struct {
	Profile   ownProfile
	Photos    map[string]ownPhoto
	Feed      map[string]feedPhoto
	Reactions map[string]reactionFields
	Follows   map[string]friendshipFields
	Followed  map[string]profileFields
}

func newScopeState() scopeState {
	return scopeState{Photos: map[string]ownPhoto{}, Feed: map[string]feedPhoto{}, Reactions: map[string]reactionFields{},
		Follows: map[string]friendshipFields{}, Followed: map[string]profileFields{}}
}

// diff lists what differs between a device's state and the scope read afresh.
func (s scopeState) diff(fresh scopeState) []string {
	var out []string
	if s.Profile != fresh.Profile {
		out = append(out, fmt.Sprintf("profile: device %+v, fresh %+v", s.Profile, fresh.Profile))
	}
	out = append(out, mapDiff("photo", s.Photos, fresh.Photos)...)
	out = append(out, mapDiff("feed photo", s.Feed, fresh.Feed)...)
	out = append(out, mapDiff("reaction", s.Reactions, fresh.Reactions)...)
	out = append(out, mapDiff("friendship", s.Follows, fresh.Follows)...)
	out = append(out, mapDiff("followed profile", s.Followed, fresh.Followed)...)
	return out
}

func mapDiff[V comparable](what string, device, fresh map[string]V) []string {
	var out []string
	for id, v := range device {
		if f, ok := fresh[id]; !ok {
			out = append(out, fmt.Sprintf("%s %s %+v: on the device, not in the scope", what, readable(id), v))
		} else if f != v {
			out = append(out, fmt.Sprintf("%s %s: device %+v, fresh %+v", what, readable(id), v, f))
		}
	}
	for id, f := range fresh {
		if _, ok := device[id]; !ok {
			out = append(out, fmt.Sprintf("%s %s %+v: in the scope, not on the device", what, readable(id), f))
		}
	}
	sort.Strings(out)
	return out
}

// scopeNode is an object of the scope as the queries below select it, whatever its type.
type scopeNode struct {
	ID                            string
	Username                      string // a User's, or a Photo's owner
	Name, Status, PinnedImage     *string
	Interests                     []string
	Version                       int
	FollowerCount, FollowingCount int
	Timestamp, URL, Type          string
	ReactionCounts                modelCounts
}

// readable spells a global id as the key it names, for the account of a failure.
func readable(id string) string {
	k, err := domain.ParseNodeID("id", id)
	if err != nil {
		return id
	}
	return fmt.Sprintf("%T%+v", k, k)
}

func optional(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

func (n scopeNode) profile() profileFields {
	return profileFields{Name: optional(n.Name), Status: optional(n.Status), PinnedImage: optional(n.PinnedImage),
		Interests: strings.Join(n.Interests, "|"), Version: n.Version}
}

func (n scopeNode) reaction() reactionFields {
	return reactionFields{Type: n.Type, Timestamp: n.Timestamp}
}

func (n scopeNode) friendship() friendshipFields {
	return friendshipFields{Timestamp: n.Timestamp}
}

const scopeFragment = `fragment Scope on Node { id
  ... on User { username name status pinnedImage interests version followerCount followingCount }
  ... on Photo { username timestamp url reactionCounts { heart smiley thumbsUp sunglasses total } }
  ... on Reaction { type timestamp }
  ... on Friendship { timestamp } }`

const modelChangesQuery = `query($first: Int, $after: String) { viewer { changes(first: $first, after: $after) {
    edges { node { objectId objectType operation version node { ...Scope } } }
    pageInfo { hasNextPage } cursor } } }
` + scopeFragment

// The fresh read of a scope, in three queries that stay within the server's cost limit. A
// world's users have at most a few dozen of each object, within these pages (checked).
const (
	freshProfileQuery = `{ viewer { ...Scope
    followers(first: 10) { edges { node { ...Scope } } pageInfo { hasNextPage } }
    following(first: 10) { edges { node { ...Scope followed { id ...Scope } } } pageInfo { hasNextPage } }
    reactions(first: 60) { edges { node { ...Scope } } pageInfo { hasNextPage } } } }
` + scopeFragment
	freshPhotosQuery = `{ viewer { photos(first: 30) { edges { node { ...Scope
    reactions(first: 20) { edges { node { ...Scope } } pageInfo { hasNextPage } } } } pageInfo { hasNextPage } } } }
` + scopeFragment
	freshFeedQuery = `{ feed(first: 100) { edges { node { ...Scope } } pageInfo { hasNextPage } } }
` + scopeFragment
)

type pageOf[N any] struct {
	Edges    []struct{ Node N }
	PageInfo struct{ HasNextPage bool }
}

// readScope reads user's scope afresh, through the ordinary queries.
func readScope(t *testing.T, client *apitest.Server) scopeState {
	t.Helper()
	s := newScopeState()
	var profile struct {
		Viewer struct {
			scopeNode
			Followers pageOf[scopeNode]
			Following pageOf[struct {
				scopeNode
				Followed scopeNode
			}]
			Reactions pageOf[scopeNode]
		}
	}
	client.Query(t, freshProfileQuery, nil).Decode(t, &profile)
	v := profile.Viewer
	if v.Followers.PageInfo.HasNextPage || v.Following.PageInfo.HasNextPage || v.Reactions.PageInfo.HasNextPage {
		t.Fatal("a list of the scope is longer than the fresh read's page")
	}
	s.Profile = ownProfile{v.profile(), v.FollowerCount, v.FollowingCount}
	for _, e := range v.Followers.Edges {
		s.Follows[e.Node.ID] = e.Node.friendship()
	}
	for _, e := range v.Following.Edges {
		n := e.Node
		s.Follows[n.ID] = n.friendship()
		s.Followed[n.Followed.ID] = n.Followed.profile()
	}
	for _, e := range v.Reactions.Edges {
		s.Reactions[e.Node.ID] = e.Node.reaction()
	}

	var photos struct {
		Viewer struct {
			Photos pageOf[struct {
				scopeNode
				Reactions pageOf[scopeNode]
			}]
		}
	}
	client.Query(t, freshPhotosQuery, nil).Decode(t, &photos)
	if photos.Viewer.Photos.PageInfo.HasNextPage {
		t.Fatal("more photos than the fresh read's page")
	}
	for _, e := range photos.Viewer.Photos.Edges {
		p := e.Node
		s.Photos[p.ID] = ownPhoto{Timestamp: p.Timestamp, URL: p.URL, Counts: p.ReactionCounts}
		if p.Reactions.PageInfo.HasNextPage {
			t.Fatal("more reactions on a photo than the fresh read's page")
		}
		for _, r := range p.Reactions.Edges {
			s.Reactions[r.Node.ID] = r.Node.reaction()
		}
	}

	var feedPage struct{ Feed pageOf[scopeNode] }
	client.Query(t, freshFeedQuery, nil).Decode(t, &feedPage)
	if feedPage.Feed.PageInfo.HasNextPage {
		t.Fatal("a feed longer than the fresh read's page")
	}
	for _, e := range feedPage.Feed.Edges {
		p := e.Node
		s.Feed[p.ID] = feedPhoto{Owner: p.Username, Timestamp: p.Timestamp, URL: p.URL}
	}
	return s
}

// modelDevice is one device of a user in the model: its cursor, its state, and its queue of
// mutations not yet answered.
type modelDevice struct {
	name, user string
	client     *apitest.Server
	synced     bool // it started its sync and read its scope
	online     bool
	cursor     string
	state      scopeState
	queue      []*queuedMutation
	answered   []*queuedMutation
	ids        int
	// pulls records each page's changes, for the account of a failure.
	pulls []string
}

// queuedMutation is a mutation a device made, with its client mutation id, and its first
// answer once it got one.
type queuedMutation struct {
	id, doc string
	vars    map[string]any
	sends   int
	outcome *mutationOutcome
}

// mutationOutcome is an answer: the data, or the first error's code and message.
type mutationOutcome struct {
	data          string
	code, message string
}

func (o mutationOutcome) String() string {
	if o.code != "" {
		return o.code + ": " + o.message
	}
	return o.data
}

// modelWorld is one seed's world.
type modelWorld struct {
	t       *testing.T
	srv     *apitest.Server
	crash   *crashServedCommit
	tally   *modelTally
	rng     *rand.Rand
	prefix  string
	users   []string
	devices []*modelDevice
	setup   map[string]*modelDevice // the users' writers before the devices start
	// photos are the photos made with a timestamp the seed chose (by the API or the outside
	// writer), which mutations may name, and reactions the reactions mutations named.
	photos    []domain.PhotoKey
	reactions []domain.ReactionKey
	// follows are the follows as the mutations' answers left them, by follower.
	follows map[string]map[string]bool
	stamps  int
	// log records what happened, for the account of a failure.
	log []string
}

// The mutations a device sends. Each answers with what every send of it must answer alike:
// a replay answers with the object as it is now, and an object deleted and made again under
// the same key (a photo at the same timestamp, a reaction or a follow made again) is the new
// one, with its own url or timestamp; a removal answers with the object as it was removed.
const (
	modelUpload   = `mutation($in: UploadPhotoInput!) { uploadPhoto(input: $in) { id timestamp } }`
	modelDelete   = `mutation($o: ID!, $t: String!, $m: String) { deletePhoto(owner: $o, timestamp: $t, clientMutationId: $m) { id timestamp url } }`
	modelReact    = `mutation($in: ReactionInput!) { reactToPhoto(input: $in) { id type } }`
	modelUnreact  = `mutation($in: ReactionInput!) { removeReaction(input: $in) { id type timestamp } }`
	modelFollow   = `mutation($in: FriendshipInput!) { followUser(input: $in) { id } }`
	modelUnfollow = `mutation($in: FriendshipInput!) { unfollowUser(input: $in) { id timestamp } }`
	modelUpdate   = `mutation($u: ID!, $in: UpdateUserInput!) { updateUser(username: $u, input: $in) { id username } }`
)

var modelReactionTypes = []struct {
	name string
	typ  domain.ReactionType
}{{"HEART", domain.ReactionHeart}, {"SMILEY", domain.ReactionSmiley}, {"THUMBS_UP", domain.ReactionThumbsUp}, {"SUNGLASSES", domain.ReactionSunglasses}}

// runSyncModel runs one seed's world on srv (see TestSync_Model).
func runSyncModel(t *testing.T, srv *apitest.Server, crash *crashServedCommit, seed uint64, tally *modelTally) {
	tally.Seeds++
	w := &modelWorld{t: t, srv: srv, crash: crash, tally: tally, rng: rand.New(rand.NewPCG(seed, 0x5eed)), prefix: fmt.Sprintf("s%d", seed),
		setup: map[string]*modelDevice{}, follows: map[string]map[string]bool{}}
	defer func() {
		if t.Failed() {
			t.Logf("seed %d: replay with -run 'TestSync_Model/.*/seed=%d$'; what happened:\n%s", seed, seed, strings.Join(w.log, "\n"))
			for _, d := range w.devices {
				t.Logf("%s pulled:\n%s", d.name, strings.Join(d.pulls, "\n"))
			}
		}
	}()
	nUsers := 3 + w.rng.IntN(3)
	for i := range nUsers {
		u := fmt.Sprintf("%su%d", w.prefix, i)
		w.users = append(w.users, u)
		srv.MustCreateUser(t, u)
		for j := range 1 + w.rng.IntN(2) {
			w.devices = append(w.devices, &modelDevice{name: fmt.Sprintf("%s/d%d", u, j), user: u, client: srv.As(t, u)})
		}
	}
	// Some of the scope exists before any device starts its sync.
	for range w.rng.IntN(6) {
		w.direct()
	}
	// Most devices start at once, the others when their turn first comes.
	for _, d := range w.devices {
		if w.rng.IntN(4) > 0 {
			w.start(d)
		}
	}
	steps := 20 + w.rng.IntN(21)
	for range steps {
		if w.rng.IntN(8) == 0 {
			w.outside()
			continue
		}
		d := w.devices[w.rng.IntN(len(w.devices))]
		if !d.synced {
			w.start(d)
			continue
		}
		switch r := w.rng.IntN(10); {
		case !d.online && r < 7:
			d.queue = append(d.queue, w.newMutation(d))
		case !d.online:
			w.reconnect(d)
		case r < 4:
			d.queue = append(d.queue, w.newMutation(d))
			w.drain(d)
		case r < 6:
			w.pull(d)
		case r < 7:
			w.sendAgain(d)
		default:
			w.logf("%s goes offline", d.name)
			d.online = false
		}
	}
	// Everyone comes back, sends what they queued, and catches up.
	for _, d := range w.devices {
		if !d.synced {
			w.start(d)
		}
		for len(d.queue) > 0 {
			w.reconnect(d)
		}
		w.sendAgain(d)
	}
	apitest.Eventually(t, "every device's state equal to its scope", func() (bool, string) {
		var differ []string
		for _, d := range w.devices {
			w.pull(d)
			if diff := d.state.diff(readScope(t, d.client)); len(diff) > 0 {
				differ = append(differ, d.name+":\n  "+strings.Join(diff, "\n  "))
			}
		}
		return len(differ) == 0, strings.Join(differ, "\n")
	})
}

func (w *modelWorld) logf(format string, args ...any) {
	w.log = append(w.log, fmt.Sprintf(format, args...))
}

// start starts d's sync: the cursor of now, then a full read of its scope.
func (w *modelWorld) start(d *modelDevice) {
	t := w.t
	t.Helper()
	var p struct {
		Viewer struct{ Changes struct{ Cursor string } }
	}
	d.client.Query(t, modelChangesQuery, nil).Decode(t, &p)
	if p.Viewer.Changes.Cursor == "" {
		t.Fatalf("%s: starting a sync gave no cursor", d.name)
	}
	d.cursor = p.Viewer.Changes.Cursor
	d.state = readScope(t, d.client)
	d.synced, d.online = true, true
	w.logf("%s starts its sync and reads its scope: %d photos, %d in its feed, %d reactions, %d friendships, version %d",
		d.name, len(d.state.Photos), len(d.state.Feed), len(d.state.Reactions), len(d.state.Follows), d.state.Profile.Version)
}

// pull applies the changes after d's cursor, a page of random size at a time, to the end.
func (w *modelWorld) pull(d *modelDevice) {
	t := w.t
	t.Helper()
	first := 1 + w.rng.IntN(8)
	for pages := 0; ; pages++ {
		if pages > 500 {
			t.Fatalf("%s: the pages of changes never end", d.name)
		}
		var p struct {
			Viewer struct {
				Changes struct {
					Edges []struct {
						Node struct {
							ObjectID, ObjectType, Operation string
							Version                         int
							Node                            *scopeNode
						}
					}
					PageInfo struct{ HasNextPage bool }
					Cursor   string
				}
			}
		}
		d.client.Query(t, modelChangesQuery, map[string]any{"first": first, "after": d.cursor}).Decode(t, &p)
		c := p.Viewer.Changes
		w.tally.Pulls++
		w.tally.Changes += len(c.Edges)
		if len(c.Edges) > first {
			t.Fatalf("%s: a page of %d changes for first: %d", d.name, len(c.Edges), first)
		}
		seen := map[string]string{}
		var page []string
		for _, e := range c.Edges {
			ch := e.Node
			// An object comes once in a page, but for an unfollow followed by a new follow.
			if op, twice := seen[ch.ObjectID]; twice && !(ch.ObjectType == "Friendship" && op == "DELETED" && ch.Operation == "UPSERTED") {
				t.Errorf("%s: %s twice in one page", d.name, ch.ObjectID)
			}
			seen[ch.ObjectID] = ch.Operation
			page = append(page, fmt.Sprintf("%s %s v%d", ch.Operation, readable(ch.ObjectID), ch.Version))
			switch {
			case ch.Operation == "UPSERTED" && (ch.Node == nil || ch.Node.ID != ch.ObjectID):
				t.Fatalf("%s: upsert of %s carries %+v", d.name, ch.ObjectID, ch.Node)
			case ch.Operation == "DELETED" && ch.Node != nil:
				t.Fatalf("%s: deletion of %s carries %+v", d.name, ch.ObjectID, ch.Node)
			case ch.Operation == "UPSERTED":
				if ch.ObjectType == "User" && ch.Node.Version < ch.Version {
					t.Errorf("%s: %s upserted at version %d, read now at %d", d.name, ch.ObjectID, ch.Version, ch.Node.Version)
				}
				w.upsert(d, ch.ObjectType, *ch.Node)
			case ch.Operation == "DELETED":
				w.drop(d, ch.ObjectType, ch.ObjectID)
			default:
				t.Fatalf("%s: change %+v", d.name, ch)
			}
		}
		if len(page) > 0 {
			d.pulls = append(d.pulls, fmt.Sprintf("  page (first %d): %s", first, strings.Join(page, "; ")))
		}
		d.cursor = c.Cursor
		if !c.PageInfo.HasNextPage {
			return
		}
	}
}

// upsert stores an upserted object in d's state, where the scope keeps it.
func (w *modelWorld) upsert(d *modelDevice, typ string, n scopeNode) {
	s := &d.state
	switch typ {
	case "User":
		if n.Username == d.user {
			s.Profile = ownProfile{n.profile(), n.FollowerCount, n.FollowingCount}
		} else {
			if old, ok := s.Followed[n.ID]; ok && old.Version > n.Version {
				w.t.Errorf("%s: %s went back from version %d to %d", d.name, n.ID, old.Version, n.Version)
			}
			s.Followed[n.ID] = n.profile()
		}
	case "Photo":
		if n.Username == d.user {
			s.Photos[n.ID] = ownPhoto{Timestamp: n.Timestamp, URL: n.URL, Counts: n.ReactionCounts}
		} else {
			s.Feed[n.ID] = feedPhoto{Owner: n.Username, Timestamp: n.Timestamp, URL: n.URL}
		}
	case "Reaction":
		s.Reactions[n.ID] = n.reaction()
	case "Friendship":
		s.Follows[n.ID] = n.friendship()
	default:
		w.t.Fatalf("%s: an upsert of type %q", d.name, typ)
	}
}

// drop removes a deleted object from d's state.
func (w *modelWorld) drop(d *modelDevice, typ, id string) {
	s := &d.state
	switch typ {
	case "User":
		if id == userID(d.user) {
			w.t.Fatalf("%s: its own profile deleted", d.name)
		}
		delete(s.Followed, id)
	case "Photo":
		delete(s.Photos, id)
		delete(s.Feed, id)
	case "Reaction":
		delete(s.Reactions, id)
	case "Friendship":
		delete(s.Follows, id)
		// The protocol's one cascade: an unfollow takes the followed user's photos out of the
		// follower's feed, also those the log never listed (docs/offline-sync.md).
		k, err := domain.ParseNodeID("objectId", id)
		if f, ok := k.(domain.FriendshipKey); err == nil && ok && f.Follower == d.user {
			for pid, p := range s.Feed {
				if p.Owner == f.Followed {
					delete(s.Feed, pid)
				}
			}
		}
	default:
		w.t.Fatalf("%s: a deletion of type %q", d.name, typ)
	}
}

// newMutation makes a mutation of d's user, with a client mutation id of d's own.
func (w *modelWorld) newMutation(d *modelDevice) *queuedMutation {
	d.ids++
	m := &queuedMutation{id: fmt.Sprintf("%s-%d", strings.ReplaceAll(d.name, "/", "-"), d.ids)}
	other := func() string {
		for {
			if u := w.users[w.rng.IntN(len(w.users))]; u != d.user {
				return u
			}
		}
	}
	switch r := w.rng.IntN(20); {
	case r < 5: // upload: at a new timestamp, at one of the user's own (CONFLICT), or at the server's clock
		in := map[string]any{"owner": d.user, "clientMutationId": m.id}
		switch own := w.photosOf(d.user); {
		case r == 0 && len(own) > 0:
			in["timestamp"] = own[w.rng.IntN(len(own))].Timestamp
		case r == 1:
			// the server's clock stamps it
		default:
			k := domain.PhotoKey{Owner: d.user, Timestamp: w.stamp()}
			w.photos = append(w.photos, k)
			in["timestamp"] = k.Timestamp
		}
		in["url"] = fmt.Sprintf("https://cdn.example.com/%s/%d.jpg", d.user, w.rng.IntN(1000))
		m.doc, m.vars = modelUpload, map[string]any{"in": in}
	case r < 7: // delete one of the user's photos, maybe deleted already
		own := w.photosOf(d.user)
		if len(own) == 0 {
			return w.fallbackFollow(d, m)
		}
		k := own[w.rng.IntN(len(own))]
		m.doc, m.vars = modelDelete, map[string]any{"o": k.Owner, "t": k.Timestamp, "m": m.id}
	case r < 11: // react to any photo the seed named
		if len(w.photos) == 0 {
			return w.fallbackFollow(d, m)
		}
		p := w.photos[w.rng.IntN(len(w.photos))]
		rt := modelReactionTypes[w.rng.IntN(len(modelReactionTypes))]
		w.reactions = append(w.reactions, domain.ReactionKey{Username: d.user, Type: rt.typ, Photo: p})
		m.doc, m.vars = modelReact, map[string]any{"in": map[string]any{"username": d.user, "owner": p.Owner, "timestamp": p.Timestamp, "type": rt.name, "clientMutationId": m.id}}
	case r < 13: // take back a reaction the user made, maybe taken back already
		var mine []domain.ReactionKey
		for _, k := range w.reactions {
			if k.Username == d.user {
				mine = append(mine, k)
			}
		}
		if len(mine) == 0 {
			return w.fallbackFollow(d, m)
		}
		k := mine[w.rng.IntN(len(mine))]
		name := ""
		for _, rt := range modelReactionTypes {
			if rt.typ == k.Type {
				name = rt.name
			}
		}
		m.doc, m.vars = modelUnreact, map[string]any{"in": map[string]any{"username": d.user, "owner": k.Photo.Owner, "timestamp": k.Photo.Timestamp, "type": name, "clientMutationId": m.id}}
	case r < 16: // follow, mostly someone not followed yet
		followed := other()
		for range 3 {
			if !w.follows[d.user][followed] {
				break
			}
			followed = other()
		}
		m.doc, m.vars = modelFollow, map[string]any{"in": map[string]any{"follower": d.user, "followed": followed, "clientMutationId": m.id}}
	case r < 18: // unfollow, mostly someone followed
		followed := other()
		if f := slices.Sorted(maps.Keys(w.follows[d.user])); len(f) > 0 && w.rng.IntN(5) > 0 {
			followed = f[w.rng.IntN(len(f))]
		}
		m.doc, m.vars = modelUnfollow, map[string]any{"in": map[string]any{"follower": d.user, "followed": followed, "clientMutationId": m.id}}
	default: // edit the profile, as of the version the device knows
		in := map[string]any{"clientMutationId": m.id}
		switch w.rng.IntN(4) {
		case 0:
			in["status"] = fmt.Sprintf("status %d", w.rng.IntN(100))
		case 1:
			in["name"] = fmt.Sprintf("Name %d", w.rng.IntN(100))
		case 2:
			in["interests"] = []string{fmt.Sprintf("topic %d", w.rng.IntN(10)), "photos"}
		default:
			in["pinnedImage"] = fmt.Sprintf("https://cdn.example.com/%s/pinned-%d.jpg", d.user, w.rng.IntN(100))
		}
		if w.rng.IntN(5) > 0 {
			in["expectedVersion"] = d.state.Profile.Version
		}
		m.doc, m.vars = modelUpdate, map[string]any{"u": d.user, "in": in}
	}
	w.logf("%s queues %s %v", d.name, m.id, m.vars)
	return m
}

// fallbackFollow is a follow, for a device whose drawn mutation has nothing to act on.
func (w *modelWorld) fallbackFollow(d *modelDevice, m *queuedMutation) *queuedMutation {
	followed := w.users[(slices.Index(w.users, d.user)+1+w.rng.IntN(len(w.users)-1))%len(w.users)]
	m.doc, m.vars = modelFollow, map[string]any{"in": map[string]any{"follower": d.user, "followed": followed, "clientMutationId": m.id}}
	w.logf("%s queues %s %v", d.name, m.id, m.vars)
	return m
}

func (w *modelWorld) photosOf(user string) []domain.PhotoKey {
	var out []domain.PhotoKey
	for _, k := range w.photos {
		if k.Owner == user {
			out = append(out, k)
		}
	}
	return out
}

// stamp is a new timestamp of the seed's photos.
func (w *modelWorld) stamp() string {
	w.stamps++
	return apitest.Timestamp(w.stamps)
}

// reconnect brings d online: it sends its queue, then catches up.
func (w *modelWorld) reconnect(d *modelDevice) {
	w.logf("%s comes online with %d queued", d.name, len(d.queue))
	d.online = true
	if w.drain(d) {
		w.pull(d)
	}
}

// drain sends d's queue in order. A send that crashes is lost: the device sends it again at
// once, or goes offline and sends it first when it comes back. It reports whether the queue
// was sent.
func (w *modelWorld) drain(d *modelDevice) bool {
	for len(d.queue) > 0 {
		m := d.queue[0]
		if !w.send(d, m, w.rng.IntN(6) == 0) {
			if w.rng.IntN(2) == 0 {
				w.logf("%s goes offline after the lost answer", d.name)
				d.online = false
				return false
			}
			continue
		}
		if w.rng.IntN(5) == 0 {
			w.send(d, m, false) // sent twice: the answer to the first was slow
		}
		d.queue = d.queue[1:]
		d.answered = append(d.answered, m)
	}
	return true
}

// sendAgain sends one of d's answered mutations again, as a device that lost track of what
// its queue sent would.
func (w *modelWorld) sendAgain(d *modelDevice) {
	if len(d.answered) > 0 {
		w.send(d, d.answered[w.rng.IntN(len(d.answered))], false)
	}
}

// send sends m as d, into a crash after its commit when crash, and checks its answer against
// the first. It reports whether an answer came.
func (w *modelWorld) send(d *modelDevice, m *queuedMutation, crash bool) bool {
	t := w.t
	t.Helper()
	if crash {
		w.crash.arm()
	}
	resp := d.client.Query(t, m.doc, m.vars)
	crashed := w.crash.disarm()
	m.sends++
	if crashed {
		if resp.Code() != "INTERNAL_SERVER_ERROR" {
			t.Fatalf("%s: %s crashed after its commit, yet answered %s %+v", d.name, m.id, resp.Data, resp.Errors)
		}
		w.tally.Crashes++
		w.logf("%s sends %s: the server dies after the commit", d.name, m.id)
		return false
	}
	got := mutationOutcome{}
	if len(resp.Errors) > 0 {
		got.code, got.message = resp.Code(), resp.Errors[0].Message
		if got.code != "CONFLICT" && got.code != "NOT_FOUND" {
			t.Fatalf("%s: %s %v answered %+v", d.name, m.id, m.vars, resp.Errors)
		}
	} else {
		var data map[string]json.RawMessage
		if err := json.Unmarshal(resp.Data, &data); err != nil || len(data) != 1 {
			t.Fatalf("%s: %s answered %s", d.name, m.id, resp.Data)
		}
		got.data = string(resp.Data)
	}
	w.logf("%s sends %s (send %d): %s", d.name, m.id, m.sends, got)
	if got.code != "" {
		w.tally.Refusals++
	}
	if m.outcome == nil {
		m.outcome = &got
		w.tally.Mutations++
		w.answered(m)
	} else if w.tally.Replays++; !reflect.DeepEqual(*m.outcome, got) {
		t.Fatalf("%s: %s sent again answered\n%s\nfirst\n%s", d.name, m.id, got, *m.outcome)
	}
	return true
}

// answered notes what a mutation's first answer tells of the follows.
func (w *modelWorld) answered(m *queuedMutation) {
	if m.outcome.code != "" || (m.doc != modelFollow && m.doc != modelUnfollow) {
		return
	}
	in := m.vars["in"].(map[string]any)
	follower, followed := in["follower"].(string), in["followed"].(string)
	if w.follows[follower] == nil {
		w.follows[follower] = map[string]bool{}
	}
	if m.doc == modelFollow {
		w.follows[follower][followed] = true
	} else {
		delete(w.follows[follower], followed)
	}
}

// direct is a mutation of a random user sent at once: the world before the devices start.
func (w *modelWorld) direct() {
	u := w.users[w.rng.IntN(len(w.users))]
	d := w.setup[u]
	if d == nil {
		d = &modelDevice{name: u + "/setup", user: u, client: w.srv.As(w.t, u), state: newScopeState()}
		w.setup[u] = d
	}
	w.send(d, w.newMutation(d), false)
}

// outside is a write past the API by a plain DynamoDB client: a photo put, or a profile's name
// updated (its version unchanged, as such a writer does not know of it).
func (w *modelWorld) outside() {
	t := w.t
	u := w.users[w.rng.IntN(len(w.users))]
	if w.rng.IntN(2) == 0 {
		k := domain.PhotoKey{Owner: u, Timestamp: w.stamp()}
		w.photos = append(w.photos, k)
		w.srv.WriteRaw(t, domain.Dataset{Photos: []domain.Photo{{Owner: k.Owner, Timestamp: k.Timestamp,
			URL:       "https://outside.example.com/" + k.Owner + ".jpg",
			Reactions: domain.ReactionCounts{domain.ReactionHeart: 0, domain.ReactionSmiley: 0, domain.ReactionThumbsUp: 0, domain.ReactionSunglasses: 0}}}})
		w.tally.Outside++
		w.logf("outside: puts photo %s/%s", k.Owner, k.Timestamp)
		return
	}
	name := fmt.Sprintf("Outside %d", w.rng.IntN(100))
	w.srv.UpdateRaw(t, dynamo.UserKey(u), "SET #name = :name", map[string]string{"#name": "name"},
		map[string]types.AttributeValue{":name": &types.AttributeValueMemberS{Value: name}})
	w.tally.Outside++
	w.logf("outside: names %s %q", u, name)
}
