package domain

import "fmt"

// ChangeOp says what a committed write did to an entity.
type ChangeOp uint8

// The operations of a Change.
const (
	Added ChangeOp = iota + 1
	Updated
	Removed
)

func (op ChangeOp) String() string {
	switch op {
	case Added:
		return "added"
	case Updated:
		return "updated"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("ChangeOp(%d)", uint8(op))
}

// Change is one committed write to one entity, as the table's change stream tells it,
// whoever made the write (this server, another instance, a bulk load, any DynamoDB client).
// Old and New are the entity before and after it, each a User, Photo, Reaction, Friendship or
// FeedEntry value; Old is nil for Added, New is nil for Removed.
type Change struct {
	Op       ChangeOp
	Old, New any
	// ID names the change in the stream it came from (a stream record's eventID), the same
	// each time the record is delivered; "" where the change came another way.
	ID string
}

// Entity is the entity the change is about: New, or Old for a removal.
func (c Change) Entity() any {
	if c.New != nil {
		return c.New
	}
	return c.Old
}
