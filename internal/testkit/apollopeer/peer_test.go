package apollopeer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
	"github.com/quickphotos/quickphotos/internal/testkit/procgroup"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// The workload's operations, exactly as the load tool sends them.
const (
	opProfile   = `query Profile($u: ID!) { user(username: $u) { username name status interests pinnedImage followerCount followingCount } }`
	opPhotos    = `query Photos($u: ID!) { user(username: $u) { username photos(first: 20) { edges { cursor node { username timestamp url reactionCounts { total } } } pageInfo { hasNextPage endCursor } } } }`
	opPhoto     = `query Photo($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { username timestamp url reactionCounts { heart smiley thumbsUp sunglasses total } reactions(first: 20) { edges { node { type timestamp user { username name } } } } } }`
	opFollowers = `query Followers($u: ID!) { user(username: $u) { followerCount followers(first: 20) { edges { node { timestamp follower { username name } } } } } }`
	opFollowing = `query Following($u: ID!) { user(username: $u) { following(first: 10) { edges { node { followed { username photos(first: 5) { edges { node { timestamp url } } } } } } } } }`
	opReact     = `mutation React($i: ReactionInput!) { reactToPhoto(input: $i) { type timestamp photo { reactionCounts { total } } } }`
	opUnreact   = `mutation Unreact($i: ReactionInput!) { removeReaction(input: $i) { type } }`
	opFollow    = `mutation Follow($i: FriendshipInput!) { followUser(input: $i) { timestamp follower { followingCount } followed { followerCount } } }`
	opUnfollow  = `mutation Unfollow($i: FriendshipInput!) { unfollowUser(input: $i) { timestamp } }`
)

// TestPeerAnswersLikeQuickphotos starts `quickphotos dynamodb` in memory with the sample
// dataset (300 users, seed 1, as the benchmark), `quickphotos serve` and the Apollo peer on
// that one endpoint, and sends each of the workload's operations to both: for a few dozen
// users and photos, for missing ones and for invalid arguments. The answers must be the same:
// data (cursors aside: each server has its own) and the errors' codes and paths. The writes
// run as cycles in which each server does the write and the undo once, on the same state, with
// the CONFLICT and NOT_FOUND of repeating them, and the counters read back after every step.
func TestPeerAnswersLikeQuickphotos(t *testing.T) {
	root := moduleRoot(t)
	node, script := jstools.ApolloPeer.Script(t, "server.mjs")
	bin := buildQuickphotos(t, root)
	env := append(os.Environ(), "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_REGION=us-east-1")

	endpoint := start(t, env, `DynamoDB API at (http://\S+)`, bin, "dynamodb", "--listen", "127.0.0.1:0", "--in-memory")
	store := []string{"--store", "dynamodb", "--endpoint-url", endpoint}
	runOK(t, env, bin, append([]string{"table", "create"}, store...)...)
	sampleFile := filepath.Join(t.TempDir(), "sample.jsonl")
	if err := os.WriteFile(sampleFile, []byte(runOK(t, env, bin, "sample", "--users", "300", "--seed", "1")), 0o600); err != nil {
		t.Fatal(err)
	}
	runOK(t, env, bin, append(append([]string{"load"}, store...), sampleFile)...)
	data := readSample(t, sampleFile)

	s := servers{
		qp:   server{"quickphotos", start(t, env, `GraphQL API at (http://\S+)`, bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--no-feed", "--log-level", "error"}, store...)...)},
		peer: server{"apollo-peer", start(t, env, `^(http://\S+)$`, node, script, "--endpoint", endpoint, "--table", "quick-photos", "--listen", "127.0.0.1:0")},
	}

	users, photos := data.pickUsers(), data.pickPhotos()
	// No user of the sample has more than a page of photos, so one gets more (through
	// quickphotos: the peer does not implement uploadPhoto), and the first page of their
	// photos does not reach their profile, which then takes a read of its own.
	for i := range 25 {
		a := s.qp.do(t, `mutation($o: ID!, $t: String) { uploadPhoto(input: {owner: $o, url: "https://cdn.example.com/p.jpg", timestamp: $t}) { timestamp } }`,
			vars{"o": users[0], "t": fmt.Sprintf("2030-01-01T00:00:%02dZ", i)})
		if len(a.Errors) > 0 {
			t.Fatalf("uploadPhoto: %s", a)
		}
	}
	t.Run("reads", func(t *testing.T) {
		var withNextPage, lastPage, withFollowers, withReactions int
		for _, u := range users {
			profile := s.same(t, opProfile, vars{"u": u})
			if profile.Data == nil || dig(profile.Data, "user") == nil || len(profile.Errors) > 0 {
				t.Errorf("profile of %s: %s", u, profile)
			}
			p := s.same(t, opPhotos, vars{"u": u})
			switch dig(p.Data, "user", "photos", "pageInfo", "hasNextPage") {
			case true:
				withNextPage++
			case false:
				lastPage++
			}
			if f := s.same(t, opFollowers, vars{"u": u}); len(dig(f.Data, "user", "followers", "edges").([]any)) > 0 {
				withFollowers++
			}
			s.same(t, opFollowing, vars{"u": u})
		}
		for _, p := range photos {
			a := s.same(t, opPhoto, vars{"o": p.owner, "t": p.timestamp})
			if dig(a.Data, "photo") == nil {
				t.Errorf("photo %v: %s", p, a)
			} else if len(dig(a.Data, "photo", "reactions", "edges").([]any)) > 0 {
				withReactions++
			}
		}
		// The data must exercise both ways of reading a profile with its photos, followers
		// and reactions, or the comparison would prove little.
		if withNextPage == 0 || lastPage == 0 || withFollowers == 0 || withReactions == 0 {
			t.Errorf("pages with a next page %d, last pages %d, users with followers %d, photos with reactions %d: want some of each",
				withNextPage, lastPage, withFollowers, withReactions)
		}

		// Missing users and photos are null; invalid arguments are BAD_USER_INPUT.
		p := photos[0]
		for _, c := range []struct {
			op   string
			v    vars
			code string
		}{
			{opProfile, vars{"u": "nobody-by-this-name"}, ""},
			{opPhotos, vars{"u": "nobody-by-this-name"}, ""},
			{opFollowers, vars{"u": "nobody-by-this-name"}, ""},
			{opFollowing, vars{"u": "nobody-by-this-name"}, ""},
			{opPhoto, vars{"o": p.owner, "t": "1999-01-01T00:00:00Z"}, ""},
			{opPhoto, vars{"o": "nobody-by-this-name", "t": p.timestamp}, ""},
			{opPhoto, vars{"o": p.owner, "t": otherSpelling(t, p.timestamp)}, ""},
			{opPhoto, vars{"o": p.owner, "t": p.timestamp + ".000Z"}, ""},
			{opPhoto, vars{"o": p.owner, "t": p.timestamp + "Z"}, ""},
			{opProfile, vars{"u": "not#valid"}, "BAD_USER_INPUT"},
			{opPhotos, vars{"u": strings.Repeat("x", 65)}, "BAD_USER_INPUT"},
			{opFollowers, vars{"u": ""}, "BAD_USER_INPUT"},
			{opPhoto, vars{"o": p.owner, "t": p.timestamp + ".5Z"}, "BAD_USER_INPUT"},
			{opPhoto, vars{"o": p.owner, "t": p.timestamp + ".5"}, "BAD_USER_INPUT"},
			{opPhoto, vars{"o": p.owner, "t": "2019-02-30T00:00:00Z"}, "BAD_USER_INPUT"},
			{opPhoto, vars{"o": p.owner, "t": "1899-12-31T23:59:59Z"}, "BAD_USER_INPUT"},
			{opPhoto, vars{"o": "not valid", "t": p.timestamp}, "BAD_USER_INPUT"},
		} {
			a := s.same(t, c.op, c.v)
			if got := a.codes(); c.code == "" && len(got) > 0 || c.code != "" && !slices.Equal(got, []string{c.code}) {
				t.Errorf("%s %v: codes %v, want %q", opName(c.op), c.v, got, c.code)
			}
		}
	})

	t.Run("react", func(t *testing.T) {
		for i, k := range data.newReactions(users, photos, 3) {
			input := vars{"username": k.username, "owner": k.photo.owner, "timestamp": k.photo.timestamp, "type": k.typ}
			if i == 1 { // any spelling of the photo's instant names it
				input["timestamp"] = otherSpelling(t, k.photo.timestamp)
			}
			photo := vars{"o": k.photo.owner, "t": k.photo.timestamp}
			s.cycle(t, cycle{
				op: opReact, undo: opUnreact, input: input,
				counters: func() []float64 {
					return []float64{dig(s.same(t, opPhoto, photo).Data, "photo", "reactionCounts", "total").(float64)}
				},
			})
		}
	})

	t.Run("follow", func(t *testing.T) {
		for _, k := range data.newFriendships(users, 3) {
			followed, follower := vars{"u": k.followed}, vars{"u": k.follower}
			s.cycle(t, cycle{
				op: opFollow, undo: opUnfollow, input: vars{"follower": k.follower, "followed": k.followed},
				counters: func() []float64 {
					s.same(t, opFollowers, followed)
					s.same(t, opFollowing, follower)
					return []float64{
						dig(s.same(t, opProfile, followed).Data, "user", "followerCount").(float64),
						dig(s.same(t, opProfile, follower).Data, "user", "followingCount").(float64),
					}
				},
			})
		}
	})

	t.Run("write errors", func(t *testing.T) {
		r := data.newReactions(users, photos, 1)[0]
		existing := data.reactions[0]
		f := data.newFriendships(users, 1)[0]
		friends := data.friendships[0]
		reaction := func(username, owner, ts, typ string) vars {
			return vars{"i": vars{"username": username, "owner": owner, "timestamp": ts, "type": typ}}
		}
		friendship := func(follower, followed string) vars {
			return vars{"i": vars{"follower": follower, "followed": followed}}
		}
		for _, c := range []struct {
			op   string
			v    vars
			code string
		}{
			{opReact, reaction(existing.username, existing.photo.owner, existing.photo.timestamp, existing.typ), "CONFLICT"},
			{opReact, reaction(r.username, r.photo.owner, "1999-01-01T00:00:00Z", r.typ), "NOT_FOUND"},
			{opReact, reaction("nobody-by-this-name", r.photo.owner, r.photo.timestamp, r.typ), "NOT_FOUND"},
			{opReact, reaction(r.username, r.photo.owner, r.photo.timestamp+".5", r.typ), "BAD_USER_INPUT"},
			{opReact, reaction("not#valid", r.photo.owner, r.photo.timestamp, r.typ), "BAD_USER_INPUT"},
			{opUnreact, reaction(r.username, r.photo.owner, r.photo.timestamp, r.typ), "NOT_FOUND"},
			{opFollow, friendship(friends.follower, friends.followed), "CONFLICT"},
			{opFollow, friendship(f.follower, "nobody-by-this-name"), "NOT_FOUND"},
			{opFollow, friendship("nobody-by-this-name", f.followed), "NOT_FOUND"},
			{opFollow, friendship(f.follower, f.follower), "BAD_USER_INPUT"},
			{opFollow, friendship(f.follower, "not valid"), "BAD_USER_INPUT"},
			{opUnfollow, friendship(f.follower, f.followed), "NOT_FOUND"},
			{opUnfollow, friendship("", f.followed), "BAD_USER_INPUT"},
		} {
			if a := s.same(t, c.op, c.v); !slices.Equal(a.codes(), []string{c.code}) {
				t.Errorf("%s %v: %s, want %s", opName(c.op), c.v, a, c.code)
			}
		}
		// Nothing was written: the conflicting reaction is still counted once.
		s.same(t, opPhoto, vars{"o": existing.photo.owner, "t": existing.photo.timestamp})
		s.same(t, opFollowers, vars{"u": friends.followed})
	})
}

// cycle is a write and its undo on one key that does not exist at the start.
type cycle struct {
	op, undo string
	input    vars
	// counters reads, through both servers (comparing their answers), the counters the write
	// adds one to.
	counters func() []float64
}

// cycle runs c: quickphotos writes, both servers refuse the write again (CONFLICT);
// quickphotos undoes, both refuse the undo again (NOT_FOUND); then the peer writes and undoes,
// and its answers must be quickphotos's. The counters are read on both servers after each step.
func (s servers) cycle(t *testing.T, c cycle) {
	t.Helper()
	v := vars{"i": c.input}
	start := c.counters()
	expect := func(step string, delta float64) {
		t.Helper()
		got := c.counters()
		for i := range got {
			if got[i] != start[i]+delta {
				t.Errorf("%s %v, after %s: counters %v, want %v%+v", opName(c.op), c.input, step, got, start, delta)
				return
			}
		}
	}
	write := func(srv server, op string) answer {
		t.Helper()
		a := srv.do(t, op, v)
		if len(a.Errors) > 0 || a.Data == nil {
			t.Fatalf("%s %s %v: %s", srv.name, opName(op), c.input, a)
		}
		return a
	}
	qWrite := write(s.qp, c.op)
	expect("quickphotos's write", 1)
	if a := s.same(t, c.op, v); !slices.Equal(a.codes(), []string{"CONFLICT"}) {
		t.Errorf("%s %v again: %s, want CONFLICT", opName(c.op), c.input, a)
	}
	expect("the refused write", 1)
	qUndo := write(s.qp, c.undo)
	expect("quickphotos's undo", 0)
	if a := s.same(t, c.undo, v); !slices.Equal(a.codes(), []string{"NOT_FOUND"}) {
		t.Errorf("%s %v again: %s, want NOT_FOUND", opName(c.undo), c.input, a)
	}
	pWrite := write(s.peer, c.op)
	expect("the peer's write", 1)
	pUndo := write(s.peer, c.undo)
	expect("the peer's undo", 0)

	// The write's timestamp is the server's clock; the undo returns what it removed, so the
	// same timestamp.
	for _, pair := range [][2]answer{{qWrite, qUndo}, {pWrite, pUndo}} {
		w, u := resultTimestamp(pair[0]), resultTimestamp(pair[1])
		if u != "" && u != w {
			t.Errorf("%s %v: the undo returned timestamp %q, the write %q", opName(c.undo), c.input, u, w)
		}
		ts, err := time.Parse(domain.TimestampLayout, w)
		if err != nil || len(w) != len(domain.TimestampLayout) || time.Since(ts).Abs() > 5*time.Minute {
			t.Errorf("%s %v: timestamp %q, want the canonical form of about now", opName(c.op), c.input, w)
		}
	}
	for _, pair := range [][3]any{{c.op, qWrite, pWrite}, {c.undo, qUndo, pUndo}} {
		q, p := withoutTimestamp(pair[1].(answer)), withoutTimestamp(pair[2].(answer))
		if !reflect.DeepEqual(q, p) {
			t.Errorf("%s %v:\nquickphotos %s\napollo-peer %s", opName(pair[0].(string)), c.input, q, p)
		}
	}
}

type vars = map[string]any

type server struct{ name, url string }

type servers struct{ qp, peer server }

// answer is a GraphQL response reduced to what must agree: the HTTP status, the data with
// cursors masked, each error's code and path, and the DynamoDB requests the server sent for
// it, by operation (extensions.cost, which both servers report when asked with
// X-Quickphotos-Cost: 1): the peer reads with the same requests as quickphotos.
type answer struct {
	Status int
	Data   any
	Errors []string
	Cost   map[string]int
}

func (a answer) String() string {
	b, _ := json.Marshal(a)
	return string(b)
}

// codes are the errors' codes.
func (a answer) codes() []string {
	var codes []string
	for _, e := range a.Errors {
		codes = append(codes, strings.SplitN(e, " ", 2)[0])
	}
	return codes
}

func (s server) do(t *testing.T, query string, v vars) answer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": v})
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Quickphotos-Cost", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	defer resp.Body.Close()
	var got struct {
		Data   any
		Errors []struct {
			Path       []any
			Extensions struct{ Code string }
		}
		Extensions struct {
			Cost struct{ Operations map[string]int }
		}
	}
	raw, err := io.ReadAll(resp.Body)
	if err == nil {
		err = json.Unmarshal(raw, &got)
	}
	if err != nil {
		t.Fatalf("%s %s: %v (%s)", s.name, opName(query), err, raw)
	}
	a := answer{Status: resp.StatusCode, Data: maskCursors(got.Data), Cost: got.Extensions.Cost.Operations}
	for _, e := range got.Errors {
		a.Errors = append(a.Errors, fmt.Sprintf("%s %v", e.Extensions.Code, e.Path))
	}
	return a
}

// same sends the operation to both servers and fails the test unless they answer alike.
func (s servers) same(t *testing.T, query string, v vars) answer {
	t.Helper()
	q, p := s.qp.do(t, query, v), s.peer.do(t, query, v)
	if !reflect.DeepEqual(q, p) {
		t.Errorf("%s %v:\nquickphotos %s\napollo-peer %s", opName(query), v, q, p)
	}
	return q
}

// maskCursors replaces every cursor and endCursor string: each server has its own format.
func maskCursors(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if _, ok := e.(string); ok && (k == "cursor" || k == "endCursor") {
				v[k] = "<cursor>"
			} else {
				v[k] = maskCursors(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = maskCursors(e)
		}
	}
	return v
}

// resultTimestamp is the timestamp of a mutation's result, "" when it has none.
func resultTimestamp(a answer) string {
	for _, result := range a.Data.(map[string]any) {
		if ts, ok := result.(map[string]any)["timestamp"].(string); ok {
			return ts
		}
	}
	return ""
}

// withoutTimestamp is a mutation's answer without its result's timestamp (the server's clock).
func withoutTimestamp(a answer) answer {
	data := map[string]any{}
	for field, result := range a.Data.(map[string]any) {
		r := map[string]any{}
		for k, v := range result.(map[string]any) {
			if k != "timestamp" {
				r[k] = v
			}
		}
		data[field] = r
	}
	a.Data = data
	return a
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func opName(query string) string {
	f := strings.Fields(query)
	return f[0] + " " + strings.SplitN(f[1], "(", 2)[0]
}

// otherSpelling is ts at the same instant in another zone.
func otherSpelling(t *testing.T, ts string) string {
	at, err := time.Parse(domain.TimestampLayout, ts)
	if err != nil {
		t.Fatal(err)
	}
	return at.In(time.FixedZone("", 2*3600)).Format(time.RFC3339)
}

// The sample dataset, as the test needs it.
type photoKey struct{ owner, timestamp string }

type reactionKey struct {
	username, typ string
	photo         photoKey
}

type friendshipKey struct{ follower, followed string }

type sample struct {
	users       []string
	photos      []photoKey
	photoCount  map[string]int
	followers   map[string]int
	reactions   []reactionKey
	reacted     map[reactionKey]bool
	friendships []friendshipKey
	follows     map[friendshipKey]bool
}

var storedTypes = map[string]string{"heart": "HEART", "smiley": "SMILEY", "+1": "THUMBS_UP", "sunglasses": "SUNGLASSES"}

func readSample(t *testing.T, file string) *sample {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := &sample{photoCount: map[string]int{}, followers: map[string]int{}, reacted: map[reactionKey]bool{}, follows: map[friendshipKey]bool{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var item struct{ PK, SK string }
		if err := json.Unmarshal(sc.Bytes(), &item); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(item.SK, "#METADATA#"):
			s.users = append(s.users, strings.TrimPrefix(item.SK, "#METADATA#"))
		case strings.HasPrefix(item.PK, "USER#") && strings.HasPrefix(item.SK, "PHOTO#"):
			owner, ts, _ := strings.Cut(strings.TrimPrefix(item.SK, "PHOTO#"), "#")
			s.photos = append(s.photos, photoKey{owner, ts})
			s.photoCount[owner]++
		case strings.HasPrefix(item.PK, "REACTION#"):
			user, typ, _ := strings.Cut(strings.TrimPrefix(item.PK, "REACTION#"), "#")
			owner, ts, _ := strings.Cut(strings.TrimPrefix(item.SK, "PHOTO#"), "#")
			k := reactionKey{user, storedTypes[typ], photoKey{owner, ts}}
			s.reactions = append(s.reactions, k)
			s.reacted[k] = true
		case strings.HasPrefix(item.SK, "#FRIEND#"):
			k := friendshipKey{strings.TrimPrefix(item.SK, "#FRIEND#"), strings.TrimPrefix(item.PK, "USER#")}
			s.friendships = append(s.friendships, k)
			s.follows[k] = true
			s.followers[k.followed]++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(s.users) < 100 || len(s.photos) == 0 || len(s.reactions) == 0 || len(s.friendships) == 0 {
		t.Fatalf("the sample has %d users, %d photos, %d reactions, %d friendships", len(s.users), len(s.photos), len(s.reactions), len(s.friendships))
	}
	slices.Sort(s.users)
	slices.SortFunc(s.photos, func(a, b photoKey) int { return strings.Compare(a.owner+"#"+a.timestamp, b.owner+"#"+b.timestamp) })
	return s
}

// pickUsers: every tenth user, and those with the most and the fewest photos and followers.
func (s *sample) pickUsers() []string {
	var picked []string
	for i := 0; i < len(s.users); i += 10 {
		picked = append(picked, s.users[i])
	}
	for _, count := range []map[string]int{s.photoCount, s.followers} {
		byCount := slices.Clone(s.users)
		slices.SortStableFunc(byCount, func(a, b string) int { return count[a] - count[b] })
		picked = append(picked, byCount[0], byCount[len(byCount)-1])
	}
	return picked
}

// pickPhotos: thirty photos spread over the dataset.
func (s *sample) pickPhotos() []photoKey {
	var picked []photoKey
	for i := 0; i < len(s.photos); i += max(1, len(s.photos)/30) {
		picked = append(picked, s.photos[i])
	}
	return picked
}

// newReactions are n reactions the sample does not hold, of different types.
func (s *sample) newReactions(users []string, photos []photoKey, n int) []reactionKey {
	types := []string{"HEART", "THUMBS_UP", "SUNGLASSES", "SMILEY"}
	var found []reactionKey
	for i := 0; len(found) < n; i++ {
		k := reactionKey{users[i%len(users)], types[len(found)%len(types)], photos[(i*7)%len(photos)]}
		if !s.reacted[k] {
			found = append(found, k)
		}
	}
	return found
}

// newFriendships are n friendships the sample does not hold.
func (s *sample) newFriendships(users []string, n int) []friendshipKey {
	var found []friendshipKey
	for i := 0; len(found) < n; i++ {
		k := friendshipKey{users[i%len(users)], users[(i*3+1)%len(users)]}
		if k.follower != k.followed && !s.follows[k] {
			found = append(found, k)
		}
	}
	return found
}

// Processes.

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := testtools.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// buildQuickphotos builds the command from the module root into a temporary directory.
func buildQuickphotos(t *testing.T, root string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("building quickphotos: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "quickphotos")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runOK runs a command to its end and returns its standard output.
func runOK(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// start runs a server until the test ends and returns the first submatch of ready in the line
// of its standard output that matches it. At the end it is sent SIGTERM and must exit with
// status 0 within 20 seconds.
func start(t *testing.T, env []string, ready string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	// What a server keeps in its working directory by default (serve's data directory and
	// media files) lands there, not in the source tree.
	cmd.Dir = t.TempDir()
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	label := filepath.Base(name) + " " + args[0]
	exited := make(chan error, 1)
	t.Cleanup(func() {
		switch inTime, err := procgroup.Stop(cmd, exited, 20*time.Second); {
		case !inTime:
			t.Errorf("%s did not stop within 20s of SIGTERM", label)
		case err != nil:
			t.Errorf("%s on SIGTERM: %v\n%s", label, err, stderr.String())
		}
	})
	pattern := regexp.MustCompile(ready)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		printed := false
		for sc.Scan() {
			if m := pattern.FindStringSubmatch(sc.Text()); m != nil && !printed {
				printed = true
				found <- m[1]
			}
		}
		if !printed {
			close(found)
		}
		exited <- cmd.Wait()
	}()
	select {
	case url, ok := <-found:
		if !ok {
			t.Fatalf("%s stopped before printing %q:\n%s", label, ready, stderr.String())
		}
		return url
	case <-time.After(60 * time.Second):
		t.Fatalf("%s printed no %q within 60s:\n%s", label, ready, stderr.String())
	}
	return ""
}
