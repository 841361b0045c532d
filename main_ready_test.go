package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
)

// TestServe_ReadyOnceTheFeedHasCaughtUp: serve --sample on --store dynamodb loads the sample
// and then fills the feeds from the table's stream; /readyz says ready only once that backlog
// is done, so when it first answers 200 every follower's feed already holds every photo of the
// users they follow. (It answered 200 at once, and feeds filled over the next seconds.) All the
// while, everything serve logs, the AWS SDK's lines included, is JSON.
func TestServe_ReadyOnceTheFeedHasCaughtUp(t *testing.T) {
	_, endpoint := dynamoDBEndpoint(t)
	base, stderr := startServeLogging(t, "--store", "dynamodb", "--endpoint-url", endpoint, "--create-table",
		"--sample", "--sample-users", "60", "--max-cost", "0", "--addr", "127.0.0.1:0")
	t.Cleanup(func() {
		for _, line := range strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n") {
			if line != "" && !json.Valid([]byte(line)) {
				t.Errorf("serve logged a line that is not JSON: %s", line)
			}
		}
	})

	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]string
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if resp.StatusCode != http.StatusServiceUnavailable || body["reason"] != errFeedCatchingUp.Error() {
			t.Fatalf("/readyz: %d %v, want 503 while the feed catches up", resp.StatusCode, body)
		}
		if time.Now().After(deadline) {
			t.Fatal("/readyz still not ready after 60s")
		}
		time.Sleep(20 * time.Millisecond)
	}

	var followers struct {
		Data struct {
			User struct {
				Followers struct {
					Edges []struct {
						Node struct{ Follower struct{ Username string } }
					}
				}
			}
		}
	}
	postJSON(t, base+"/graphql", `{"query":"{ user(username: \"miawright\") { followers(first: 5) { edges { node { follower { username } } } } } }"}`, &followers)
	if len(followers.Data.User.Followers.Edges) == 0 {
		t.Fatal("miawright has no followers in the sample")
	}
	type photos struct {
		Edges []struct{ Node struct{ URL string } }
	}
	for _, e := range followers.Data.User.Followers.Edges {
		reader := e.Node.Follower.Username
		var got struct {
			Data struct {
				User struct {
					Following struct {
						Edges []struct {
							Node struct{ Followed struct{ Photos photos } }
						}
					}
					Feed photos
				}
			}
		}
		postJSON(t, base+"/graphql", fmt.Sprintf(`{"query":"{ user(username: \"%s\") { following(first: 100) { edges { node { followed { photos(first: 100) { edges { node { url } } } } } } } feed(first: 100) { edges { node { url } } } } }"}`, reader), &got)
		var want, feed []string
		for _, f := range got.Data.User.Following.Edges {
			for _, p := range f.Node.Followed.Photos.Edges {
				want = append(want, p.Node.URL)
			}
		}
		for _, p := range got.Data.User.Feed.Edges {
			feed = append(feed, p.Node.URL)
		}
		if len(want) > 100 {
			t.Fatalf("%s follows users with %d photos, more than one page of the feed", reader, len(want))
		}
		slices.Sort(want)
		slices.Sort(feed)
		if !slices.Equal(feed, want) {
			t.Errorf("ready, but %s's feed holds %d photos of the %d of the users they follow", reader, len(feed), len(want))
		}
	}
}

// startServeLogging runs `quickphotos serve args…` as a process of its own (this test binary,
// re-executed) until the test ends, and returns the base URL it printed and what it wrote on
// its stderr: a library writing to os.Stderr directly shows there too.
func startServeLogging(t *testing.T, args ...string) (string, *syncbuf.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runMainEnv+"=serve "+strings.Join(args, " "))
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("serve: %v\n%s", err, stderr)
		}
	})
	r := bufio.NewReader(stdout)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("serve stopped before printing its address: %v\n%s", err, stderr)
		}
		if strings.Contains(line, "GraphiQL at") {
			go func() { _, _ = io.Copy(io.Discard, r) }()
			return regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line), stderr
		}
	}
}
