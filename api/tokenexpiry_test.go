package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/auth"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
	"github.com/quickphotos/quickphotos/live"
)

// setStatus is a subscribe message of a mutation of ann's status.
func setStatus(id, status string) string {
	payload, _ := json.Marshal(map[string]any{"query": `mutation($s: String!) { updateUser(username: "ann", input: {status: $s}) { status } }`,
		"variables": map[string]any{"s": status}})
	return fmt.Sprintf(`{"id":%q,"type":"subscribe","payload":%s}`, id, payload)
}

// mustRun waits for operation id's response on ws and fails the test unless it has no
// errors and the operation then completes.
func mustRun(t *testing.T, ws *apitest.RawWS, id string) {
	t.Helper()
	m := ws.Next(t)
	if m["id"] != id || m["type"] != "next" {
		t.Fatalf("operation %s answered %v", id, m)
	}
	if payload, _ := m["payload"].(map[string]any); payload["errors"] != nil {
		t.Fatalf("operation %s failed: %v", id, payload["errors"])
	}
	if m := ws.Next(t); m["id"] != id || m["type"] != "complete" {
		t.Fatalf("operation %s went on with %v", id, m)
	}
}

// TestGraphQLWS_AConnectionStopsActingAsItsUserWhenTheTokenExpires: a graphql-ws connection
// opened with a token acts as its user up to the last instant HTTP accepts the token (its exp
// plus the leeway), and from the instant HTTP refuses it the connection closes with 4403
// rather than run a mutation or deliver an event: graphql-ws's client retries 4403 with fresh
// connectionParams, so an app reconnects with a fresh token and sends its operations again.
func TestGraphQLWS_AConnectionStopsActingAsItsUserWhenTheTokenExpires(t *testing.T) {
	clock := newTestClock(time.Now().Truncate(time.Second)) // tokens' exp is in whole seconds
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithAuthOptions(auth.Options{Now: clock.Now}))
	srv.MustCreateUser(t, "ann")
	for i, past := range []struct {
		name string
		act  func(t *testing.T, ws *apitest.RawWS, watched string)
	}{
		{"a mutation sent past the expiry", func(t *testing.T, ws *apitest.RawWS, _ string) {
			ws.Send(t, setStatus("late", "written with an expired token"))
		}},
		{"an event past the expiry", func(t *testing.T, _ *apitest.RawWS, watched string) {
			if _, err := srv.Store.CreateUser(context.Background(), watched, domain.Profile{}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(past.name, func(t *testing.T) {
			token := srv.TokenFor(t, "ann", time.Minute)
			ws := srv.DialRawWS(t)
			ws.Init(t, token)
			watched := fmt.Sprintf("watched%d", i)
			ws.Send(t, `{"id":"watch","type":"subscribe","payload":{"query":"subscription { userChanged(username: \"`+watched+`\") { kind } }"}}`)
			apitest.Eventually(t, "the subscription started", func() (bool, string) {
				n := srv.Hub().Stats().Subscriptions
				return n == 1, fmt.Sprintf("%d subscriptions", n)
			})
			overHTTP := srv.WithHeader("Authorization", "Bearer "+token)

			clock.Advance(time.Minute + auth.DefaultLeeway - time.Millisecond)
			if resp := overHTTP.Query(t, `{ viewer { username } }`, nil); resp.Status != http.StatusOK || len(resp.Errors) > 0 {
				t.Fatalf("over HTTP a millisecond before the expiry: %d %+v", resp.Status, resp.Errors)
			}
			ws.Send(t, setStatus("in-time", "written in time"))
			mustRun(t, ws, "in-time")

			clock.Advance(time.Millisecond)
			if resp := overHTTP.Query(t, `{ viewer { username } }`, nil); resp.Status != http.StatusUnauthorized {
				t.Fatalf("over HTTP at the expiry: %d, want 401", resp.Status)
			}
			past.act(t, ws, watched)
			if code, reason := ws.Closed(t); code != 4403 || reason != "Forbidden: the token has expired" {
				t.Fatalf("closed with %d %q, want 4403 Forbidden: the token has expired", code, reason)
			}
			if status := statusOf(t, srv, "ann"); status != "written in time" {
				t.Errorf("ann's status is %q: the expired token wrote", status)
			}
			apitest.Eventually(t, "the subscription ended with the connection", func() (bool, string) {
				n := srv.Hub().Stats().Subscriptions
				return n == 0, fmt.Sprintf("%d subscriptions", n)
			})
		})
	}
}

// TestGraphQLWS_AConnectionClosesWhenItsTokenExpires: a connection that sends nothing is
// closed with 4403 at its token's expiry, its subscription ended with it.
func TestGraphQLWS_AConnectionClosesWhenItsTokenExpires(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithAuthOptions(auth.Options{Leeway: -1}))
	ws := srv.DialRawWS(t)
	ws.Init(t, srv.TokenFor(t, "ann", 2*time.Second))
	ws.Send(t, `{"id":"1","type":"subscribe","payload":{"query":"subscription { userChanged(username: \"ann\") { kind } }"}}`)
	if code, reason := ws.Closed(t); code != 4403 || reason != "Forbidden: the token has expired" {
		t.Fatalf("closed with %d %q, want 4403 Forbidden: the token has expired", code, reason)
	}
	apitest.Eventually(t, "the subscription ended with the connection", func() (bool, string) {
		n := srv.Hub().Stats().Subscriptions
		return n == 0, fmt.Sprintf("%d subscriptions", n)
	})
}

// TestGraphQLWS_TheStockClientReconnectsWithAFreshToken: graphql-ws's own client, from npm,
// whose connectionParams hands out the current token as an app's does, meets its token's
// expiry by reconnecting with the next token (it retries a 4403, asking connectionParams
// again), and its subscription carries on over the new connection.
func TestGraphQLWS_TheStockClientReconnectsWithAFreshToken(t *testing.T) {
	node, script := jstools.GraphQLJS.Script(t, "refresh.mjs")
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithAuthOptions(auth.Options{Leeway: -1}))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "ws"+strings.TrimPrefix(srv.URL, "http")+api.Endpoint,
		srv.TokenFor(t, "ann", 2*time.Second), srv.Token(t, "ann"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	next := func(want string) map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("refresh.mjs ended before %q: %v\n%s", want, lines.Err(), stderr.String())
		}
		var line map[string]any
		if err := json.Unmarshal(lines.Bytes(), &line); err != nil || line["event"] != want {
			t.Fatalf("refresh.mjs said %s, want %q (%v)", lines.Bytes(), want, err)
		}
		return line
	}

	next("connected")
	if closed := next("closed"); closed["code"] != float64(4403) || closed["reason"] != "Forbidden: the token has expired" {
		t.Fatalf("the client was told %v, want 4403 Forbidden: the token has expired", closed)
	}
	if again := next("connected"); again["params"] != float64(2) {
		t.Fatalf("reconnected with %v: want connectionParams asked again", again)
	}
	// A change now and then, until the subscription sent again on the new connection gets one.
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			_ = srv.Hub().Handle(ctx, []domain.Change{{Op: domain.Added, New: domain.User{Username: "ann"}}})
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	if event := next("next"); event["kind"] != "CREATED" {
		t.Fatalf("the subscription after the reconnection got %v", event)
	}
}

// TestSSE_AStreamEndsWhenItsTokenExpires: a stream of Server-Sent Events delivers its user's
// events until the token expires, and then ends with UNAUTHENTICATED in place of the next
// event, or at the expiry when none comes.
func TestSSE_AStreamEndsWhenItsTokenExpires(t *testing.T) {
	t.Run("an event past the expiry", func(t *testing.T) {
		clock := newTestClock(time.Now().Truncate(time.Second))
		srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithAuthOptions(auth.Options{Now: clock.Now}))
		sse := srv.WithHeader("Authorization", "Bearer "+srv.TokenFor(t, "ann", time.Minute)).
			SubscribeSSE(t, `subscription { userChanged(username: "bob") { kind } }`, nil)
		if _, err := srv.Store.CreateUser(context.Background(), "bob", domain.Profile{}); err != nil {
			t.Fatal(err)
		}
		if resp := sse.Next(t); len(resp.Errors) > 0 {
			t.Fatalf("an event in time: %+v", resp.Errors)
		}
		clock.Advance(time.Minute + auth.DefaultLeeway)
		if _, err := srv.Store.UpdateUser(context.Background(), "bob", domain.ProfileChanges{Set: map[domain.ProfileField]any{domain.FieldStatus: "back"}}); err != nil {
			t.Fatal(err)
		}
		if resp := sse.Next(t); resp.Code() != "UNAUTHENTICATED" || resp.Data != nil && string(resp.Data) != "null" {
			t.Fatalf("an event past the expiry: data %s, errors %+v; want only UNAUTHENTICATED", resp.Data, resp.Errors)
		}
		sse.Ended(t)
	})
	t.Run("no event", func(t *testing.T) {
		srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithAuthOptions(auth.Options{Leeway: -1}))
		sse := srv.WithHeader("Authorization", "Bearer "+srv.TokenFor(t, "ann", 2*time.Second)).
			SubscribeSSE(t, `subscription { userChanged(username: "bob") { kind } }`, nil)
		if resp := sse.Next(t); resp.Code() != "UNAUTHENTICATED" {
			t.Fatalf("at the expiry: %+v, want UNAUTHENTICATED", resp.Errors)
		}
		sse.Ended(t)
	})
}

// statusOf reads username's status as its owner sees it.
func statusOf(t *testing.T, srv *apitest.Server, username string) string {
	t.Helper()
	var got struct{ User struct{ Status string } }
	srv.As(t, username).Query(t, `query($u: ID!) { user(username: $u) { status } }`, map[string]any{"u": username}).Decode(t, &got)
	return got.User.Status
}
