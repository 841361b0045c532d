package apitest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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
	resp, ended := ws.Next(t, id)
	if resp == nil || len(resp.Errors) == 0 {
		t.Fatalf("operation %s: %+v, want an error", id, resp)
	}
	if !ended {
		if _, ended := ws.Next(t, id); !ended {
			t.Fatalf("operation %s went on after its error", id)
		}
	}
	return resp.Code()
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
	var before int64
	if s.hub != nil {
		before = s.hub.Stats().Subscriptions
	}
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/graphql", strings.NewReader(string(body)))
	req.Header = s.header.Clone()
	req.Header.Set("Content-Type", "application/json")
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
