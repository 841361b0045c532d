package domain

import "fmt"

// ReactionType is one of the four reactions. How the schema and the table spell each type is
// said at those boundaries (gqlgen.yml binds the schema's enum values to these constants;
// dynamo), not here.
type ReactionType uint8

// The reaction types. The zero value is no type.
const (
	ReactionThumbsUp ReactionType = iota + 1
	ReactionHeart
	ReactionSmiley
	ReactionSunglasses
)

// ReactionTypes lists every reaction type.
var ReactionTypes = []ReactionType{ReactionThumbsUp, ReactionHeart, ReactionSmiley, ReactionSunglasses}

// String is the type's name in messages.
func (t ReactionType) String() string {
	switch t {
	case ReactionThumbsUp:
		return "thumbs up"
	case ReactionHeart:
		return "heart"
	case ReactionSmiley:
		return "smiley"
	case ReactionSunglasses:
		return "sunglasses"
	}
	return fmt.Sprintf("ReactionType(%d)", uint8(t))
}

// Valid reports whether t is one of the four reaction types.
func (t ReactionType) Valid() bool {
	for _, v := range ReactionTypes {
		if t == v {
			return true
		}
	}
	return false
}

// Reaction is one user's reaction of one type to one photo.
type Reaction struct {
	Username  string
	Type      ReactionType
	Photo     PhotoKey
	Timestamp string
}

// ReactionKey identifies a reaction: who, which type, to which photo.
type ReactionKey struct {
	Username string
	Type     ReactionType
	Photo    PhotoKey
}
