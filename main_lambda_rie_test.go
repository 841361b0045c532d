package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/internal/testkit/procgroup"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// The AWS Lambda Runtime Interface Emulator: the Makefile builds it from its pinned Go module
// and names it in rieEnv; otherwise aws-lambda-rie on the PATH.
const (
	rieEnv         = "QUICKPHOTOS_RIE"
	rieRequiredEnv = "QUICKPHOTOS_REQUIRE_RIE"
	rieHint        = "make deps (GOBIN=DIR go install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@VERSION, the version in the Makefile)"
)

// TestLambda_UnderTheRuntimeInterfaceEmulator: the real binary, built here, as the bootstrap of
// two functions run by AWS's Runtime Interface Emulator on 127.0.0.1: the API, invoked with
// API Gateway HTTP API events (mutations and queries, authenticated) and a Function URL's, and
// the fan-out, invoked
// with a DynamoDB Streams event made of the records the table's stream holds, as an event
// source mapping makes it. The store is the engine over loopback. The init duration the
// emulator and the function report are logged (docs/lambda.md keeps the figures).
func TestLambda_UnderTheRuntimeInterfaceEmulator(t *testing.T) {
	rie := findRIE(t)
	bootstrap := buildBootstrap(t)
	_, endpoint := dynamoDBEndpoint(t)
	runOK(t, "table", "create", "--store", "dynamodb", "--endpoint-url", endpoint)
	secret := "a-development-secret-of-32-bytes!"
	env := []string{
		"QUICKPHOTOS_ENDPOINT_URL=" + endpoint,
		"QUICKPHOTOS_JWT_SECRET=" + secret,
	}
	// The API as a container image's entry point runs it, `quickphotos lambda`; the fan-out as
	// a provided.al2023 zip's bootstrap is run, with no arguments.
	apiFn := startFunction(t, rie, []string{bootstrap, "lambda"}, append(env, "QUICKPHOTOS_LAMBDA_HANDLER=api")...)
	fanOutFn := startFunction(t, rie, []string{bootstrap}, append(env, "QUICKPHOTOS_LAMBDA_HANDLER=fanout")...)
	token := func(user string) string {
		tok, err := auth.Mint([]byte(secret), user, time.Hour, auth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	sample := httpAPISample
	graphql := func(user, query string) string {
		t.Helper()
		header := map[string]string{"content-type": "application/json", "x-quickphotos-cost": "1"}
		if user != "" {
			header["authorization"] = "Bearer " + token(user)
		}
		resp := apiFn.invokeHTTP(t, sample, header, fmt.Sprintf(`{"query":%q}`, query))
		if resp.StatusCode != http.StatusOK && user != "" {
			t.Fatalf("%s: status %d: %s", query, resp.StatusCode, resp.Body)
		}
		return resp.Body
	}

	// The API: mutations as their user, a query, a mutation without a token.
	for _, u := range []string{"ada", "bob"} {
		if got := graphql(u, `mutation { createUser(input: {username: "`+u+`", name: "`+u+`"}) { username } }`); !strings.Contains(got, `"createUser":{"username":"`+u+`"}`) {
			t.Fatalf("createUser %s: %s", u, got)
		}
	}
	graphql("bob", `mutation { followUser(input: {follower: "bob", followed: "ada"}) { timestamp } }`)
	graphql("ada", `mutation { uploadPhoto(input: {owner: "ada", url: "https://cdn.example.com/ada.jpg", timestamp: "2024-05-01T10:00:00"}) { timestamp } }`)
	got := graphql("", `{ user(username: "ada") { name followerCount photos(first: 5) { edges { node { url } } } } }`)
	if want := `{"data":{"user":{"name":"ada","followerCount":1,"photos":{"edges":[{"node":{"url":"https://cdn.example.com/ada.jpg"}}]}}},"extensions":{"cost":{"requests":1,`; !strings.HasPrefix(got, want) {
		t.Errorf("query: %s\nwant it to start %s", got, want)
	}
	if got := graphql("", `mutation { createUser(input: {username: "eve", name: "Eve"}) { username } }`); !strings.Contains(got, `"code":"UNAUTHENTICATED"`) {
		t.Errorf("a mutation without a token: %s, want UNAUTHENTICATED", got)
	}
	// The same function behind a Function URL, whose events differ in their request context.
	sample = functionURLSample
	if got := graphql("ada", `{ viewer { username } }`); !strings.Contains(got, `{"data":{"viewer":{"username":"ada"}}`) {
		t.Errorf("a query by a Function URL's event: %s", got)
	}
	sample = httpAPISample
	feed := `{ feed(first: 5) { edges { node { url } } } }`
	if got := graphql("bob", feed); !strings.Contains(got, `"edges":[]`) {
		t.Fatalf("bob's feed before the fan-out ran: %s, want it empty (nothing else fills feeds here)", got)
	}

	// bob starts an offline sync: his change log is empty until the fan-out runs.
	var start struct {
		Data struct {
			Viewer struct{ Changes struct{ Cursor string } }
		}
	}
	if err := json.Unmarshal([]byte(graphql("bob", `{ viewer { changes { cursor } } }`)), &start); err != nil || start.Data.Viewer.Changes.Cursor == "" {
		t.Fatalf("starting a sync: %v", err)
	}
	changes := fmt.Sprintf(`{ viewer { changes(after: %q) { edges { node { objectType operation node { id } } } } } }`, start.Data.Viewer.Changes.Cursor)

	// The fan-out: the stream's records as one batch, as the event source mapping sends them;
	// then the same batch again, as Lambda retries it.
	event := streamEvent(t, endpoint)
	wantChanges := `{"node":{"objectType":"Friendship","operation":"UPSERTED"`
	for round := 1; round <= 2; round++ {
		var resp events.DynamoDBEventResponse
		fanOutFn.invoke(t, event, &resp)
		if len(resp.BatchItemFailures) != 0 {
			t.Fatalf("fan-out: failures %+v", resp.BatchItemFailures)
		}
		if got := graphql("bob", feed); !strings.Contains(got, `"edges":[{"node":{"url":"https://cdn.example.com/ada.jpg"}}]`) {
			t.Errorf("bob's feed after the fan-out: %s, want ada's photo", got)
		}
		// bob's changes (the stream holds all the writes, before his cursor too): his
		// profile, his follow, ada's profile and ada's photo, each once, also after the batch
		// came twice.
		got := graphql("bob", changes)
		if !strings.Contains(got, wantChanges) || strings.Count(got, `"objectType"`) != 4 || strings.Count(got, `"objectType":"Photo"`) != 1 {
			t.Errorf("round %d: bob's changes after the fan-out: %s, want his profile and follow, ada's profile and her photo", round, got)
		}
	}

	// Each function refuses the other's events, saying which it is.
	if msg := fanOutFn.invokeError(t, apiEvent(t, nil, `{}`)); !strings.Contains(msg, "QUICKPHOTOS_LAMBDA_HANDLER=api") {
		t.Errorf("an HTTP event to the fan-out: %q, want it to say to set QUICKPHOTOS_LAMBDA_HANDLER=api", msg)
	}
	if msg := apiFn.invokeError(t, event); !strings.Contains(msg, "not an HTTP request") {
		t.Errorf("a stream event to the API: %q, want it to say it is no HTTP request", msg)
	}
	for _, fn := range []*function{apiFn, fanOutFn} {
		t.Logf("%s: %s", fn.handler, fn.initReport())
	}
}

// function is a Lambda function run by the emulator.
type function struct {
	handler string
	url     string
	log     syncbuf.Buffer
}

// startFunction runs command (the binary, configured by env) under the emulator on 127.0.0.1
// until the test ends. The function's environment holds test credentials, a region and no
// instance metadata, so that nothing leaves loopback.
func startFunction(t *testing.T, rie string, command []string, env ...string) *function {
	t.Helper()
	fn := &function{handler: "?"}
	for _, e := range env {
		if h, ok := strings.CutPrefix(e, "QUICKPHOTOS_LAMBDA_HANDLER="); ok {
			fn.handler = h
		}
	}
	addr, apiAddr := testtools.FreeAddr(t), testtools.FreeAddr(t)
	cmd := exec.Command(rie, append([]string{"--runtime-interface-emulator-address", addr, "--runtime-api-address", apiAddr}, command...)...)
	cmd.Env = append(functionEnv(), env...)
	cmd.Dir = t.TempDir()
	// The emulator and the function it starts in a process group of their own, ended together.
	procgroup.Own(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			_, _ = io.WriteString(&fn.log, line)
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = procgroup.Kill(cmd)
		_ = cmd.Wait()
		<-done
		if t.Failed() {
			t.Logf("the %s function's emulator printed:\n%s", fn.handler, fn.output())
		}
	})
	fn.url = "http://" + addr + "/2015-03-31/functions/function/invocations"
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			return fn
		}
		if time.Now().After(deadline) {
			t.Fatalf("the emulator did not listen on %s: %v\n%s", addr, err, fn.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (fn *function) output() string {
	return fn.log.String()
}

// initReport is what the emulator and the function said of the cold start.
func (fn *function) initReport() string {
	out := fn.output()
	rie := regexp.MustCompile(`INIT REPORT\(durationMs: [0-9.]+\)`).FindString(out)
	own := regexp.MustCompile(`"init_ms":[0-9.]+`).FindString(out)
	return rie + ", " + own
}

// invokeRaw invokes the function with payload and returns its answer, and the error type the
// emulator reports for a failed invocation ("" when it succeeded).
func (fn *function) invokeRaw(t *testing.T, payload any) (body []byte, errorType string) {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(fn.url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("invoke the %s function: %v\n%s", fn.handler, err, fn.output())
	}
	defer resp.Body.Close()
	body, _ = io.ReadAll(resp.Body)
	var failed struct {
		ErrorType    string `json:"errorType"`
		ErrorMessage string `json:"errorMessage"`
	}
	if json.Unmarshal(body, &failed) == nil && failed.ErrorType != "" {
		return []byte(failed.ErrorMessage), failed.ErrorType
	}
	return body, ""
}

// invoke invokes the function and decodes its answer into out, failing the test when the
// invocation failed.
func (fn *function) invoke(t *testing.T, payload, out any) {
	t.Helper()
	body, errorType := fn.invokeRaw(t, payload)
	if errorType != "" {
		t.Fatalf("the %s function failed: %s: %s\n%s", fn.handler, errorType, body, fn.output())
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("the %s function's answer %s: %v", fn.handler, body, err)
	}
}

// invokeError invokes the function with a payload it must refuse, and returns the message.
func (fn *function) invokeError(t *testing.T, payload any) string {
	t.Helper()
	body, errorType := fn.invokeRaw(t, payload)
	if errorType == "" {
		t.Errorf("the %s function took %v: answered %s", fn.handler, payload, body)
	}
	return string(body)
}

// invokeHTTP invokes the function with the event of a POST /graphql shaped as the sample in
// file: an HTTP API's or a Function URL's.
func (fn *function) invokeHTTP(t *testing.T, file string, header map[string]string, body string) events.APIGatewayV2HTTPResponse {
	t.Helper()
	var resp events.APIGatewayV2HTTPResponse
	fn.invoke(t, sampleEvent(t, file, header, body), &resp)
	return resp
}

// The sample events of aws-lambda-go's events/testdata: an HTTP API's and a Function URL's.
const (
	httpAPISample     = "apigw-v2-request-no-authorizer.json"
	functionURLSample = "lambda-urls-request.json"
)

// apiEvent is the event API Gateway sends for a POST /graphql: its own sample event, with the
// request's method, path, headers and body.
func apiEvent(t *testing.T, header map[string]string, body string) events.APIGatewayV2HTTPRequest {
	return sampleEvent(t, httpAPISample, header, body)
}

// sampleEvent is a POST /graphql in the shape of the sample event in file.
func sampleEvent(t *testing.T, file string, header map[string]string, body string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	raw, err := os.ReadFile("internal/lambdahttp/testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var e events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	e.RawPath, e.RequestContext.HTTP.Path, e.RequestContext.HTTP.Method = "/graphql", "/graphql", http.MethodPost
	e.RawQueryString, e.QueryStringParameters = "", nil
	e.Body, e.IsBase64Encoded = body, false
	e.Headers["content-length"] = fmt.Sprint(len(body))
	for k, v := range header {
		e.Headers[k] = v
	}
	return e
}

// streamEvent is the DynamoDB Streams event of every record the table's stream holds, built
// as an event source mapping builds it: the records GetRecords returns, as DynamoDB JSON, each
// with the stream's ARN.
func streamEvent(t *testing.T, endpoint string) json.RawMessage {
	t.Helper()
	call := func(op string, in, out any) {
		t.Helper()
		b, _ := json.Marshal(in)
		req, _ := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDBStreams_20120810."+op)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", op, resp.StatusCode, raw)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
	var streams struct{ Streams []struct{ StreamArn string } }
	call("ListStreams", map[string]any{"TableName": "quick-photos"}, &streams)
	if len(streams.Streams) != 1 {
		t.Fatalf("the table has %d streams, want 1", len(streams.Streams))
	}
	arn := streams.Streams[0].StreamArn
	var desc struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	call("DescribeStream", map[string]any{"StreamArn": arn}, &desc)
	var records []map[string]any
	for _, shard := range desc.StreamDescription.Shards {
		var it struct{ ShardIterator string }
		call("GetShardIterator", map[string]any{"StreamArn": arn, "ShardId": shard.ShardId, "ShardIteratorType": "TRIM_HORIZON"}, &it)
		for iter := it.ShardIterator; iter != ""; {
			var page struct {
				Records           []map[string]any
				NextShardIterator string
			}
			call("GetRecords", map[string]any{"ShardIterator": iter}, &page)
			if len(page.Records) == 0 {
				break
			}
			for _, r := range page.Records {
				r["eventSourceARN"] = arn
				records = append(records, r)
			}
			iter = page.NextShardIterator
		}
	}
	if len(records) == 0 {
		t.Fatal("the stream holds no records")
	}
	b, _ := json.Marshal(map[string]any{"Records": records})
	return b
}

// functionEnv is the test's environment for a function, without what would reach AWS or
// change the command: credentials, a region and no instance metadata.
func functionEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		name, _, _ := strings.Cut(e, "=")
		if strings.HasPrefix(name, "AWS_") || strings.HasPrefix(name, "QUICKPHOTOS_") {
			continue
		}
		env = append(env, e)
	}
	return append(env, "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
		"AWS_LAMBDA_FUNCTION_TIMEOUT=30")
}

// findRIE is the emulator's path.
func findRIE(t *testing.T) string {
	t.Helper()
	path := os.Getenv(rieEnv)
	if path == "" {
		path = "aws-lambda-rie"
	}
	found, err := exec.LookPath(path)
	if err != nil {
		testtools.Missing(t, rieRequiredEnv, "the AWS Lambda Runtime Interface Emulator", rieHint, err)
	}
	return found
}

// buildBootstrap builds the binary as a provided.al2023 function's bootstrap is built.
func buildBootstrap(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go: %v", err)
	}
	out := filepath.Join(t.TempDir(), "bootstrap")
	build := exec.Command(goCmd, "build", "-tags", "lambda.norpc", "-o", out, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	return out
}
