package domain

// ReactionType is one of the four reactions, with its stored spelling as its value.
type ReactionType string

// The reaction types, in the order their stored spellings sort.
const (
	ReactionThumbsUp   ReactionType = "+1"
	ReactionHeart      ReactionType = "heart"
	ReactionSmiley     ReactionType = "smiley"
	ReactionSunglasses ReactionType = "sunglasses"
)

// ReactionTypes lists every reaction type in the order their stored spellings sort.
var ReactionTypes = []ReactionType{ReactionThumbsUp, ReactionHeart, ReactionSmiley, ReactionSunglasses}

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
