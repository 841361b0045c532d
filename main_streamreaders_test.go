package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/ddb"
)

// TestStream_EverySetupReadsEachShardAtMostTwice: in each setup the docs give for the table's
// stream on DynamoDB, the processes together start two readers of each shard of the stream,
// what DynamoDB Streams serves, and a deleted photo's images still go, deleted by the one
// process that fills the feeds. The readers are counted where DynamoDB Streams would count
// them, at the endpoint. (Every `serve --no-feed` read the stream for the images besides: 3
// readers beside `stream`, and N+2 for N instances behind the relay.)
func TestStream_EverySetupReadsEachShardAtMostTwice(t *testing.T) {
	for _, setup := range []struct {
		name string
		// serves are the arguments of each serve, stream those of `quickphotos stream` (none
		// when nil); redis stands for the relay's URL.
		serves [][]string
		stream []string
	}{
		{name: "one serve", serves: [][]string{{}}},
		{name: "serve --no-feed beside stream", serves: [][]string{{"--no-feed"}}, stream: []string{}},
		{
			name:   "instances taking changes from the relay beside stream --publish-changes",
			serves: [][]string{{"--no-feed", "--changes-from", "redis"}, {"--no-feed", "--changes-from", "redis"}},
			stream: []string{"--publish-changes", "redis"},
		},
	} {
		t.Run(setup.name, func(t *testing.T) {
			endpoint, readers := countedStreamReaders(t)
			// Every process takes the photo files' store from the environment, as the
			// services of a deployment take the same variables.
			t.Setenv("QUICKPHOTOS_MEDIA_DIR", t.TempDir())
			var redis string
			withRedis := func(args []string) []string {
				out := append([]string{"--store", "dynamodb", "--endpoint-url", endpoint, "--stream-poll", "10ms"}, args...)
				for i, a := range out {
					if a == "redis" {
						if redis == "" {
							redis = startRedis(t)
						}
						out[i] = redis
					}
				}
				return out
			}
			var bases []string
			for i, args := range setup.serves {
				args = append(withRedis(args), "--addr", "127.0.0.1:0")
				if i == 0 {
					args = append(args, "--create-table")
				}
				bases = append(bases, startServe(t, args...))
			}
			if setup.stream != nil {
				startCommand(t, "filling feeds", append([]string{"stream"}, withRedis(setup.stream)...)...)
			}

			var created struct{ Errors []any }
			postJSON(t, bases[0]+"/graphql", `{"query":"mutation { createUser(input: {username: \"miawright\"}) { username } }"}`, &created)
			if len(created.Errors) > 0 {
				t.Fatal(created.Errors)
			}
			uploadThroughServe(t, bases[0], bases[0]+"/media/")

			// Every process is started, and the feed's reader has deleted the images; a reader
			// still to come would be one more than the setup's.
			deadline := time.Now().Add(10 * time.Second)
			for !everyShardHas(readers(), 2) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(200 * time.Millisecond)
			got := readers()
			if len(got) == 0 || !everyShardHas(got, 2) || !atMost(got, 2) {
				t.Errorf("readers by shard: %v, want 2 of every shard", got)
			}
		})
	}
}

// everyShardHas says whether every shard of readers has at least n.
func everyShardHas(readers map[string]int, n int) bool {
	for _, r := range readers {
		if r < n {
			return false
		}
	}
	return len(readers) > 0
}

// atMost says whether no shard of readers has more than n.
func atMost(readers map[string]int, n int) bool {
	for _, r := range readers {
		if r > n {
			return false
		}
	}
	return true
}

// countedStreamReaders serves a new embedded engine as dynamoDBEndpoint does, and counts the
// readers of each shard of its tables' streams: the GetShardIterator requests the shard got,
// one for each reader as it starts (a reader asks again only when its iterator expired, after
// 15 minutes, or records were trimmed before it read them, after a day).
func countedStreamReaders(t *testing.T) (endpoint string, readers func() map[string]int) {
	t.Helper()
	engine, err := ddb.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	var mu sync.Mutex
	byShard := map[string]int{}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".GetShardIterator") {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			var in struct{ ShardId string }
			if err := json.Unmarshal(body, &in); err != nil {
				t.Errorf("GetShardIterator %s: %v", body, err)
			}
			mu.Lock()
			byShard[in.ShardId]++
			mu.Unlock()
		}
		engine.ServeHTTP(w, r)
	}))
	t.Cleanup(server.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	return server.URL, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := make(map[string]int, len(byShard))
		for shard, n := range byShard {
			out[shard] = n
		}
		return out
	}
}

// TestStream_MediaFlags: `quickphotos stream` deletes the images of deleted photos from the
// photo files' store of its media flags, refusing flags that cannot work together as serve
// does.
func TestStream_MediaFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--media-store", "ftp"}, "--media-store"},
		{[]string{"--media-store", "s3"}, "--media-bucket"},
		{[]string{"--media-bucket", "b"}, "--media-store s3"},
	} {
		err := run(t.Context(), append([]string{"stream", "--in-memory"}, tc.args...), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: err %v, want one naming %s", tc.args, err, tc.says)
		}
	}
}
