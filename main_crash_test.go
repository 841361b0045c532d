package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServe_CrashesLeaveConsistentData kills `quickphotos serve` (SIGKILL) while clients
// upload, delete, react, remove reactions, follow and unfollow on a few photos and users, many
// times, and runs `quickphotos check` on the data after every kill: whatever a crash cuts
// off, no reaction outlives its photo and every counter equals its items. Each cycle also
// deletes a photo with more reactions than one transaction holds just before the kill, so
// deletes in steps are cut off too; the last check finishes them. Acknowledged profiles
// survive every crash.
func TestServe_CrashesLeaveConsistentData(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts the server many times")
	}
	const (
		cycles  = 12
		clients = 8
		users   = 30 // × 4 reaction types: up to 120 reactions a photo
	)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var created []string
	for cycle := 0; cycle < cycles; cycle++ {
		base, kill := startKillableServe(t, dir)
		if cycle == 0 {
			for i := 0; i < users; i++ {
				mustMutate(t, base, `mutation($u: ID!) { createUser(input: {username: $u}) { username } }`, map[string]any{"u": crashUser(i)})
			}
		}
		for _, u := range created {
			var got struct {
				Data struct{ User *struct{ Username string } }
			}
			graphql(base, `query($u: ID!) { user(username: $u) { username } }`, map[string]any{"u": u}, &got)
			if got.Data.User == nil {
				t.Fatalf("cycle %d: acknowledged user %s lost", cycle, u)
			}
		}
		// A photo with more reactions than one transaction holds, deleted just before the
		// kill, so that kills land between the steps of its delete.
		big := fmt.Sprintf("2024-02-01T00:00:%02dZ", cycle)
		mustMutate(t, base, uploadMutation, map[string]any{"o": crashUser(0), "t": big})
		reactAll(t, base, crashUser(0), big, users)

		acknowledged := make(chan string, 1000)
		ctx, stop := context.WithTimeout(context.Background(), time.Duration(100+rng.IntN(300))*time.Millisecond)
		var wg sync.WaitGroup
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func(seed uint64) {
				defer wg.Done()
				mixedWrites(ctx, base, rand.New(rand.NewPCG(seed, uint64(cycle))), fmt.Sprintf("c%dx%d", cycle, seed), big, acknowledged)
			}(uint64(c))
		}
		<-ctx.Done()
		go func() { _ = graphql(base, deleteMutation, map[string]any{"o": crashUser(0), "t": big}, nil) }()
		time.Sleep(time.Duration(rng.IntN(12000)) * time.Microsecond) // a delete in steps takes about 8 ms here
		kill()                                                        // while requests are in flight
		stop()
		wg.Wait()
		close(acknowledged)
		for u := range acknowledged {
			created = append(created, u)
		}
		out := runOK(t, "check", "--data", dir)
		t.Logf("cycle %d: %s", cycle, lastLine(out))
		if !strings.Contains(out, " 0 problems") {
			t.Fatalf("cycle %d: check after the kill:\n%s", cycle, out)
		}
	}
	out := runOK(t, "check", "--data", dir, "--finish-deletions")
	if !strings.Contains(out, " 0 problems, 0 photo deletions under way") {
		t.Fatalf("final check:\n%s", out)
	}
	if len(created) == 0 {
		t.Fatal("no profile was acknowledged: the clients never reached the server")
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func crashUser(i int) string { return fmt.Sprintf("user%02d", i) }

// The mutations of the crash test.
const (
	uploadMutation = `mutation($o: ID!, $t: String!) { uploadPhoto(input: {owner: $o, timestamp: $t, url: "https://cdn.example.com/p.jpg"}) { timestamp } }`
	deleteMutation = `mutation($o: ID!, $t: String!) { deletePhoto(owner: $o, timestamp: $t) { timestamp } }`
	reactMutation  = `mutation($u: ID!, $o: ID!, $t: String!, $type: ReactionType!) { reactToPhoto(input: {username: $u, owner: $o, timestamp: $t, type: $type}) { type } }`
)

var reactionTypes = []string{"HEART", "SMILEY", "THUMBS_UP", "SUNGLASSES"}

// reactAll makes each of the first users react with every type to a photo, eight at a time.
func reactAll(t *testing.T, base, owner, ts string, users int) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := 0; i < users; i++ {
		for _, typ := range reactionTypes {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				_ = graphql(base, reactMutation, map[string]any{"u": crashUser(i), "o": owner, "t": ts, "type": typ}, nil)
			}()
		}
	}
	wg.Wait()
}

// mixedWrites sends random writes on a few photos and the big one until ctx ends; the
// profiles it creates and the server acknowledges go to acknowledged.
func mixedWrites(ctx context.Context, base string, rng *rand.Rand, name, big string, acknowledged chan<- string) {
	for i := 0; ctx.Err() == nil; i++ {
		owner := crashUser(rng.IntN(2))
		ts := fmt.Sprintf("2024-01-01T00:00:0%dZ", rng.IntN(3))
		op := rng.IntN(100)
		if op >= 12 && rng.IntN(4) == 0 { // the big photo is deleted only just before the kill
			owner, ts = crashUser(0), big
		}
		user := crashUser(rng.IntN(30))
		vars := map[string]any{"o": owner, "t": ts, "u": user, "type": reactionTypes[rng.IntN(4)]}
		var query string
		switch {
		case op < 8:
			query = uploadMutation
		case op < 12:
			query = deleteMutation
		case op < 70:
			query = reactMutation
		case op < 80:
			query = `mutation($u: ID!, $o: ID!, $t: String!, $type: ReactionType!) { removeReaction(input: {username: $u, owner: $o, timestamp: $t, type: $type}) { type } }`
		case op < 88:
			query = `mutation($u: ID!, $o: ID!) { followUser(input: {follower: $u, followed: $o}) { timestamp } }`
		case op < 96:
			query = `mutation($u: ID!, $o: ID!) { unfollowUser(input: {follower: $u, followed: $o}) { timestamp } }`
		default:
			created := fmt.Sprintf("%s-%d", name, i)
			var got struct {
				Data struct{ CreateUser *struct{ Username string } }
			}
			if graphql(base, `mutation($u: ID!) { createUser(input: {username: $u}) { username } }`, map[string]any{"u": created}, &got) == nil && got.Data.CreateUser != nil {
				acknowledged <- created
			}
			continue
		}
		_ = graphql(base, query, vars, nil)
	}
}

// graphql posts a GraphQL request and decodes the answer into v when v is not nil.
func graphql(base, query string, vars map[string]any, v any) error {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	resp, err := http.Post(base+"/graphql", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if v == nil {
		v = &struct{}{}
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func mustMutate(t *testing.T, base, query string, vars map[string]any) {
	t.Helper()
	var got struct{ Errors []any }
	if err := graphql(base, query, vars, &got); err != nil || len(got.Errors) > 0 {
		t.Fatalf("%s: %v %v", query, err, got.Errors)
	}
}

// startKillableServe runs `quickphotos serve` on dir in a process of its own (this test binary,
// re-executed) and returns its base URL and a kill that SIGKILLs it and waits for it to die.
func startKillableServe(t *testing.T, dir string) (base string, kill func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runMainEnv+"=serve --addr 127.0.0.1:0 --log-level error --data "+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	kill = func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
	t.Cleanup(kill)
	return "http://" + waitForAddress(t, stdout), kill
}
