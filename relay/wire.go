package relay

import (
	"encoding/json"
	"fmt"

	"github.com/quickphotos/quickphotos/domain"
)

// message is a change as published: the entity's kind says how to read its images.
type message struct {
	Op     domain.ChangeOp `json:"op"`
	Entity string          `json:"entity"`
	Old    json.RawMessage `json:"old,omitempty"`
	New    json.RawMessage `json:"new,omitempty"`
}

// The kinds of entity a message carries.
const (
	entityUser       = "user"
	entityPhoto      = "photo"
	entityReaction   = "reaction"
	entityFriendship = "friendship"
	entityFeedEntry  = "feedEntry"
	entitySyncHead   = "syncHead"
)

// encode writes c as a message.
func encode(c domain.Change) ([]byte, error) {
	m := message{Op: c.Op}
	switch c.Entity().(type) {
	case domain.User:
		m.Entity = entityUser
	case domain.Photo:
		m.Entity = entityPhoto
	case domain.Reaction:
		m.Entity = entityReaction
	case domain.Friendship:
		m.Entity = entityFriendship
	case domain.FeedEntry:
		m.Entity = entityFeedEntry
	case domain.SyncHead:
		m.Entity = entitySyncHead
	default:
		return nil, fmt.Errorf("relay: a change of %T", c.Entity())
	}
	var err error
	if c.Old != nil {
		if m.Old, err = json.Marshal(c.Old); err != nil {
			return nil, err
		}
	}
	if c.New != nil {
		if m.New, err = json.Marshal(c.New); err != nil {
			return nil, err
		}
	}
	return json.Marshal(m)
}

// decode reads a message back into the change encode wrote.
func decode(b []byte) (domain.Change, error) {
	var m message
	if err := json.Unmarshal(b, &m); err != nil {
		return domain.Change{}, fmt.Errorf("relay: %w", err)
	}
	c := domain.Change{Op: m.Op}
	var err error
	switch m.Entity {
	case entityUser:
		c.Old, c.New, err = images[domain.User](m)
	case entityPhoto:
		c.Old, c.New, err = images[domain.Photo](m)
	case entityReaction:
		c.Old, c.New, err = images[domain.Reaction](m)
	case entityFriendship:
		c.Old, c.New, err = images[domain.Friendship](m)
	case entityFeedEntry:
		c.Old, c.New, err = images[domain.FeedEntry](m)
	case entitySyncHead:
		c.Old, c.New, err = images[domain.SyncHead](m)
	default:
		return domain.Change{}, fmt.Errorf("relay: a message of entity %q", m.Entity)
	}
	if err != nil {
		return domain.Change{}, fmt.Errorf("relay: %s: %w", m.Entity, err)
	}
	return c, nil
}

// images reads a message's old and new images as T values; an absent image is nil.
func images[T any](m message) (old, new any, err error) {
	read := func(raw json.RawMessage) (any, error) {
		if raw == nil {
			return nil, nil
		}
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		return v, nil
	}
	if old, err = read(m.Old); err != nil {
		return nil, nil, err
	}
	new, err = read(m.New)
	return old, new, err
}
