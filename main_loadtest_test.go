package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestLoadTest_AgainstServe: `quickphotos loadtest` in subscription mode against `serve
// --sample` with tokens: the feed mix is answered in full, nothing fails, and the subscribers
// time the uploads that reach them.
func TestLoadTest_AgainstServe(t *testing.T) {
	const secret = "loadtest-secret-loadtest-secret-32"
	base := startServe(t, "--in-memory", "--addr", "127.0.0.1:0", "--sample", "--sample-users", "20",
		"--jwt-secret", secret, "--stream-poll", "20ms")
	out := runOK(t, "loadtest", "--url", base+"/graphql", "--sample-users", "20", "--mix", "feed",
		"--clients", "4", "--max-ops", "200", "--duration", "1m", "--warmup", "0s", "--subscribers", "4",
		"--jwt-secret", secret)
	t.Log(out)
	for _, want := range []string{"200 operations", ", 0 failed", "subscription mode: 4 subscribers"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	if !regexp.MustCompile(`lag over [1-9]\d* events`).MatchString(out) {
		t.Errorf("no upload reached a subscriber")
	}
}

func TestLoadTest_RefusesABadMix(t *testing.T) {
	var stderr strings.Builder
	err := run(t.Context(), []string{"loadtest", "--mix", "likes=1", "--duration", "1s"}, &stderr, &stderr)
	if err == nil || !strings.Contains(err.Error(), `no operation "likes"`) {
		t.Errorf("loadtest --mix likes=1: %v", err)
	}
}

// TestLoadTest_GreedyCaller: `quickphotos loadtest --greedy` against `serve` with a rate limit
// compares the mix's reads alone and beside a greedy caller, whom the limit refuses (a phase
// of 800 operations outlasts a refusal's half-second hold).
func TestLoadTest_GreedyCaller(t *testing.T) {
	const secret = "loadtest-secret-loadtest-secret-32"
	base := startServe(t, "--in-memory", "--addr", "127.0.0.1:0", "--sample", "--sample-users", "20", "--no-feed",
		"--jwt-secret", secret, "--rate-limit-capacity", "200", "--rate-limit-refill", "10")
	out := runOK(t, "loadtest", "--url", base+"/graphql", "--sample-users", "20", "--clients", "2", "--greedy", "2",
		"--max-ops", "800", "--duration", "1m", "--warmup", "0s", "--jwt-secret", secret)
	t.Log(out)
	for _, want := range []string{"800 operations", ", 0 failed", "beside a greedy caller (2 clients): the mix's reads p50"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q", want)
		}
	}
	if !regexp.MustCompile(`the greedy caller: [1-9]\d* served, [1-9]\d* refused, 0 failed`).MatchString(out) {
		t.Errorf("the greedy caller was not both served and refused")
	}
}

// TestLoadTest_Floor: `quickphotos loadtest floor` records `serve --sample`'s answers and
// serves them; `loadtest --alone` against the floor and serve answers the standard mix and each
// of its operations alone on both without a failure, and prints serve's share of the floor's
// throughput for each operation.
func TestLoadTest_Floor(t *testing.T) {
	base := startServe(t, "--in-memory", "--addr", "127.0.0.1:0", "--sample", "--sample-users", "20", "--no-feed")
	lines := startCommand(t, "serving at", "loadtest", "floor", "--record-from", base+"/graphql",
		"--sample-users", "20", "--listen", "127.0.0.1:0")
	floor := regexp.MustCompile(`serving at (http://127\.0\.0\.1:\d+/graphql)`).FindStringSubmatch(lines[len(lines)-1])[1]
	if floor == base+"/graphql" {
		t.Fatalf("the floor serves at serve's address %s", floor)
	}
	out := runOK(t, "loadtest", "--url", floor+","+base+"/graphql", "--sample-users", "20", "--alone",
		"--clients", "2", "--max-ops", "100", "--duration", "1m", "--warmup", "0s")
	t.Log(out)
	if n := strings.Count(out, "100 operations in "); n != 2 {
		t.Errorf("the report has %d targets that answered the mix's 100 operations, want 2", n)
	}
	if strings.Count(out, ", 0 failed") != 2 || strings.Contains(out, "failure:") {
		t.Errorf("operations failed")
	}
	for _, op := range []string{"profile", "photos", "photo", "followers", "following", "react", "follow"} {
		if !regexp.MustCompile(`(?m)^  ` + op + ` +\d+ +\S+ +\d+\.\d\d× +\d+ `).MatchString(out) {
			t.Errorf("no row for %s alone, with serve's share of the floor", op)
		}
	}
}
