package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/sample"
)

// BenchmarkPatterns sends each access pattern's GraphQL operation to the real handler, called
// in-process (no socket), on the embedded engine holding the 300-user sample, with serve's
// dataloader window. Clients run in parallel (64 at once), as a server's clients do, so that
// ns/op is throughput (wall time per operation) rather than the batch windows' latency; and
// cpu-µs/op is the process's CPU time per operation (server work, garbage collection included),
// the measure of what an operation costs. Results and their command are in docs/benchmarks.md:
//
//	go test -run '^$' -bench BenchmarkPatterns -benchtime 3000x ./api/
func BenchmarkPatterns(b *testing.B) {
	srv := apitest.NewServer(b, servesBatchWait)
	data := sample.Generate(sample.Config{Users: 300, Seed: 1})
	srv.WriteRaw(b, *data)
	w := newBenchWorkload(data)
	for _, p := range []struct {
		name string
		// next is the operation a client sends next, and its variables.
		next func(r *rand.Rand) (string, map[string]any)
	}{
		{"1-createUser", func(*rand.Rand) (string, map[string]any) {
			return `mutation($u: ID!) { createUser(input: {username: $u, name: "Bench"}) { username } }`, map[string]any{"u": w.newUsername()}
		}},
		{"2-updateUser", func(r *rand.Rand) (string, map[string]any) {
			return `mutation($u: ID!) { updateUser(username: $u, input: {status: "benchmarking"}) { status } }`, map[string]any{"u": w.user(r)}
		}},
		{"3-user", func(r *rand.Rand) (string, map[string]any) {
			return `query($u: ID!) { user(username: $u) { username name status followerCount followingCount } }`, map[string]any{"u": w.user(r)}
		}},
		{"4-uploadPhoto", func(r *rand.Rand) (string, map[string]any) {
			return `mutation($o: ID!, $t: String!) { uploadPhoto(input: {owner: $o, url: "https://cdn.example.com/b.jpg", timestamp: $t}) { timestamp } }`,
				map[string]any{"o": w.user(r), "t": w.newTimestamp()}
		}},
		{"5-photos", func(r *rand.Rand) (string, map[string]any) {
			return `query($u: ID!) { user(username: $u) { photos(first: 20) { edges { node { timestamp url reactionCounts { total } } } } } }`, map[string]any{"u": w.user(r)}
		}},
		{"6-reactToPhoto", func(r *rand.Rand) (string, map[string]any) {
			u, p, kind := w.newReaction(r)
			return `mutation($i: ReactionInput!) { reactToPhoto(input: $i) { timestamp } }`,
				map[string]any{"i": map[string]any{"username": u, "owner": p.Owner, "timestamp": p.Timestamp, "type": kind}}
		}},
		{"7-photoReactions", func(r *rand.Rand) (string, map[string]any) {
			p := w.photos[r.IntN(len(w.photos))]
			return `query($o: ID!, $t: String!) { photo(owner: $o, timestamp: $t) { reactionCounts { total } reactions(first: 20) { edges { node { type user { username name } } } } } }`,
				map[string]any{"o": p.Owner, "t": p.Timestamp}
		}},
		{"8-followUser", func(r *rand.Rand) (string, map[string]any) {
			follower, followed := w.newFriendship(r)
			return `mutation($i: FriendshipInput!) { followUser(input: $i) { timestamp } }`, map[string]any{"i": map[string]any{"follower": follower, "followed": followed}}
		}},
		{"9-followers", func(r *rand.Rand) (string, map[string]any) {
			return `query($u: ID!) { user(username: $u) { followers(first: 20) { edges { node { follower { username name } } } } } }`, map[string]any{"u": w.user(r)}
		}},
		{"10-following", func(r *rand.Rand) (string, map[string]any) {
			return `query($u: ID!) { user(username: $u) { following(first: 20) { edges { node { followed { username name } } } } } }`, map[string]any{"u": w.user(r)}
		}},
	} {
		b.Run(p.name, func(b *testing.B) {
			var seeds atomic.Uint64
			b.SetParallelism(32)
			b.ReportAllocs()
			cpu := processCPU()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				r := rand.New(rand.NewPCG(seeds.Add(1), 7))
				for pb.Next() {
					query, vars := p.next(r)
					serveOne(b, srv.Handler, query, vars)
				}
			})
			b.StopTimer()
			b.ReportMetric(float64((processCPU()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// serveOne sends one operation to h and fails the benchmark on any error.
func serveOne(b *testing.B, h http.Handler, query string, vars map[string]any) {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req := httptest.NewRequest(http.MethodPost, api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"errors"`)) {
		b.Errorf("%s: %d %s", query, rec.Code, rec.Body.Bytes())
	}
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchWorkload picks the sample's users and photos, and makes writes that succeed: new
// usernames, new timestamps, reactions and friendships the table does not hold yet.
type benchWorkload struct {
	users  []string
	photos []domain.PhotoKey
	next   atomic.Int64
	// reactions and friendships are the sample's, which a write must not repeat.
	reactions   map[domain.ReactionKey]bool
	friendships map[[2]string]bool
}

func newBenchWorkload(d *domain.Dataset) *benchWorkload {
	w := &benchWorkload{reactions: map[domain.ReactionKey]bool{}, friendships: map[[2]string]bool{}}
	for _, u := range d.Users {
		w.users = append(w.users, u.Username)
	}
	for _, p := range d.Photos {
		w.photos = append(w.photos, p.Key())
	}
	for _, r := range d.Reactions {
		w.reactions[domain.ReactionKey{Username: r.Username, Type: r.Type, Photo: r.Photo}] = true
	}
	for _, f := range d.Friendships {
		w.friendships[[2]string{f.Follower, f.Followed}] = true
	}
	return w
}

func (w *benchWorkload) user(r *rand.Rand) string { return w.users[r.IntN(len(w.users))] }

func (w *benchWorkload) newUsername() string { return fmt.Sprintf("bench%d", w.next.Add(1)) }

// newTimestamp is a timestamp no photo has: one second later each call.
func (w *benchWorkload) newTimestamp() string {
	return domain.Timestamp(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(w.next.Add(1)) * time.Second))
}

// reactionNames are domain.ReactionTypes as the schema spells them.
var reactionNames = []string{"THUMBS_UP", "HEART", "SMILEY", "SUNGLASSES"}

// newReaction is a reaction nobody has made: the n-th (user, photo, type) in turn, skipping
// the sample's.
func (w *benchWorkload) newReaction(*rand.Rand) (string, domain.PhotoKey, string) {
	for {
		n := int(w.next.Add(1))
		u, p, k := w.users[n%len(w.users)], w.photos[(n/len(w.users))%len(w.photos)], n/(len(w.users)*len(w.photos))%len(reactionNames)
		if !w.reactions[domain.ReactionKey{Username: u, Type: domain.ReactionTypes[k], Photo: p}] {
			return u, p, reactionNames[k]
		}
	}
}

// newFriendship is a follow that does not exist yet: the n-th pair in turn, skipping the
// sample's.
func (w *benchWorkload) newFriendship(*rand.Rand) (string, string) {
	for {
		n := int(w.next.Add(1))
		follower, followed := w.users[n%len(w.users)], w.users[(n/len(w.users))%len(w.users)]
		if follower != followed && !w.friendships[[2]string{follower, followed}] {
			return follower, followed
		}
	}
}
