package api_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/feed"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/live"
)

const photoChanged = `subscription($o: ID!, $t: String!) { photoChanged(owner: $o, timestamp: $t) {
  kind photo { reactionCounts { heart total } } reaction { type user { username } } } }`

type photoEvent struct {
	PhotoChanged struct {
		Kind  string
		Photo *struct {
			ReactionCounts struct{ Heart, Total int }
		}
		Reaction *struct {
			Type string
			User struct{ Username string }
		}
	}
}

func decodeEvent[T any](t *testing.T, r *apitest.Response) T {
	t.Helper()
	var v T
	r.Decode(t, &v)
	return v
}

// TestSubscriptions_PhotoChanged: a reaction and a deletion reach a graphql-ws subscriber of
// the photo, the deletion last, after which the subscription completes.
func TestSubscriptions_PhotoChanged(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	srv.MustCreateUsers(t, "owner", "fan")
	ts := apitest.Timestamp(1)
	srv.MustUploadPhoto(t, "owner", ts)
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "p", photoChanged, map[string]any{"o": "owner", "t": ts})
	// Subscribe returned once the server held the subscription, so the reaction reaches it.
	srv.MustReact(t, "fan", "owner", ts, "HEART")

	var kinds []string
	for len(kinds) < 2 {
		resp, ended := ws.Next(t, "p")
		if ended {
			t.Fatalf("the subscription ended after %v", kinds)
		}
		e := decodeEvent[photoEvent](t, resp).PhotoChanged
		kinds = append(kinds, e.Kind)
		switch e.Kind {
		case "REACTION_ADDED":
			if e.Reaction == nil || e.Reaction.Type != "HEART" || e.Reaction.User.Username != "fan" {
				t.Errorf("REACTION_ADDED with reaction %+v", e.Reaction)
			}
		case "UPDATED":
			if e.Photo == nil || e.Photo.ReactionCounts.Heart != 1 || e.Photo.ReactionCounts.Total != 1 {
				t.Errorf("UPDATED with photo %+v, want the counts after the reaction", e.Photo)
			}
		default:
			t.Errorf("event %s before the deletion", e.Kind)
		}
	}
	slices.Sort(kinds)
	if !slices.Equal(kinds, []string{"REACTION_ADDED", "UPDATED"}) {
		t.Fatalf("events %v, want a reaction added and the photo's counters updated", kinds)
	}

	if code := srv.DeletePhoto(t, "owner", ts).Code(); code != "" {
		t.Fatalf("delete: %s", code)
	}
	for {
		resp, ended := ws.Next(t, "p")
		if ended {
			t.Fatal("the subscription ended without a DELETED event")
		}
		e := decodeEvent[photoEvent](t, resp).PhotoChanged
		if e.Kind == "DELETED" {
			if e.Photo != nil {
				t.Errorf("DELETED with photo %+v", e.Photo)
			}
			break
		}
	}
	if _, ended := ws.Next(t, "p"); !ended {
		t.Error("an event after DELETED")
	}
}

// TestSubscriptions_WritesPastTheAPI: a profile written straight into the table, as any
// DynamoDB client would, reaches a subscriber over Server-Sent Events too.
func TestSubscriptions_WritesPastTheAPI(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	name := "Zoe"
	q := `subscription { userChanged(username: "zoe") { kind user { username name followerCount } } }`
	sse := srv.SubscribeSSE(t, q, nil)
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "u", q, nil)
	type userEvent struct {
		UserChanged struct {
			Kind string
			User *struct {
				Username, Name string
				FollowerCount  int
			}
		}
	}
	srv.WriteRaw(t, domain.Dataset{Users: []domain.User{{Username: "zoe", Profile: domain.Profile{Name: &name}, FollowerCount: 3}}})
	wsResp, _ := ws.Next(t, "u")
	for transport, resp := range map[string]*apitest.Response{"SSE": sse.Next(t), "graphql-ws": wsResp} {
		e := decodeEvent[userEvent](t, resp).UserChanged
		if e.Kind != "CREATED" || e.User == nil || e.User.Name != "Zoe" || e.User.FollowerCount != 3 {
			t.Errorf("%s: event %+v, want zoe CREATED as written", transport, e)
		}
	}
}

// TestSubscriptions_TheCallersOwn: followerAdded and feedPhotoAdded are the caller's, named by
// the token of connection_init; without one they are refused.
func TestSubscriptions_TheCallersOwn(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithLive(live.Config{}), apitest.WithFeed(feed.Config{}))
	srv.MustCreateUsers(t, "ann", "bob")

	anonymous := srv.DialWS(t, "")
	if code := anonymous.SubscribeRefused(t, "f", `subscription { followerAdded { follower { username } } }`, nil); code != "UNAUTHENTICATED" {
		t.Fatalf("followerAdded without a token: %s, want UNAUTHENTICATED", code)
	}
	if _, err := srv.TryDialWS("not-a-token"); err == nil {
		t.Error("a connection_init with a bad token was acknowledged")
	}

	ann := srv.DialWS(t, srv.Token(t, "ann"))
	ann.Subscribe(t, "f", `subscription { followerAdded { follower { username } followed { username } } }`, nil)
	ann.Subscribe(t, "feed", `subscription { feedPhotoAdded { owner { username } timestamp } }`, nil)
	srv.MustFollow(t, "bob", "ann")
	srv.MustFollow(t, "ann", "bob")
	var follower struct {
		FollowerAdded struct{ Follower, Followed struct{ Username string } }
	}
	resp, _ := ann.Next(t, "f")
	resp.Decode(t, &follower)
	if follower.FollowerAdded.Follower.Username != "bob" || follower.FollowerAdded.Followed.Username != "ann" {
		t.Errorf("followerAdded %+v, want bob following ann", follower)
	}

	srv.MustUploadPhoto(t, "bob", apitest.Timestamp(9))
	var photo struct {
		FeedPhotoAdded struct {
			Owner     struct{ Username string }
			Timestamp string
		}
	}
	resp, _ = ann.Next(t, "feed")
	resp.Decode(t, &photo)
	if photo.FeedPhotoAdded.Owner.Username != "bob" || photo.FeedPhotoAdded.Timestamp != apitest.Timestamp(9) {
		t.Errorf("feedPhotoAdded %+v, want bob's photo", photo)
	}
}

// TestSubscriptions_EveryInstanceDelivers: two server instances on one table, each with its
// own stream consumer, both deliver a change made through one of them.
func TestSubscriptions_EveryInstanceDelivers(t *testing.T) {
	one := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	two := one.Twin(t, live.Config{})
	q := `subscription { userChanged(username: "dee") { kind } }`
	a, b := one.DialWS(t, ""), two.DialWS(t, "")
	a.Subscribe(t, "u", q, nil)
	b.Subscribe(t, "u", q, nil)
	two.MustCreateUser(t, "dee")
	for name, ws := range map[string]*apitest.WS{"the instance written through": b, "the other": a} {
		resp, _ := ws.Next(t, "u")
		var e struct{ UserChanged struct{ Kind string } }
		resp.Decode(t, &e)
		if e.UserChanged.Kind != "CREATED" {
			t.Errorf("%s: %+v", name, e)
		}
	}
}

// TestSubscriptions_Limits: a connection holds at most PerConnection subscriptions, and the
// depth and cost limits apply to subscriptions as to queries.
func TestSubscriptions_Limits(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{PerConnection: 2}))
	ws := srv.DialWS(t, "")
	userChanged := func(i int) string {
		return fmt.Sprintf(`subscription { userChanged(username: "u%d") { kind } }`, i)
	}
	ws.Subscribe(t, "1", userChanged(1), nil)
	ws.Subscribe(t, "2", userChanged(2), nil)
	if code := ws.SubscribeRefused(t, "3", userChanged(3), nil); code != "LIMIT_EXCEEDED" {
		t.Fatalf("a third subscription on a connection capped at 2: %s", code)
	}
	deep := `subscription { userChanged(username: "a") { user { followers { edges { node { follower { followers { edges { node { follower { followers { edges { node { follower { username } } } } } } } } } } } } } } }`
	if code := ws.SubscribeRefused(t, "deep", deep, nil); code != "QUERY_LIMIT_EXCEEDED" {
		t.Fatalf("a subscription past the depth limit: %s", code)
	}
}

// TestGraphQLWS_OperationsInFlightAreCapped: besides the subscriptions it holds, a connection
// has at most PerConnection operations in flight (queries and mutations running, subscribe
// messages not yet started); the next is refused with LIMIT_EXCEEDED, and there is room again
// once one ends.
func TestGraphQLWS_OperationsInFlightAreCapped(t *testing.T) {
	var store apitest.RequestLog
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{PerConnection: 2}), apitest.WithStoreObserver(&store),
		apitest.WithConfig(func(c *api.Config) { c.RequestTimeout = time.Minute }))
	ws := srv.DialRawWS(t)
	ws.Init(t, "")
	subscribe := func(id, query string) {
		payload, _ := json.Marshal(map[string]any{"query": query})
		ws.Send(t, fmt.Sprintf(`{"id":%q,"type":"subscribe","payload":%s}`, id, payload))
	}
	subscribe("s1", `subscription { userChanged(username: "u1") { kind } }`)
	subscribe("s2", `subscription { userChanged(username: "u2") { kind } }`)
	apitest.Eventually(t, "two subscriptions held", func() (bool, string) {
		n := srv.Hub().Stats().Subscriptions
		return n == 2, fmt.Sprintf("%d subscriptions", n)
	})

	store.Block() // reads hang: queries stay in flight
	const read = `{ user(username: "u1") { name } }`
	subscribe("q1", read)
	subscribe("q2", read)
	waitFor(t, func() bool { return len(store.Requests()) >= 2 })
	subscribe("q3", read)
	m := ws.Next(t)
	if m["id"] != "q3" || m["type"] != "error" || !strings.Contains(fmt.Sprint(m["payload"]), "LIMIT_EXCEEDED") {
		t.Fatalf("a third query in flight: %v, want an error message with LIMIT_EXCEEDED", m)
	}

	ws.Send(t, `{"id":"q1","type":"complete"}`)
	for i := 0; ; i++ {
		subscribe(fmt.Sprintf("t%d", i), `{ __typename }`)
		m := ws.Next(t)
		if m["type"] == "next" {
			break
		}
		if i == 100 {
			t.Fatalf("still refused once a query was completed: %v", m)
		}
		time.Sleep(10 * time.Millisecond) // the completed query ends a moment later
	}
}

// TestSubscriptions_ASubscriberTooFarBehindIsTold: more changes at once than a subscriber's
// buffer holds end its subscription with LIMIT_EXCEEDED, over graphql-ws and SSE alike; the
// hub does not wait for it. How many changes get through first depends on how often the
// subscriber's goroutine runs during the burst (live's own tests pin that down): the burst is
// long enough that no subscriber keeps up with all of it.
func TestSubscriptions_ASubscriberTooFarBehindIsTold(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{Buffer: 1}))
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "u", `subscription { userChanged(username: "flood") { kind } }`, nil)
	burst := make([]domain.Change, 1000)
	for i := range burst {
		burst[i] = domain.Change{Op: domain.Updated, New: domain.User{Username: "flood", FollowerCount: i}}
	}
	if err := srv.Hub().Handle(t.Context(), burst); err != nil {
		t.Fatal(err)
	}
	for events := 0; ; events++ {
		resp, ended := ws.Next(t, "u")
		if resp != nil && len(resp.Errors) > 0 {
			if code := resp.Code(); code != "LIMIT_EXCEEDED" {
				t.Fatalf("ended with %s, want LIMIT_EXCEEDED", code)
			}
			break
		}
		if ended {
			t.Fatalf("the subscription completed after %d events without saying why", events)
		}
		if events >= len(burst) {
			t.Fatalf("all %d changes delivered through a buffer of 1", events)
		}
	}
}

// TestSubscriptions_ConnectionCap: past MaxLiveConnections open ones, a new live connection is
// refused with 503, and is let in again once one closes.
func TestSubscriptions_ConnectionCap(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) { c.MaxLiveConnections = 1 }))
	first, err := srv.TryDialWS("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.TryDialWS(""); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("a second connection past a cap of 1: %v, want 503", err)
	}
	first.Close()
	apitest.Eventually(t, "a connection is let in after the first closed", func() (bool, string) {
		ws, err := srv.TryDialWS("")
		if err != nil {
			return false, err.Error()
		}
		ws.Close()
		return true, ""
	})
}

// TestGraphQLWS_CloseCodes: every breach of graphql-transport-ws closes the connection with the
// code the protocol gives it, which the stock client acts on (graphql-ws retries 1000 and 1002
// at once, in a loop), and each refusal is logged with its code.
func TestGraphQLWS_CloseCodes(t *testing.T) {
	var logs syncbuf.Buffer
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		c.LiveInitTimeout = 3 * time.Second // long enough for the other cases to send theirs, on a loaded machine too
	}))
	srv.MustCreateUser(t, "ann")
	const sub = `{"id":"1","type":"subscribe","payload":{"query":"subscription { userChanged(username: \"ann\") { kind } }"}}`
	cases := []struct {
		name         string
		subprotocols []string
		skipInit     bool
		token        string
		send         []string
		code         int
		reason       string
	}{
		{name: "connection_init with a bad token", skipInit: true, send: []string{`{"type":"connection_init","payload":{"Authorization":"Bearer not-a-token"}}`}, code: 4403, reason: "Forbidden"},
		{name: "a second subscribe with a running id", send: []string{sub, sub}, code: 4409, reason: "Subscriber for 1 already exists"},
		{name: "an unknown message type", send: []string{`{"type":"hello"}`}, code: 4400},
		{name: "a message that is not JSON", send: []string{`hello`}, code: 4400},
		{name: "a JSON array", send: []string{`[{"type":"ping"}]`}, code: 4400},
		{name: "a message without a type", send: []string{`{"id":"1"}`}, code: 4400},
		{name: "subscribe without an id", send: []string{`{"type":"subscribe","payload":{"query":"subscription { userChanged(username: \"ann\") { kind } }"}}`}, code: 4400},
		{name: "subscribe without a payload", send: []string{`{"id":"1","type":"subscribe"}`}, code: 4400},
		{name: "subscribe with a query that is not a string", send: []string{`{"id":"1","type":"subscribe","payload":{"query":1}}`}, code: 4400},
		{name: "complete without an id", send: []string{`{"type":"complete"}`}, code: 4400},
		{name: "a server's message from the client", send: []string{`{"id":"1","type":"next","payload":{}}`}, code: 4400},
		{name: "subscribe before connection_init", skipInit: true, send: []string{sub}, code: 4401, reason: "Unauthorized"},
		{name: "a second connection_init", send: []string{`{"type":"connection_init"}`}, code: 4429, reason: "Too many initialisation requests"},
		{name: "no connection_init in time", skipInit: true, code: 4408, reason: "Connection initialisation timeout"},
		{name: "another subprotocol", subprotocols: []string{"graphql-ws"}, skipInit: true, code: 4406, reason: "Subprotocol not acceptable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := srv.DialRawWS(t, c.subprotocols...)
			if !c.skipInit {
				ws.Init(t, srv.Token(t, "ann"))
			}
			for _, m := range c.send {
				ws.Send(t, m)
			}
			code, reason := ws.Closed(t)
			if code != c.code || !strings.HasPrefix(reason, c.reason) {
				t.Fatalf("closed with %d %q, want %d %q", code, reason, c.code, c.reason)
			}
			apitest.Eventually(t, "the refusal logged with its code", func() (bool, string) {
				return strings.Contains(logs.String(), fmt.Sprintf("code=%d", c.code)), logs.String()
			})
		})
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("a client's mistake logged as an error:\n%s", logs.String())
	}
	apitest.Eventually(t, "no subscription left running", func() (bool, string) {
		n := srv.Hub().Stats().Subscriptions
		return n == 0, fmt.Sprintf("%d subscriptions", n)
	})
}

// TestGraphQLWS_RefusalsDoNotFloodTheLog: a client that reconnects in a loop with a bad token
// gets a line now and then that counts the refusals left out, not a line per connection.
func TestGraphQLWS_RefusalsDoNotFloodTheLog(t *testing.T) {
	var logs syncbuf.Buffer
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	}))
	const attempts = 30
	start := time.Now()
	for range attempts {
		ws := srv.DialRawWS(t)
		ws.Send(t, `{"type":"connection_init","payload":{"Authorization":"Bearer not-a-token"}}`)
		if code, _ := ws.Closed(t); code != 4403 {
			t.Fatalf("closed with %d, want 4403", code)
		}
	}
	// One line a second at most, however long a loaded machine took over the refusals.
	most := min(1+int(time.Since(start)/time.Second), attempts-1)
	lines := strings.Count(logs.String(), "code=4403")
	if lines == 0 || lines > most {
		t.Fatalf("%d log lines for %d refusals, want 1 to %d:\n%s", lines, attempts, most, logs.String())
	}
}

// TestGraphQLWS_OneOperationPerID: a subscribe whose id is running closes the connection (4409)
// and ends both operations; an id the client completed can be used again at once, and the
// completed operation sends nothing more.
func TestGraphQLWS_OneOperationPerID(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	q := `subscription { userChanged(username: "reuse") { kind } }`
	ws := srv.DialWS(t, "")
	ws.Subscribe(t, "x", q, nil)
	if err := ws.Complete("x"); err != nil {
		t.Fatal(err)
	}
	apitest.Eventually(t, "the completed subscription ended", func() (bool, string) {
		n := srv.Hub().Stats().Subscriptions
		return n == 0, fmt.Sprintf("%d subscriptions", n)
	})
	ws.Subscribe(t, "x", q, nil)
	srv.MustCreateUser(t, "reuse")
	resp, ended := ws.Next(t, "x")
	if ended {
		t.Fatal("the reused id ended: the first operation's complete reached it")
	}
	if e := decodeEvent[struct{ UserChanged struct{ Kind string } }](t, resp); e.UserChanged.Kind != "CREATED" {
		t.Fatalf("event %+v", e)
	}
}

// TestSubscriptions_OneRootField: a subscription of two root fields, two aliases of one field
// included, fails validation over HTTP, graphql-ws and SSE alike (gqlparser's rule counted
// field names, and the operation failed at execution as an internal error).
func TestSubscriptions_OneRootField(t *testing.T) {
	var logs syncbuf.Buffer
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	}))
	const message = "Anonymous Subscription must select only one top level field."
	for name, q := range map[string]string{
		"two fields":             `subscription { userChanged(username: "a") { kind } feedPhotoAdded { timestamp } }`,
		"one field, two aliases": `subscription { a: userChanged(username: "a") { kind } b: userChanged(username: "b") { kind } }`,
	} {
		t.Run(name, func(t *testing.T) {
			ws := srv.DialWS(t, "")
			over := map[string]*apitest.Response{"HTTP": srv.Query(t, q, nil), "SSE": sseResponse(t, srv, q), "graphql-ws": ws.SubscribeRefusal(t, "s", q, nil)}
			for transport, resp := range over {
				if resp.Code() != "GRAPHQL_VALIDATION_FAILED" || resp.Errors[0].Message != message {
					t.Errorf("%s: %+v, want GRAPHQL_VALIDATION_FAILED %q", transport, resp.Errors, message)
				}
			}
		})
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("logged as an error:\n%s", logs.String())
	}
}

// sseResponse posts q for Server-Sent Events and returns the first event's response.
func sseResponse(t *testing.T, srv *apitest.Server, q string) *apitest.Response {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+api.Endpoint, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	stream, _ := io.ReadAll(resp.Body)
	for line := range strings.SplitSeq(string(stream), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var r apitest.Response
			if err := json.Unmarshal([]byte(data), &r); err != nil {
				t.Fatalf("%s: %v", data, err)
			}
			return &r
		}
	}
	t.Fatalf("no event in %q", stream)
	return nil
}

// TestSubscriptions_ServerSentEventsByGET: EventSource's GET, the operation in the URL, as the
// docs/feed-and-live-updates.md offers it, delivers; a mutation sent so is refused with 405, as over plain GET.
func TestSubscriptions_ServerSentEventsByGET(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}))
	sse := srv.SubscribeSSEByGET(t, `subscription($u: ID!) { userChanged(username: $u) { kind user { username } } }`, map[string]any{"u": "gus"})
	srv.MustCreateUser(t, "gus")
	e := decodeEvent[struct {
		UserChanged struct {
			Kind string
			User struct{ Username string }
		}
	}](t, sse.Next(t))
	if e.UserChanged.Kind != "CREATED" || e.UserChanged.User.Username != "gus" {
		t.Fatalf("event %+v", e)
	}

	mutation := url.Values{"query": {`mutation { createUser(input: {username: "viaget"}) { username } }`}}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?"+mutation.Encode(), nil)
	req.Header.Set("Accept", "text/event-stream")
	resp := sendRequest(t, req)
	if resp.Status != http.StatusMethodNotAllowed || resp.Code() != "BAD_REQUEST" {
		t.Fatalf("a mutation by GET for SSE: %d %+v, want 405 BAD_REQUEST", resp.Status, resp.Errors)
	}
	if got := srv.Query(t, `{ user(username: "viaget") { username } }`, nil); string(got.Data) != `{"user":null}` {
		t.Fatalf("the mutation ran: %+v %s", got.Errors, got.Data)
	}

	// A mutation the URL names only by a persisted query's hash (or a trusted document's id)
	// is known to be one once its document is found: refused then, the same, before it runs.
	const create = `mutation($u: ID!) { createUser(input: {username: $u}) { username } }`
	sum := sha256.Sum256([]byte(create))
	ext, _ := json.Marshal(map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(sum[:])}})
	register, _ := json.Marshal(map[string]any{"query": create, "variables": map[string]any{"u": "first"}, "extensions": json.RawMessage(ext)})
	if got := postRaw(t, srv.URL, register, nil); len(got.Errors) > 0 {
		t.Fatalf("registering the persisted mutation: %+v", got.Errors)
	}
	byHash := url.Values{"extensions": {string(ext)}, "variables": {`{"u": "byhash"}`}}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+api.Endpoint+"?"+byHash.Encode(), nil)
	req.Header.Set("Accept", "text/event-stream")
	resp = sendRequest(t, req)
	if resp.Status != http.StatusMethodNotAllowed || resp.Code() != "BAD_REQUEST" {
		t.Fatalf("a persisted mutation by GET for SSE: %d %+v, want 405 BAD_REQUEST", resp.Status, resp.Errors)
	}
	if got := srv.Query(t, `{ user(username: "byhash") { username } }`, nil); string(got.Data) != `{"user":null}` {
		t.Fatalf("the persisted mutation ran: %+v %s", got.Errors, got.Data)
	}
}

func sendRequest(t *testing.T, req *http.Request) *apitest.Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r apitest.Response
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	r.Status = resp.StatusCode
	return &r
}

// TestGraphQLWS_TheStockClientIsToldWhy: graphql-ws's own JavaScript client, from npm, meets
// each refusal as the protocol defines it: the application's subscription ends with the close
// code, and the client retries only what graphql-ws retries, as often as retryAttempts says
// (a bad token: the server closed it with 1000 "terminated" before, which graphql-ws retries at
// once and for ever without telling the application).
func TestGraphQLWS_TheStockClientIsToldWhy(t *testing.T) {
	node, script := jstools.GraphQLJS.Script(t, "closecodes.mjs")
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) {
		c.LiveInitTimeout = 3 * time.Second // long enough for the other cases to send theirs, on a loaded machine too
	}))
	srv.MustCreateUser(t, "ann")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "ws"+strings.TrimPrefix(srv.URL, "http")+api.Endpoint, srv.Token(t, "ann"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("closecodes.mjs: %v\n%s", err, stderr.String())
	}
	type outcome struct {
		Code     *int
		Reason   string
		Connects int
	}
	got := map[string]outcome{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		var o struct {
			Name string
			outcome
		}
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		got[o.Name] = o.outcome
	}
	want := map[string]struct{ code, connects int }{
		"bad token, two retries":           {4403, 3},
		"bad token, no retries":            {4403, 1},
		"two subscriptions with one id":    {4409, 1},
		"a message that is not JSON":       {4400, 1},
		"an unknown message type":          {4400, 1},
		"subscribe without an id":          {4400, 1},
		"subscribe before connection_init": {4401, 1},
		"a second connection_init":         {4429, 1},
		"no connection_init":               {4408, 1},
	}
	for name, w := range want {
		o, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: the script did not run it", name)
		case o.Code == nil:
			t.Errorf("%s: the application was not told (%s) after %d connections", name, o.Reason, o.Connects)
		case *o.Code != w.code || o.Connects != w.connects:
			t.Errorf("%s: closed with %d %q after %d connections, want %d after %d", name, *o.Code, o.Reason, o.Connects, w.code, w.connects)
		}
	}
}
