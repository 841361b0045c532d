package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
)

// TestSubscriptions_GraphQLWSJavaScriptClient: graphql-ws's own JavaScript client, from npm,
// subscribed to `serve`, receives the change of a mutation made through the API and that of a
// write made straight through the DynamoDB endpoint (--dynamodb-listen), as any DynamoDB
// client would make it.
func TestSubscriptions_GraphQLWSJavaScriptClient(t *testing.T) {
	node, script := jstools.GraphQLJS.Script(t, "subscribe.mjs")
	lines := startCommand(t, "GraphiQL at", "serve", "--in-memory", "--addr", "127.0.0.1:0",
		"--dynamodb-listen", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--stream-poll", "20ms")
	address := regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	var base, dynamoEndpoint, metrics string
	for _, l := range lines {
		switch {
		case strings.Contains(l, "DynamoDB API"):
			dynamoEndpoint = address.FindString(l)
		case strings.Contains(l, "metrics at"):
			metrics = address.FindString(l) + "/metrics"
		case strings.Contains(l, "GraphiQL at"):
			base = address.FindString(l)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "ws"+strings.TrimPrefix(base, "http")+"/graphql",
		`subscription { userChanged(username: "js") { kind user { username name } } }`, "2")
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewScanner(stdout)
	if !out.Scan() || out.Text() != "subscribed" {
		t.Fatalf("the client did not connect: %q %s", out.Text(), stderr.String())
	}
	waitForMetric(t, metrics, "quickphotos_live_subscriptions 1")

	var created struct{ Errors []any }
	postJSON(t, base+"/graphql", `{"query":"mutation { createUser(input: {username: \"js\", name: \"Through the API\"}) { username } }"}`, &created)
	if len(created.Errors) > 0 {
		t.Fatalf("createUser: %v", created.Errors)
	}
	direct := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: &dynamoEndpoint,
		Credentials: credentials.NewStaticCredentialsProvider("any", "any", "")})
	name := "Straight into DynamoDB"
	if _, err := itemfile.LoadDataset(ctx, direct, dynamo.DefaultTable, &domain.Dataset{Users: []domain.User{{Username: "js", Profile: domain.Profile{Name: &name}}}}, nil); err != nil {
		t.Fatal(err)
	}

	var got []string
	for out.Scan() {
		var event struct {
			Data struct {
				UserChanged struct {
					Kind string
					User struct{ Name string }
				}
			}
		}
		if err := json.Unmarshal(out.Bytes(), &event); err != nil {
			t.Fatalf("%s: %v", out.Text(), err)
		}
		got = append(got, event.Data.UserChanged.Kind+" "+event.Data.UserChanged.User.Name)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the client: %v (%s); events %v", err, stderr.String(), got)
	}
	want := []string{"CREATED Through the API", "UPDATED Straight into DynamoDB"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("events %v, want %v", got, want)
	}
}

// waitForMetric polls a /metrics page until it has line, for at most 10 seconds.
func waitForMetric(t *testing.T, url, line string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(body), "\n"+line+"\n") {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never showed %q", url, line)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSubscriptions_GraphQLWSJavaScriptClientWithABadToken: graphql-ws's own client, given a
// token `serve` does not accept, is told so with the protocol's 4403 and stops, instead of
// reconnecting in a loop that the application never hears of.
func TestSubscriptions_GraphQLWSJavaScriptClientWithABadToken(t *testing.T) {
	node, script := jstools.GraphQLJS.Script(t, "subscribe.mjs")
	t.Setenv("QUICKPHOTOS_JWT_SECRET", "a development secret of 32+ bytes!")
	lines := startCommand(t, "GraphiQL at", "serve", "--in-memory", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0")
	var base, metrics string
	address := regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	for _, l := range lines {
		switch {
		case strings.Contains(l, "metrics at"):
			metrics = address.FindString(l) + "/metrics"
		case strings.Contains(l, "GraphiQL at"):
			base = address.FindString(l)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "ws"+strings.TrimPrefix(base, "http")+"/graphql",
		`subscription { userChanged(username: "js") { kind } }`, "1", "not-a-token")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("the client subscribed with a bad token")
	}
	if !strings.Contains(stderr.String(), "closed 4403 Forbidden") {
		t.Fatalf("the client said %q, want the connection closed with 4403 Forbidden", stderr.String())
	}
	waitForMetric(t, metrics, "quickphotos_live_connections 0")
}
