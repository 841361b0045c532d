package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// startRedis runs a redis-server until the test ends and returns its URL.
func startRedis(t *testing.T) string { return testtools.StartRedis(t) }

// TestRelay_EveryInstanceGetsTheChangesThroughRedis: with one `quickphotos stream
// --publish-changes` reading the stream, two `serve --changes-from` instances read none of it
// and both deliver a change made through one of them to their subscribers.
func TestRelay_EveryInstanceGetsTheChangesThroughRedis(t *testing.T) {
	redis := startRedis(t)
	_, endpoint := dynamoDBEndpoint(t)
	store := []string{"--store", "dynamodb", "--endpoint-url", endpoint}
	serve := func(extra ...string) (base, metrics string) {
		args := append(append([]string{"serve"}, store...), "--no-feed", "--changes-from", redis, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0")
		lines := startCommand(t, "GraphiQL at", append(args, extra...)...)
		address := regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
		for _, l := range lines {
			if strings.Contains(l, "metrics at") {
				metrics = address.FindString(l) + "/metrics"
			}
		}
		return address.FindString(lines[len(lines)-1]), metrics
	}
	one, oneMetrics := serve("--create-table")
	two, twoMetrics := serve()
	startCommand(t, "filling feeds", append([]string{"stream", "--publish-changes", redis, "--stream-poll", "10ms"}, store...)...)

	q := `subscription { userChanged(username: "relayed") { kind } }`
	subscribers := map[string]*apitest.WS{}
	for name, base := range map[string]string{"the instance written through": one, "the other": two} {
		ws := (&apitest.Server{URL: base}).DialWS(t, "")
		ws.Subscribe(t, "u", q, nil)
		subscribers[name] = ws
	}
	waitForMetric(t, oneMetrics, "quickphotos_live_subscriptions 1")
	waitForMetric(t, twoMetrics, "quickphotos_live_subscriptions 1")

	var got struct{ Errors []any }
	postJSON(t, one+"/graphql", `{"query":"mutation { createUser(input: {username: \"relayed\"}) { username } }"}`, &got)
	if len(got.Errors) > 0 {
		t.Fatal(got.Errors)
	}
	for name, ws := range subscribers {
		resp, ended := ws.Next(t, "u")
		var e struct{ UserChanged struct{ Kind string } }
		if ended {
			t.Fatalf("%s: the subscription ended", name)
		}
		resp.Decode(t, &e)
		if e.UserChanged.Kind != "CREATED" {
			t.Errorf("%s: %+v", name, e)
		}
	}
	for _, metrics := range []string{oneMetrics, twoMetrics} {
		if _, body := getBody(t, metrics); strings.Contains(body, `consumer="live"`) {
			t.Errorf("%s: a serve --changes-from read the stream itself", metrics)
		}
	}
}
