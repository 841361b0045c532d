package apitest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/quickphotos/quickphotos/live"
)

// LiveTimeout bounds how long a test waits for a subscription's next message: events come
// from the stream a few FeedPolls after the write.
const LiveTimeout = 10 * time.Second

// WS is a graphql-ws client (the graphql-transport-ws protocol) connected to the server.
type WS struct {
	conn *websocket.Conn
	// hub is the server's, when the test has it: Subscribe waits on its count.
	hub  *live.Hub
	msgs chan wsMessage
	// held keeps the messages of other operations that Next read while waiting for one.
	held map[string][]wsMessage
}

// wsMessage is one message of the graphql-transport-ws protocol.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// DialWS opens a graphql-ws connection and waits for connection_ack; token, when not "",
// goes in connection_init as Apollo Client and graphql-ws send it. The connection closes
// when the test ends.
func (s *Server) DialWS(t testing.TB, token string) *WS {
	t.Helper()
	ws, err := s.TryDialWS(token)
	if err != nil {
		t.Fatalf("graphql-ws: %v", err)
	}
	t.Cleanup(func() { ws.conn.Close(websocket.StatusNormalClosure, "") })
	return ws
}

// TryDialWS is DialWS returning the error of a refused connection.
func (s *Server) TryDialWS(token string) (*WS, error) {
	ctx, cancel := context.WithTimeout(context.Background(), LiveTimeout)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.URL, "http")+"/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return nil, err
	}
	ws := &WS{conn: conn, hub: s.hub, msgs: make(chan wsMessage, 64), held: map[string][]wsMessage{}}
	init := wsMessage{Type: "connection_init"}
	if token != "" {
		init.Payload, _ = json.Marshal(map[string]string{"Authorization": "Bearer " + token})
	}
	if err := wsjson.Write(ctx, conn, init); err != nil {
		return nil, err
	}
	var ack wsMessage
	if err := wsjson.Read(ctx, conn, &ack); err != nil {
		return nil, err
	}
	if ack.Type != "connection_ack" {
		conn.Close(websocket.StatusNormalClosure, "")
		return nil, &wsRefused{ack}
	}
	go ws.read()
	return ws, nil
}

type wsRefused struct{ msg wsMessage }

func (e *wsRefused) Error() string {
	return "connection_init answered " + e.msg.Type + " " + string(e.msg.Payload)
}

// Close closes the connection.
func (ws *WS) Close() { ws.conn.Close(websocket.StatusNormalClosure, "") }

// read passes every message to msgs, answering pings.
func (ws *WS) read() {
	defer close(ws.msgs)
	for {
		var m wsMessage
		if err := wsjson.Read(context.Background(), ws.conn, &m); err != nil {
			return
		}
		if m.Type == "ping" {
			_ = wsjson.Write(context.Background(), ws.conn, wsMessage{Type: "pong"})
			continue
		}
		ws.msgs <- m
	}
}

// Subscribe starts operation id and, on a server whose hub the test has, waits until the
// server has started it: graphql-ws acknowledges no subscription, and a change made before
// the hub holds the subscriber never reaches it. A subscription the server refuses would
// never start: send it with SubscribeRefused.
func (ws *WS) Subscribe(t testing.TB, id, query string, vars map[string]any) {
	t.Helper()
	var before int64
	if ws.hub != nil {
		before = ws.hub.Stats().Subscriptions
	}
	ws.send(t, id, query, vars)
	if ws.hub != nil {
		awaitSubscriptions(t, ws.hub, before+1, "operation "+id)
	}
}

// SubscribeRefused sends operation id, which the server is to refuse, and returns the
// refusal's code (see Refused).
func (ws *WS) SubscribeRefused(t testing.TB, id, query string, vars map[string]any) string {
	t.Helper()
	ws.send(t, id, query, vars)
	return ws.Refused(t, id)
}

// Query sends a query or mutation as operation id, as graphql-ws allows, and returns its one
// response.
func (ws *WS) Query(t testing.TB, id, query string, vars map[string]any) *Response {
	t.Helper()
	ws.send(t, id, query, vars)
	resp, ended := ws.Next(t, id)
	if resp == nil {
		t.Fatalf("operation %s completed without a response", id)
	}
	if !ended {
		if _, ended := ws.Next(t, id); !ended {
			t.Fatalf("operation %s went on after its response", id)
		}
	}
	return resp
}

// send sends a subscribe message for operation id.
func (ws *WS) send(t testing.TB, id, query string, vars map[string]any) {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err := wsjson.Write(context.Background(), ws.conn, wsMessage{ID: id, Type: "subscribe", Payload: payload}); err != nil {
		t.Fatalf("subscribe %s: %v", id, err)
	}
}

// awaitSubscriptions waits until hub holds at least n subscriptions.
func awaitSubscriptions(t testing.TB, hub *live.Hub, n int64, what string) {
	t.Helper()
	Eventually(t, what+" started", func() (bool, string) {
		got := hub.Stats().Subscriptions
		return got >= n, fmt.Sprintf("%d subscriptions, want %d", got, n)
	})
}

// Next waits for the next message of operation id and returns it as a response: a "next"
// message's payload, or the errors of an "error" message; Ended reports a "complete".
func (ws *WS) Next(t testing.TB, id string) (resp *Response, ended bool) {
	t.Helper()
	timeout := time.After(LiveTimeout)
	for {
		var m wsMessage
		if held := ws.held[id]; len(held) > 0 {
			m, ws.held[id] = held[0], held[1:]
		} else {
			select {
			case msg, ok := <-ws.msgs:
				if !ok {
					t.Fatalf("operation %s: the connection closed", id)
				}
				if msg.ID != id {
					ws.held[msg.ID] = append(ws.held[msg.ID], msg)
					continue
				}
				m = msg
			case <-timeout:
				t.Fatalf("operation %s: nothing within %s", id, LiveTimeout)
			}
		}
		switch m.Type {
		case "next":
			var r Response
			if err := json.Unmarshal(m.Payload, &r); err != nil {
				t.Fatalf("operation %s: payload %s: %v", id, m.Payload, err)
			}
			return &r, false
		case "error":
			r := &Response{}
			if err := json.Unmarshal(m.Payload, &r.Errors); err != nil {
				t.Fatalf("operation %s: error payload %s: %v", id, m.Payload, err)
			}
			return r, true
		case "complete":
			return nil, true
		}
	}
}

// Refused waits for operation id to end with an error and returns its code: an "error"
// message, or a "next" with errors and no data followed by "complete".
func (ws *WS) Refused(t testing.TB, id string) string {
	t.Helper()
	return ws.refusal(t, id).Code()
}

// SubscribeRefusal sends operation id, which the server is to refuse, and returns the refusal.
func (ws *WS) SubscribeRefusal(t testing.TB, id, query string, vars map[string]any) *Response {
	t.Helper()
	ws.send(t, id, query, vars)
	return ws.refusal(t, id)
}

func (ws *WS) refusal(t testing.TB, id string) *Response {
	t.Helper()
	resp, ended := ws.Next(t, id)
	if resp == nil || len(resp.Errors) == 0 {
		t.Fatalf("operation %s: %+v, want an error", id, resp)
	}
	if !ended {
		if _, ended := ws.Next(t, id); !ended {
			t.Fatalf("operation %s went on after its error", id)
		}
	}
	return resp
}

// Complete tells the server the client is done with operation id.
func (ws *WS) Complete(id string) error {
	return wsjson.Write(context.Background(), ws.conn, wsMessage{ID: id, Type: "complete"})
}

// SSE is a subscription over Server-Sent Events.
type SSE struct {
	resp   *http.Response
	events chan string
}

// SubscribeSSE starts a subscription over Server-Sent Events (POST with Accept:
// text/event-stream), with the server's header, and waits as Subscribe does until the
// server has started it (its headers come first); it ends when the test does.
func (s *Server) SubscribeSSE(t testing.TB, query string, vars map[string]any) *SSE {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	return s.subscribeSSE(t, req)
}

// QueryOverSSE sends an operation over Server-Sent Events (POST with Accept:
// text/event-stream), with the server's header, and returns the response and its whole body:
// the stream of a query or mutation ends after its one event, and a request refused before
// GraphQL ran is answered with JSON.
func (s *Server) QueryOverSSE(t testing.TB, query string, vars map[string]any) (*http.Response, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/graphql", strings.NewReader(string(body)))
	for name, values := range s.header {
		req.Header[name] = values
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	client := http.Client{Timeout: LiveTimeout}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("SSE: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("SSE: reading the stream: %v", err)
	}
	return resp, string(b)
}

// SubscribeSSEByGET is SubscribeSSE with GET, the operation in the URL, as EventSource sends it.
func (s *Server) SubscribeSSEByGET(t testing.TB, query string, vars map[string]any) *SSE {
	t.Helper()
	params := url.Values{"query": {query}}
	if vars != nil {
		b, _ := json.Marshal(vars)
		params.Set("variables", string(b))
	}
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/graphql?"+params.Encode(), nil)
	return s.subscribeSSE(t, req)
}

func (s *Server) subscribeSSE(t testing.TB, req *http.Request) *SSE {
	t.Helper()
	var before int64
	if s.hub != nil {
		before = s.hub.Stats().Subscriptions
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req = req.WithContext(ctx)
	for name, values := range s.header {
		req.Header[name] = values
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("SSE: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("SSE: status %d", resp.StatusCode)
	}
	sse := &SSE{resp: resp, events: make(chan string, 64)}
	go func() {
		defer close(sse.events)
		sc := bufio.NewScanner(resp.Body)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && event == "next":
				sse.events <- strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	if s.hub != nil {
		awaitSubscriptions(t, s.hub, before+1, "the SSE subscription")
	}
	return sse
}

// Next waits for the subscription's next event.
func (sse *SSE) Next(t testing.TB) *Response {
	t.Helper()
	select {
	case data, ok := <-sse.events:
		if !ok {
			t.Fatal("SSE: the stream ended")
		}
		var r Response
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			t.Fatalf("SSE: %s: %v", data, err)
		}
		return &r
	case <-time.After(LiveTimeout):
		t.Fatalf("SSE: nothing within %s", LiveTimeout)
	}
	return nil
}

// Ended waits for the server to end the stream, and fails the test if an event comes first.
func (sse *SSE) Ended(t testing.TB) {
	t.Helper()
	select {
	case data, ok := <-sse.events:
		if ok {
			t.Fatalf("SSE: an event %s, want the stream's end", data)
		}
	case <-time.After(LiveTimeout):
		t.Fatalf("SSE: the stream still open after %s", LiveTimeout)
	}
}

// RawWS is a WebSocket to the server's GraphQL endpoint that sends what a test tells it to,
// to check how the server holds graphql-transport-ws to its rules.
type RawWS struct {
	conn *websocket.Conn
}

// DialRawWS opens a WebSocket offering subprotocols (none: graphql-transport-ws) and sends
// nothing; it closes when the test ends.
func (s *Server) DialRawWS(t testing.TB, subprotocols ...string) *RawWS {
	t.Helper()
	if len(subprotocols) == 0 {
		subprotocols = []string{"graphql-transport-ws"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), LiveTimeout)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.URL, "http")+"/graphql", &websocket.DialOptions{Subprotocols: subprotocols})
	if err != nil {
		t.Fatalf("WebSocket: %v", err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return &RawWS{conn: conn}
}

// Send sends one text message as it is.
func (ws *RawWS) Send(t testing.TB, message string) {
	t.Helper()
	if err := ws.conn.Write(context.Background(), websocket.MessageText, []byte(message)); err != nil {
		t.Fatalf("send %s: %v", message, err)
	}
}

// Init sends connection_init with token (none when "") and waits for connection_ack.
func (ws *RawWS) Init(t testing.TB, token string) {
	t.Helper()
	init := `{"type":"connection_init"}`
	if token != "" {
		init = `{"type":"connection_init","payload":{"Authorization":"Bearer ` + token + `"}}`
	}
	ws.Send(t, init)
	if m := ws.Next(t); m["type"] != "connection_ack" {
		t.Fatalf("connection_init answered %v", m)
	}
}

// Next waits for the server's next message other than a ping, and fails the test if the
// connection closes first.
func (ws *RawWS) Next(t testing.TB) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), LiveTimeout)
	defer cancel()
	for {
		var m map[string]any
		if err := wsjson.Read(ctx, ws.conn, &m); err != nil {
			t.Fatalf("waiting for a message: %v", err)
		}
		if m["type"] != "ping" {
			return m
		}
	}
}

// Closed waits for the server to close the connection and returns its close code and reason;
// it fails the test if a message other than a ping comes first.
func (ws *RawWS) Closed(t testing.TB) (code int, reason string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), LiveTimeout)
	defer cancel()
	for {
		_, data, err := ws.conn.Read(ctx)
		if err != nil {
			var closeErr websocket.CloseError
			if !errors.As(err, &closeErr) {
				t.Fatalf("the connection ended without a close frame: %v", err)
			}
			return int(closeErr.Code), closeErr.Reason
		}
		if !strings.Contains(string(data), `"ping"`) {
			t.Fatalf("a message before the close: %s", data)
		}
	}
}
