package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
)

// TestStream_FillsFeedsApartFromServe: `serve --no-feed` and `quickphotos stream` on one
// DynamoDB endpoint (--store dynamodb, as in production): a photo uploaded through the API
// reaches the follower's feed through the separate consumer, which found the stream through
// --endpoint-url.
func TestStream_FillsFeedsApartFromServe(t *testing.T) {
	_, endpoint := dynamoDBEndpoint(t)
	store := []string{"--store", "dynamodb", "--endpoint-url", endpoint}

	base := startServe(t, append(store, "--create-table", "--no-feed", "--addr", "127.0.0.1:0")...)
	startCommand(t, "filling feeds", append([]string{"stream", "--stream-poll", "10ms"}, store...)...)

	for _, m := range []string{
		`mutation { createUser(input: {username: \"ann\"}) { username } }`,
		`mutation { createUser(input: {username: \"bob\"}) { username } }`,
		`mutation { followUser(input: {follower: \"ann\", followed: \"bob\"}) { timestamp } }`,
		`mutation { uploadPhoto(input: {owner: \"bob\", url: \"https://cdn.example.com/1.jpg\", timestamp: \"2024-05-01T00:00:00Z\"}) { timestamp } }`,
	} {
		var got struct{ Errors []any }
		postJSON(t, base+"/graphql", `{"query":"`+m+`"}`, &got)
		if len(got.Errors) > 0 {
			t.Fatalf("%s: %v", m, got.Errors)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got struct {
			Data struct {
				User struct {
					Feed struct {
						Edges []struct{ Node struct{ Timestamp string } }
					}
				}
			}
		}
		postJSON(t, base+"/graphql", `{"query":"{ user(username: \"ann\") { feed { edges { node { timestamp } } } } }"}`, &got)
		if e := got.Data.User.Feed.Edges; len(e) == 1 && e[0].Node.Timestamp == "2024-05-01T00:00:00" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("ann's feed after 10s: %+v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dynamoDBEndpoint serves a new embedded engine over HTTP on 127.0.0.1, as a DynamoDB endpoint
// for --store dynamodb, with credentials in the environment, until the test ends.
func dynamoDBEndpoint(t *testing.T) (*ddb.Engine, string) {
	t.Helper()
	engine, err := ddb.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	endpoint := httptest.NewServer(engine)
	t.Cleanup(endpoint.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	return engine, endpoint.URL
}

// TestServe_FeedNeedsAStream: serve on a table without a stream says how to get one.
func TestServe_FeedNeedsAStream(t *testing.T) {
	engine, endpoint := dynamoDBEndpoint(t)
	s := func(v string) *string { return &v }
	_, err := engine.Client().CreateTable(t.Context(), &dynamodb.CreateTableInput{
		TableName: s("quick-photos"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: s("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: s("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema:   []types.KeySchemaElement{{AttributeName: s("PK"), KeyType: types.KeyTypeHash}, {AttributeName: s("SK"), KeyType: types.KeyTypeRange}},
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  s("InvertedIndex"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: s("SK"), KeyType: types.KeyTypeHash}, {AttributeName: s("PK"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	err = run(t.Context(), []string{"serve", "--store", "dynamodb", "--endpoint-url", endpoint, "--addr", "127.0.0.1:0"}, &strings.Builder{}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "no stream") || !strings.Contains(err.Error(), "--no-feed") {
		t.Fatalf("err %v: want one saying the table has no stream, and how to go on", err)
	}
}

// TestServe_ShutdownCompletesSubscriptions: on SIGTERM (its context ending), serve completes
// the subscriptions it holds, so a Server-Sent Events stream ends with "complete" and serve
// stops within its shutdown timeout instead of waiting on the stream forever.
func TestServe_ShutdownCompletesSubscriptions(t *testing.T) {
	lines, stop := startStoppable(t, "GraphiQL at", "serve", "--in-memory", "--addr", "127.0.0.1:0", "--shutdown-timeout", "5s")
	base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(lines[len(lines)-1])
	req, _ := http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(`{"query":"subscription { userChanged(username: \"nobody\") { kind } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("SSE: status %d", resp.StatusCode)
	}
	done := make(chan string, 1)
	go func() {
		body, _ := io.ReadAll(resp.Body)
		done <- string(body)
	}()
	// The stream opens before the subscription is registered: wait for the hub to hold it, as a
	// subscription registered after shutdown began would never be completed.
	waitForMetric(t, base+"/metrics", "quickphotos_live_subscriptions 1")
	start := time.Now()
	stop()
	select {
	case body := <-done:
		if !strings.Contains(body, "event: complete") {
			t.Errorf("the stream ended without complete: %q", body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the SSE stream did not end after serve stopped")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("serve took %s to stop, past its shutdown timeout", d)
	}
}

// TestLambda_OnlyUnderAWSLambda: outside AWS Lambda the command says what to run instead.
func TestLambda_OnlyUnderAWSLambda(t *testing.T) {
	t.Setenv(lambdaRuntimeEnv, "")
	err := run(t.Context(), []string{"lambda"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "quickphotos stream") {
		t.Fatalf("err %v, want one pointing to quickphotos stream", err)
	}
}

// TestStream_KilledAndRestartedLosesNothing: `quickphotos stream` in a process of its own,
// SIGKILLed again and again while photos are uploaded, each time restarted: in the end every
// follower's feed holds every photo, once. Whatever a kill cut off between a batch's writes and
// its checkpoint is handled again, to the same effect.
func TestStream_KilledAndRestartedLosesNothing(t *testing.T) {
	engine, endpoint := dynamoDBEndpoint(t)
	ctx := t.Context()
	store := dynamo.New(engine.Client(), dynamo.DefaultTable)
	if err := store.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	const followers = 40
	if _, err := store.CreateUser(ctx, "author", domain.Profile{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < followers; i++ {
		f := fmt.Sprintf("f%02d", i)
		if _, err := store.CreateUser(ctx, f, domain.Profile{}); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Follow(ctx, domain.FriendshipKey{Follower: f, Followed: "author"}); err != nil {
			t.Fatal(err)
		}
	}
	start := func() (kill func()) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), runMainEnv+"=stream --store dynamodb --endpoint-url "+endpoint+" --stream-poll 5ms --log-level error")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var once sync.Once
		kill = func() { once.Do(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }) }
		t.Cleanup(kill)
		return kill
	}

	rng := rand.New(rand.NewPCG(3, 4))
	photos := 0
	for cycle := 0; cycle < 8; cycle++ {
		kill := start()
		for i := 0; i < 4; i++ {
			photos++
			if _, err := store.UploadPhoto(ctx, domain.Photo{Owner: "author", URL: "https://cdn.example.com/p.jpg",
				Timestamp: fmt.Sprintf("2024-03-01T00:00:%02dZ", photos)}); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Duration(20+rng.IntN(150)) * time.Millisecond)
		kill() // mid-batch, or between a batch and its checkpoint, or idle
	}
	start()
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; i < followers; i++ {
		reader := fmt.Sprintf("f%02d", i)
		for {
			page, err := store.Feed(ctx, reader, domain.PageRequest{First: 100})
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) == photos {
				break
			}
			if len(page.Items) > photos || time.Now().After(deadline) {
				t.Fatalf("%s's feed holds %d photos, want the %d uploaded", reader, len(page.Items), photos)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
