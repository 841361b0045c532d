package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// wsMessage is one message of the graphql-transport-ws protocol.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// subscribers are the graphql-ws connections of one round, each subscribed to feedPhotoAdded
// as another user, and the uploads whose arrival they time.
type subscribers struct {
	n      int
	pop    *population
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu sync.Mutex
	// sentAt is when each upload of the round was sent.
	sentAt map[photoRef]time.Time
	// lastUpload and lastEvent are when the latest upload was sent and the latest event arrived,
	// so that drain knows when events stopped coming.
	lastUpload, lastEvent time.Time
	events                int
	ended                 int
	lag                   latencies
	timedEvents           int
	backfilled            int
}

// subscribe opens n connections to the GraphQL endpoint url (its ws:// twin), as the first n
// users of the sample, and subscribes each to its feed.
func subscribe(ctx context.Context, url string, n int, pop *population, tokens func(string) (string, error)) (*subscribers, error) {
	live, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &subscribers{n: n, pop: pop, cancel: cancel, sentAt: map[photoRef]time.Time{}}
	wsURL := "ws" + strings.TrimPrefix(url, "http")
	for i := range n {
		user := pop.users[i%len(pop.users)]
		token, err := tokens(user)
		if err != nil {
			s.close()
			return nil, err
		}
		conn, err := dialSubscription(ctx, wsURL, token, fmt.Sprint(i))
		if err != nil {
			s.close()
			return nil, fmt.Errorf("subscriber %d: %w", i, err)
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer conn.CloseNow()
			s.receive(live, conn, user)
		}()
	}
	return s, nil
}

// dialSubscription connects, authenticates in connection_init and subscribes.
func dialSubscription(ctx context.Context, url, token, id string) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(1 << 20)
	init, _ := json.Marshal(map[string]string{"Authorization": "Bearer " + token})
	if err := wsjson.Write(ctx, conn, wsMessage{Type: "connection_init", Payload: init}); err != nil {
		conn.CloseNow()
		return nil, err
	}
	var ack wsMessage
	if err := wsjson.Read(ctx, conn, &ack); err != nil || ack.Type != "connection_ack" {
		conn.CloseNow()
		return nil, fmt.Errorf("connection_init answered %s %s (%v)", ack.Type, ack.Payload, err)
	}
	query, _ := json.Marshal(map[string]string{"query": feedSubscribe})
	if err := wsjson.Write(ctx, conn, wsMessage{ID: id, Type: "subscribe", Payload: query}); err != nil {
		conn.CloseNow()
		return nil, err
	}
	return conn, nil
}

// receive reads the events of user's connection until ctx ends or the server ends the
// subscription.
func (s *subscribers) receive(ctx context.Context, conn *websocket.Conn, user string) {
	for {
		var m wsMessage
		if err := wsjson.Read(ctx, conn, &m); err != nil {
			if ctx.Err() == nil {
				s.count(func() { s.ended++ })
			}
			return
		}
		switch m.Type {
		case "ping":
			_ = wsjson.Write(ctx, conn, wsMessage{Type: "pong"})
		case "next":
			var p struct {
				Data struct {
					FeedPhotoAdded struct{ Username, Timestamp string }
				}
				Errors []json.RawMessage
			}
			if json.Unmarshal(m.Payload, &p) != nil || len(p.Errors) > 0 {
				s.count(func() { s.ended++ })
				return
			}
			s.arrived(user, photoRef{p.Data.FeedPhotoAdded.Username, p.Data.FeedPhotoAdded.Timestamp}, time.Now())
		case "error", "complete":
			s.count(func() { s.ended++ })
			return
		}
	}
}

func (s *subscribers) count(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

// uploading notes when an upload is sent, before it is, so that no event can come first.
func (s *subscribers) uploading(p photoRef, at time.Time) {
	s.count(func() { s.sentAt[p], s.lastUpload = at, at })
}

// arrived times an event of user's feed against its upload, when the run made it and user
// did not start following its owner after: a new follow brings recent photos into the feed,
// which is not an upload reaching its subscribers.
func (s *subscribers) arrived(user string, p photoRef, at time.Time) {
	s.mu.Lock()
	sent, ok := s.sentAt[p]
	s.mu.Unlock()
	backfill := ok && s.pop.followedSince(user, p.Owner, sent)
	s.count(func() {
		s.events++
		s.lastEvent = at
		switch {
		case backfill:
			s.backfilled++
		case ok:
			s.timedEvents++
			s.lag = append(s.lag, at.Sub(sent))
		}
	})
}

// drain waits, at most max, until a second has passed since the last upload and no event has
// arrived for half a second, once one has: the events of the round's last uploads are still on
// their way when it ends (the stream is polled, and a feed event takes two hops).
func (s *subscribers) drain(ctx context.Context, max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		s.mu.Lock()
		// Until a first event arrives, the round's uploads may all still be on their way: a
		// loaded machine can hold the stream's hops past any quiet period.
		waiting := !s.lastUpload.IsZero() && s.lastEvent.IsZero()
		quiet := !waiting && time.Since(s.lastUpload) > time.Second && time.Since(s.lastEvent) > 500*time.Millisecond
		s.mu.Unlock()
		if quiet {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// close ends every connection and waits for their readers.
func (s *subscribers) close() {
	s.cancel()
	s.wg.Wait()
}

// report adds what the round's subscribers received to l.
func (s *subscribers) report(l *LiveReport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l.Events += s.events
	l.Timed += s.timedEvents
	l.Backfilled += s.backfilled
	l.Ended += s.ended
	l.Lag = append(l.Lag, s.lag...)
}
