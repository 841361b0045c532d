package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/quickphotos/quickphotos/domain"
)

// Open connects to the Redis server a redis:// (or rediss://) URL names.
func Open(url string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	return redis.NewClient(opts), nil
}

// Channel is the pub/sub channel of table's changes.
func Channel(table string) string { return "quickphotos:" + table + ":changes" }

// Publisher publishes every change it is handed on a Redis channel. Its Handle is a
// stream.Handler.
type Publisher struct {
	client  *redis.Client
	channel string
}

// NewPublisher returns a publisher on channel.
func NewPublisher(client *redis.Client, channel string) *Publisher {
	return &Publisher{client: client, channel: channel}
}

// Handle publishes changes in order, in one round trip. An error makes the stream consumer
// hand the same changes again.
func (p *Publisher) Handle(ctx context.Context, changes []domain.Change) error {
	pipe := p.client.Pipeline()
	for _, c := range changes {
		b, err := encode(c)
		if err != nil {
			return err
		}
		pipe.Publish(ctx, p.channel, b)
	}
	_, err := pipe.Exec(ctx)
	return err
}

// Subscribe hands every change published on channel to handle, one at a time in the order
// published, until ctx ends (it returns ctx's error then). ready, when not nil, is called
// once the subscription is in place. go-redis reconnects and subscribes again by itself after
// a lost connection; what was published meanwhile is not seen, as pub/sub goes.
func Subscribe(ctx context.Context, client *redis.Client, channel string, handle func(context.Context, []domain.Change) error, ready func(), log *slog.Logger) error {
	ps := client.Subscribe(ctx, channel)
	defer ps.Close()
	if _, err := ps.Receive(ctx); err != nil {
		return fmt.Errorf("relay: subscribing to %s: %w", channel, err)
	}
	if ready != nil {
		ready()
	}
	messages := ps.Channel()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case msg, ok := <-messages:
			if !ok {
				return errors.New("relay: the subscription closed")
			}
			c, err := decode([]byte(msg.Payload))
			if err != nil {
				log.ErrorContext(ctx, "relay: skipping a message", "channel", channel, "error", err)
				continue
			}
			if err := handle(ctx, []domain.Change{c}); err != nil {
				log.WarnContext(ctx, "relay: handling a change", "error", err)
			}
		}
	}
}
