package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// tutorial runs the tutorial's scripts (testdata/tutorial) against a DynamoDB endpoint.
type tutorial struct {
	python, endpoint string
}

// run runs script (a path under testdata/tutorial) and returns what it printed.
func (tu tutorial) run(t *testing.T, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tu.python, script)
	cmd.Dir = filepath.Join("testdata", "tutorial")
	// The tutorial's scripts import their entities from beside them, and find the endpoint
	// where boto3 looks for one; nothing of the machine's AWS configuration is read.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env,
		"PYTHONPATH="+filepath.Join(cmd.Dir, "application"),
		"PYTHONDONTWRITEBYTECODE=1",
		"AWS_ENDPOINT_URL_DYNAMODB="+tu.endpoint, "AWS_ENDPOINT_URL="+tu.endpoint,
		"AWS_ACCESS_KEY_ID=quickphotos", "AWS_SECRET_ACCESS_KEY=quickphotos",
		"AWS_DEFAULT_REGION=us-east-1", "AWS_REGION=us-east-1",
		"AWS_CONFIG_FILE="+os.DevNull, "AWS_SHARED_CREDENTIALS_FILE="+os.DevNull,
		"AWS_EC2_METADATA_DISABLED=true")
	cmd.Dir, _ = filepath.Abs(cmd.Dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("python3 %s: %v\n%s", script, err, stderr.String())
	}
	return stdout.String()
}

// tutorialGraphQL posts an operation to base and returns its data, failing the test on errors.
func tutorialGraphQL(t *testing.T, base, query string, variables map[string]any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": variables})
	var resp struct {
		Data   map[string]any
		Errors []any
	}
	postJSON(t, base+"/graphql", string(body), &resp)
	if len(resp.Errors) > 0 {
		t.Fatalf("%s: %v", query, resp.Errors)
	}
	return resp.Data
}

// TestTutorial_ScriptsAndTheAPIShareThePhotos: the tutorial's scripts and the API read and
// write the same photos, both ways round, through one table served by `serve
// --dynamodb-listen`: what the tutorial's bulk load writes, the API lists, reads, reacts to and
// deletes by the tutorial's own timestamps; what the API writes, in any spelling of its instant,
// the tutorial's module 3 and 4 scripts find under the keys they build; and `check` has nothing
// to say of either.
func TestTutorial_ScriptsAndTheAPIShareThePhotos(t *testing.T) {
	python := testtools.Boto3Python(t)
	// `load` and `check` reach the same endpoint in-process, with the SDK: no credentials or
	// region are looked up beyond these.
	t.Setenv("AWS_ACCESS_KEY_ID", "quickphotos")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "quickphotos")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	lines := startCommand(t, "GraphiQL at", "serve", "--in-memory", "--addr", "127.0.0.1:0",
		"--dynamodb-listen", "127.0.0.1:0", "--stream-poll", "20ms")
	address := regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	var base, endpoint string
	for _, l := range lines {
		switch {
		case strings.Contains(l, "DynamoDB API"):
			endpoint = address.FindString(l)
		case strings.Contains(l, "GraphiQL at"):
			base = address.FindString(l)
		}
	}
	tu := tutorial{python: python, endpoint: endpoint}
	tu.run(t, "scripts/bulk_load_table.py")

	t.Run("TheAPIReadsWhatTheScriptsWrote", func(t *testing.T) {
		data := tutorialGraphQL(t, base, `{ user(username: "jacksonjason") { photos(first: 5) { edges { node { timestamp } } } } }`, nil)
		if got := jsonOf(data); got != `{"user":{"photos":{"edges":[{"node":{"timestamp":"2018-06-09T13:49:13"}},{"node":{"timestamp":"2018-05-30T15:42:38"}}]}}}` {
			t.Fatalf("jacksonjason's photos: %s", got)
		}
		for _, spelling := range []string{"2018-05-30T15:42:38", "2018-05-30T15:42:38Z", "2018-05-30T17:42:38+02:00"} {
			data := tutorialGraphQL(t, base, `query($t: String!) { photo(owner: "jacksonjason", timestamp: $t) { timestamp url reactionCounts { heart } reactions { edges { node { type timestamp user { name } } } } } }`, map[string]any{"t": spelling})
			want := `{"photo":{"reactionCounts":{"heart":1},"reactions":{"edges":[{"node":{"timestamp":"2018-06-01T10:00:00","type":"HEART","user":{"name":"David Lee"}}}]},"timestamp":"2018-05-30T15:42:38","url":"https://www.example.com/jacksonjason/1.jpg"}}`
			if got := jsonOf(data); got != want {
				t.Errorf("photo at %s:\n%s\nwant\n%s", spelling, got, want)
			}
		}
		// The feed of a follower, filled from the stream of the bulk load's writes, names the
		// photos as the tutorial does, and every name it gives reads the photo.
		deadline := time.Now().Add(20 * time.Second)
		var feed string
		for time.Now().Before(deadline) {
			feed = jsonOf(tutorialGraphQL(t, base, `{ user(username: "david25") { feed { edges { node { timestamp } } } } }`, nil))
			if strings.Count(feed, "timestamp") == 2 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if feed != `{"user":{"feed":{"edges":[{"node":{"timestamp":"2018-06-09T13:49:13"}},{"node":{"timestamp":"2018-05-30T15:42:38"}}]}}}` {
			t.Errorf("david25's feed: %s", feed)
		}
		tutorialGraphQL(t, base, `mutation { reactToPhoto(input: {username: "jacksonjason", owner: "jacksonjason", timestamp: "2018-06-09T13:49:13", type: SMILEY}) { type } }`, nil)
		data = tutorialGraphQL(t, base, `mutation { deletePhoto(owner: "jacksonjason", timestamp: "2018-06-09T13:49:13") { timestamp reactionCounts { smiley } } }`, nil)
		if got := jsonOf(data); got != `{"deletePhoto":{"reactionCounts":{"smiley":1},"timestamp":"2018-06-09T13:49:13"}}` {
			t.Errorf("deletePhoto of the tutorial's photo: %s", got)
		}
	})

	t.Run("TheScriptsReadWhatTheAPIWrote", func(t *testing.T) {
		tutorialGraphQL(t, base, `mutation { uploadPhoto(input: {owner: "david25", url: "https://cdn.example.com/david25.jpg", timestamp: "2019-03-02T11:11:30+02:00"}) { timestamp } }`, nil)
		tutorialGraphQL(t, base, `mutation { reactToPhoto(input: {username: "jacksonjason", owner: "david25", timestamp: "2019-03-02T09:11:30Z", type: THUMBS_UP}) { type } }`, nil)
		tutorialGraphQL(t, base, `mutation { uploadPhoto(input: {owner: "jacksonjason", url: "https://cdn.example.com/jj.jpg", timestamp: "2019-03-03T18:20:10Z"}) { timestamp } }`, nil)

		got := tu.run(t, "application/fetch_photo_and_reactions.py")
		want := "Photo<david25 -- 2019-03-02T09:11:30>\nReaction<jacksonjason -- PHOTO#david25#2019-03-02T09:11:30 -- +1>\n"
		if got != want {
			t.Errorf("the module 4 script printed\n%s\nwant\n%s", got, want)
		}
		got = tu.run(t, "application/fetch_user_and_photos.py")
		want = "User<jacksonjason -- John Perry>\nPhoto<jacksonjason -- 2018-05-30T15:42:38>\nPhoto<jacksonjason -- 2019-03-03T18:20:10>\n"
		if got != want {
			t.Errorf("the module 3 script printed\n%s\nwant\n%s", got, want)
		}
	})

	t.Run("TheScriptsReadWhatLoadWrote", func(t *testing.T) {
		// An items file as an earlier release exported it, its timestamps with a Z: load
		// writes it in the tutorial's form.
		tutorialGraphQL(t, base, `mutation { deletePhoto(owner: "david25", timestamp: "2019-03-02T09:11:30") { timestamp } }`, nil)
		items := filepath.Join(t.TempDir(), "items.json")
		export := `{"PK": "USER#david25", "SK": "PHOTO#david25#2019-03-02T09:11:30Z", "username": "david25", "timestamp": "2019-03-02T09:11:30Z", "location": "https://cdn.example.com/loaded.jpg", "reactions": {"heart": 0, "smiley": 0, "+1": 0, "sunglasses": 0}}` + "\n"
		if err := os.WriteFile(items, []byte(export), 0o644); err != nil {
			t.Fatal(err)
		}
		runOK(t, "load", "--store", "dynamodb", "--endpoint-url", endpoint, items)
		if got, want := tu.run(t, "application/fetch_photo_and_reactions.py"), "Photo<david25 -- 2019-03-02T09:11:30>\n"; got != want {
			t.Errorf("the module 4 script printed\n%s\nwant\n%s", got, want)
		}
	})

	if out := runOK(t, "check", "--store", "dynamodb", "--endpoint-url", endpoint); !strings.Contains(out, ": 0 problems") {
		t.Errorf("check: %s", out)
	}
}

// jsonOf is v as JSON, keys sorted.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
