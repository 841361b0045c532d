package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/quickphotos/quickphotos/internal/lambdahttp"
)

// lambdaFunction builds the function `quickphotos lambda` would start with args and the
// environment, over a new table on the engine served on loopback, and returns it and the
// endpoint.
func lambdaFunction(t *testing.T, args ...string) (fn any, endpoint string) {
	t.Helper()
	_, endpoint = dynamoDBEndpoint(t)
	runOK(t, "table", "create", "--store", "dynamodb", "--endpoint-url", endpoint)
	var cfg lambdaConfig
	f := newFlags("lambda", io.Discard)
	cfg.register(f)
	if err := f.parse(append([]string{"--endpoint-url", endpoint}, args...)); err != nil {
		t.Fatal(err)
	}
	fn, closeFn, err := cfg.function(t.Context(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeFn)
	return fn, endpoint
}

// TestLambda_FunctionsTuneTheCollector: every function collects at serveGCPercent, as the
// servers do, with the heap limited to a share of the function's memory.
func TestLambda_FunctionsTuneTheCollector(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024")
	t.Setenv("QUICKPHOTOS_AUTH", "none")
	for _, handler := range []string{lambdaAPI, lambdaFanOut, lambdaSweep} {
		t.Run(handler, func(t *testing.T) {
			gcBefore, limitBefore := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
			defer func() { debug.SetGCPercent(gcBefore); debug.SetMemoryLimit(limitBefore) }()
			lambdaFunction(t, "--lambda-handler", handler)
			if percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); percent != serveGCPercent || limit != 768<<20 {
				t.Errorf("GC percent %d, memory limit %d MiB: want %d and 768 MiB", percent, limit>>20, serveGCPercent)
			}
		})
	}
}

// TestLambda_ConfigurationMistakesStopTheStart: what `quickphotos lambda` refuses before it
// takes an event, each with the variable or flag to fix.
func TestLambda_ConfigurationMistakesStopTheStart(t *testing.T) {
	t.Setenv(lambdaRuntimeEnv, "127.0.0.1:1") // as under Lambda; no case gets as far as calling it
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{name: "an unknown handler", env: map[string]string{"QUICKPHOTOS_LAMBDA_HANDLER": "graphql"}, want: `QUICKPHOTOS_LAMBDA_HANDLER) "graphql": want api, fanout or sweep`},
		{name: "the API open to the internet", args: []string{"--lambda-handler", "api"}, want: "refusing to serve an AWS Lambda function (API Gateway or a Function URL) without authentication"},
		{name: "another store", args: []string{"--store", "cassandra"}, want: `--store "cassandra": a Lambda function's store is dynamodb`},
		{name: "the embedded store's memory", args: []string{"--in-memory"}, want: "--in-memory is for the embedded store"},
		{name: "a bad log level", env: map[string]string{"QUICKPHOTOS_LOG_LEVEL": "loud"}, want: `--log-level "loud"`},
		{name: "a batch window past its bound", args: []string{"--lambda-handler", "api", "--auth", "none", "--batch-wait", "2s"}, want: "--batch-wait 2s"},
		{name: "a malformed variable", env: map[string]string{"QUICKPHOTOS_MAX_DEPTH": "deep"}, want: `QUICKPHOTOS_MAX_DEPTH: "deep" is not a whole number`},
	}
	// A provided.al2023 function's bootstrap is run with no arguments: that is `lambda` too.
	t.Run("the bootstrap with no arguments", func(t *testing.T) {
		t.Setenv("QUICKPHOTOS_LAMBDA_HANDLER", "graphql")
		if err := run(t.Context(), nil, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "QUICKPHOTOS_LAMBDA_HANDLER") {
			t.Fatalf("err %v, want lambda's, about QUICKPHOTOS_LAMBDA_HANDLER", err)
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			err := run(t.Context(), append([]string{"lambda"}, c.args...), io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want one saying %q", err, c.want)
			}
		})
	}
}

// TestLambda_APIFunctionIsConfiguredAsServe: the API's variables configure the function as
// they configure serve (TestServe_LimitFlagsReachTheAPI sends serve the same requests): limits,
// introspection, CORS and the cost header, through API Gateway's events.
func TestLambda_APIFunctionIsConfiguredAsServe(t *testing.T) {
	t.Setenv("QUICKPHOTOS_MAX_DEPTH", "2")
	t.Setenv("QUICKPHOTOS_MAX_TOKENS", "20")
	t.Setenv("QUICKPHOTOS_INTROSPECTION", "false")
	t.Setenv("QUICKPHOTOS_CORS_ORIGINS", "https://app.example.com")
	t.Setenv("QUICKPHOTOS_AUTH", "none")
	fn, _ := lambdaFunction(t, "--lambda-handler", "api")
	gw := httptest.NewServer(lambdahttp.NewGateway(fn))
	t.Cleanup(gw.Close)
	cases := []struct {
		name, body, want string
	}{
		{"depth 2 is allowed", `{"query":"{ user(username: \"a\") { name } }"}`, ""},
		{"depth 4 is over --max-depth", `{"query":"{ user(username: \"a\") { photos { pageInfo { hasNextPage } } } }"}`, "QUERY_LIMIT_EXCEEDED"},
		{"21 tokens at depth 2 are over --max-tokens", `{"query":"{ user(username: \"a\") { name name name name name name name name name name name } }"}`, "QUERY_LIMIT_EXCEEDED"},
		{"introspection is off", `{"query":"{ __schema { queryType { name } } }"}`, "GRAPHQL_VALIDATION_FAILED"},
	}
	for _, c := range cases {
		if got := graphqlCode(t, gw.URL, "", c.body); got != c.want {
			t.Errorf("%s: code %q, want %q", c.name, got, c.want)
		}
	}

	req, _ := http.NewRequest(http.MethodPost, gw.URL+"/graphql", strings.NewReader(`{"query":"{ user(username: \"a\") { name } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://app.example.com")
	req.Header.Set("X-Quickphotos-Cost", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Extensions struct {
			Cost *struct{ Requests int } `json:"cost"`
		} `json:"extensions"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example.com" {
		t.Errorf("Access-Control-Allow-Origin %q, want the configured origin", got)
	}
	if body.Extensions.Cost == nil || body.Extensions.Cost.Requests != 1 {
		t.Errorf("extensions.cost %+v, want 1 request", body.Extensions.Cost)
	}
}

// TestLambda_SubscriptionsAreRefusedAtOnce: a subscription sent to the API's function, by
// Server-Sent Events (POST or GET) or by a plain POST, is answered at once with
// SERVICE_UNAVAILABLE: nothing waits for events a function cannot deliver.
func TestLambda_SubscriptionsAreRefusedAtOnce(t *testing.T) {
	fn, _ := lambdaFunction(t, "--lambda-handler", "api", "--auth", "none")
	gw := lambdahttp.NewGateway(fn)
	gw.Timeout = 10 * time.Second // a subscription that hung would fail the invocation here
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	subscription := `subscription { userChanged(username: "ada") { kind } }`
	body := `{"query":` + strings.ReplaceAll(`"`+subscription+`"`, `"ada"`, `\"ada\"`) + `}`
	cases := []struct {
		name, method, target, accept, body string
	}{
		{"SSE by POST", http.MethodPost, "/graphql", "text/event-stream", body},
		{"SSE by GET", http.MethodGet, "/graphql?query=" + url.QueryEscape(subscription), "text/event-stream", ""},
		{"a plain POST", http.MethodPost, "/graphql", "application/json", body},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, srv.URL+c.target, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", c.accept)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `"code":"SERVICE_UNAVAILABLE"`) || !strings.Contains(string(got), "no live updates") {
				t.Errorf("status %d, body %s: want SERVICE_UNAVAILABLE saying there are no live updates", resp.StatusCode, got)
			}
			if c.accept == "text/event-stream" && !strings.Contains(string(got), "event: complete") {
				t.Errorf("the event stream %q does not complete", got)
			}
		})
	}
}

// TestLambda_EachFunctionRefusesTheOthersEvents: an event of the other kind is an error of the
// invocation that says what the function is, never a response or a batch applied to nothing.
func TestLambda_EachFunctionRefusesTheOthersEvents(t *testing.T) {
	apiFn, _ := lambdaFunction(t, "--lambda-handler", "api", "--auth", "none")
	fanOutFn, _ := lambdaFunction(t, "--lambda-handler", "fanout")
	sweepFn, _ := lambdaFunction(t, "--lambda-handler", "sweep")
	httpEvent := apiEvent(t, nil, `{"query":"{ __typename }"}`)
	streamEvent := events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{{EventName: "INSERT", EventID: "1"}}}
	scheduledEvent := scheduledEventSample(t)
	// as decodes event as a function of type In takes it, as the Lambda runtime does.
	as := func(event any, in any) {
		t.Helper()
		b, _ := json.Marshal(event)
		if err := json.Unmarshal(b, in); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := apiFn.(func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error))(t.Context(), events.APIGatewayV2HTTPRequest{}); err == nil {
		t.Error("the API's function took an event with no HTTP request")
	}
	fanOut := fanOutFn.(func(context.Context, lambdaStreamEvent) (events.DynamoDBEventResponse, error))
	var asStream lambdaStreamEvent
	b, _ := json.Marshal(httpEvent)
	_ = json.Unmarshal(b, &asStream)
	if _, err := fanOut(t.Context(), asStream); err == nil || !strings.Contains(err.Error(), "QUICKPHOTOS_LAMBDA_HANDLER=api") {
		t.Errorf("the fan-out given an HTTP event: %v, want an error naming QUICKPHOTOS_LAMBDA_HANDLER=api", err)
	}
	if resp, err := fanOut(t.Context(), lambdaStreamEvent{DynamoDBEvent: streamEvent}); err != nil || len(resp.BatchItemFailures) != 0 {
		t.Errorf("the fan-out given a stream event: %+v, %v", resp, err)
	}
	if _, err := fanOut(t.Context(), lambdaStreamEvent{}); err != nil {
		t.Errorf("the fan-out given an empty batch: %v", err)
	}
	var scheduledAsStream lambdaStreamEvent
	as(scheduledEvent, &scheduledAsStream)
	if _, err := fanOut(t.Context(), scheduledAsStream); err == nil || !strings.Contains(err.Error(), "QUICKPHOTOS_LAMBDA_HANDLER=sweep") {
		t.Errorf("the fan-out given a scheduled event: %v, want an error naming QUICKPHOTOS_LAMBDA_HANDLER=sweep", err)
	}

	sweep := sweepFn.(func(context.Context, lambdaSweepEvent) (sweepReport, error))
	for name, c := range map[string]struct {
		event any
		want  string
	}{
		"an HTTP event":  {httpEvent, "QUICKPHOTOS_LAMBDA_HANDLER=api"},
		"a stream event": {streamEvent, "QUICKPHOTOS_LAMBDA_HANDLER=fanout"},
	} {
		var in lambdaSweepEvent
		as(c.event, &in)
		if _, err := sweep(t.Context(), in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("the sweep given %s: %v, want an error naming %s", name, err, c.want)
		}
	}
	for name, event := range map[string]any{"a scheduled event": scheduledEvent, "{}": map[string]any{}} {
		var in lambdaSweepEvent
		as(event, &in)
		if r, err := sweep(t.Context(), in); err != nil || r != (sweepReport{}) {
			t.Errorf("the sweep given %s on an empty table: %+v, %v; want nothing done", name, r, err)
		}
	}
}

// scheduledEventJSON is the event an EventBridge schedule invokes a function with, as AWS's
// documentation and aws-lambda-go's own test of its type show it.
const scheduledEventJSON = `{"version":"0","id":"890abcde-f123-4567-890a-bcdef1234567","detail-type":"Scheduled Event","source":"aws.events",` +
	`"account":"123456789012","time":"2016-12-30T18:44:49Z","region":"us-east-1","resources":["arn:aws:events:us-east-1:123456789012:rule/SampleRule"],"detail":{}}`

// scheduledEventSample is scheduledEventJSON decoded.
func scheduledEventSample(t *testing.T) events.EventBridgeEvent {
	t.Helper()
	var e events.EventBridgeEvent
	if err := json.Unmarshal([]byte(scheduledEventJSON), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestLambda_SweepStopsBeforeTheTimeout: a sweep run stops sweepReserve before the function's
// timeout, to answer what it did; one the timeout cut short answers so and does not fail (a
// failed run would count as an error, and the next one carries on anyway).
func TestLambda_SweepStopsBeforeTheTimeout(t *testing.T) {
	fn, _ := lambdaFunction(t, "--lambda-handler", "sweep")
	sweep := fn.(func(context.Context, lambdaSweepEvent) (sweepReport, error))
	ctx, cancel := context.WithTimeout(t.Context(), sweepReserve/2)
	defer cancel()
	r, err := sweep(ctx, lambdaSweepEvent{})
	if err != nil || !r.CutShort {
		t.Errorf("a run with less than sweepReserve left: %+v, %v; want it cut short, not failed", r, err)
	}
	ctx, cancel = context.WithTimeout(t.Context(), sweepReserve+10*time.Second)
	defer cancel()
	if r, err := sweep(ctx, lambdaSweepEvent{}); err != nil || r.CutShort {
		t.Errorf("a run with time left: %+v, %v; want it done", r, err)
	}
}
