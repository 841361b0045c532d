package live

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/quickphotos/quickphotos/domain"
)

// Defaults of a zero Config field.
const (
	DefaultBuffer        = 256
	DefaultPerConnection = 100
)

// Config bounds what subscribers may hold.
type Config struct {
	// Buffer is how many changes a subscriber may have waiting; DefaultBuffer when zero.
	Buffer int
	// PerConnection is how many subscriptions one connection may hold at once;
	// DefaultPerConnection when zero.
	PerConnection int
}

// Topic is what a subscription is about.
type Topic struct {
	kind topicKind
	key  string
}

type topicKind uint8

const (
	photoTopic topicKind = iota + 1
	userTopic
	followersTopic
	feedTopic
	syncTopic
)

// PhotoTopic is the changes of photo k and of its reactions.
func PhotoTopic(k domain.PhotoKey) Topic { return Topic{photoTopic, k.Owner + "\x00" + k.Timestamp} }

// UserTopic is the changes of username's profile.
func UserTopic(username string) Topic { return Topic{userTopic, username} }

// FollowersTopic is the friendships in which username is followed.
func FollowersTopic(username string) Topic { return Topic{followersTopic, username} }

// FeedTopic is the entries that come into reader's feed.
func FeedTopic(reader string) Topic { return Topic{feedTopic, reader} }

// SyncTopic is the moves of the head of user's own change log: a hint that user has changes.
func SyncTopic(user string) Topic { return Topic{syncTopic, user} }

// topicOf is the topic of a change; false for changes no subscription is about.
func topicOf(c domain.Change) (Topic, bool) {
	switch e := c.Entity().(type) {
	case domain.Photo:
		return PhotoTopic(e.Key()), true
	case domain.Reaction:
		return PhotoTopic(e.Photo), true
	case domain.User:
		return UserTopic(e.Username), true
	case domain.Friendship:
		return FollowersTopic(e.Followed), c.Op == domain.Added
	case domain.FeedEntry:
		return FeedTopic(e.Reader), c.Op == domain.Added
	case domain.SyncHead:
		return SyncTopic(e.Log.User), !e.Log.Public && c.Op != domain.Removed
	}
	return Topic{}, false
}

// ErrLagged ends the subscription of a subscriber that fell too far behind.
var ErrLagged = domain.Errorf(domain.LimitExceeded, "this subscription fell too far behind the changes and was ended; subscribe again, and query what changed meanwhile")

// Hub passes changes to the subscribers of their topics. It is safe for concurrent use.
type Hub struct {
	cfg Config

	mu   sync.Mutex
	subs map[Topic]map[*Subscription]struct{}

	delivered, dropped atomic.Int64
	active             atomic.Int64
	connections        atomic.Int64
}

// NewHub returns a hub with no subscribers.
func NewHub(cfg Config) *Hub {
	if cfg.Buffer <= 0 {
		cfg.Buffer = DefaultBuffer
	}
	if cfg.PerConnection <= 0 {
		cfg.PerConnection = DefaultPerConnection
	}
	return &Hub{cfg: cfg, subs: map[Topic]map[*Subscription]struct{}{}}
}

// PerConnection is how many subscriptions one connection may hold at once (Config.PerConnection).
func (h *Hub) PerConnection() int { return h.cfg.PerConnection }

// Subscription receives the changes of one topic until it is closed.
type Subscription struct {
	hub     *Hub
	topic   Topic
	changes chan domain.Change
	conn    *connection
	once    sync.Once
	lagged  atomic.Bool
}

// Subscribe starts a subscription to topic for the connection in ctx. It fails with
// LimitExceeded when the connection holds Config.PerConnection subscriptions already.
func (h *Hub) Subscribe(ctx context.Context, topic Topic) (*Subscription, error) {
	conn := connectionFrom(ctx)
	if conn != nil && conn.held.Add(1) > int64(h.cfg.PerConnection) {
		conn.held.Add(-1)
		return nil, domain.Errorf(domain.LimitExceeded, "a connection holds at most %d subscriptions", h.cfg.PerConnection)
	}
	s := &Subscription{hub: h, topic: topic, changes: make(chan domain.Change, h.cfg.Buffer), conn: conn}
	h.mu.Lock()
	if h.subs[topic] == nil {
		h.subs[topic] = map[*Subscription]struct{}{}
	}
	h.subs[topic][s] = struct{}{}
	h.mu.Unlock()
	h.active.Add(1)
	return s, nil
}

// Changes delivers the subscription's changes, in the order they were made for each item. It
// is closed when the subscription ends: Err says why.
func (s *Subscription) Changes() <-chan domain.Change { return s.changes }

// Err is ErrLagged when the subscription ended because it fell behind, nil otherwise.
func (s *Subscription) Err() error {
	if s.lagged.Load() {
		return ErrLagged
	}
	return nil
}

// Close ends the subscription. It is safe to call more than once.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	s.end()
	s.hub.mu.Unlock()
}

// end removes s from its topic and closes its channel; the hub's lock is held.
func (s *Subscription) end() {
	s.once.Do(func() {
		subs := s.hub.subs[s.topic]
		delete(subs, s)
		if len(subs) == 0 {
			delete(s.hub.subs, s.topic)
		}
		close(s.changes)
		s.hub.active.Add(-1)
		if s.conn != nil {
			s.conn.held.Add(-1)
		}
	})
}

// Handle passes changes to their subscribers; it never waits for one. It is a stream.Handler
// and never fails.
func (h *Hub) Handle(_ context.Context, changes []domain.Change) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range changes {
		topic, ok := topicOf(c)
		if !ok {
			continue
		}
		for s := range h.subs[topic] {
			select {
			case s.changes <- c:
				h.delivered.Add(1)
			default:
				h.dropped.Add(1)
				s.lagged.Store(true)
				s.end()
			}
		}
	}
	return nil
}

// Close ends every subscription, as a server that shuts down does: each completes, so clients
// learn it ended rather than waiting on a silent connection. New subscriptions still start;
// stop accepting connections first.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for s := range subs {
			s.end()
		}
	}
}

// Stats are the hub's counters, for metrics.
type Stats struct {
	// Connections and Subscriptions are open now.
	Connections, Subscriptions int64
	// Delivered counts the changes passed to subscribers; Lagged the subscriptions ended
	// because they fell behind.
	Delivered, Lagged int64
}

// Stats returns the hub's counters.
func (h *Hub) Stats() Stats {
	return Stats{Connections: h.connections.Load(), Subscriptions: h.active.Load(), Delivered: h.delivered.Load(), Lagged: h.dropped.Load()}
}

// Connected counts a client connection open until the returned func is called.
func (h *Hub) Connected() (disconnected func()) {
	h.connections.Add(1)
	var once sync.Once
	return func() { once.Do(func() { h.connections.Add(-1) }) }
}

// connection counts the subscriptions one client connection holds.
type connection struct{ held atomic.Int64 }

type connectionKey struct{}

// WithConnection marks ctx as one client connection's (a WebSocket, or one Server-Sent Events
// request): the subscriptions started with it count against Config.PerConnection together.
func WithConnection(ctx context.Context) context.Context {
	return context.WithValue(ctx, connectionKey{}, &connection{})
}

func connectionFrom(ctx context.Context) *connection {
	c, _ := ctx.Value(connectionKey{}).(*connection)
	return c
}
