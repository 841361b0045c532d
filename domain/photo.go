package domain

// Photo is an image a user uploaded. Owner and Timestamp identify it.
type Photo struct {
	Owner     string
	Timestamp string
	URL       string
	Reactions ReactionCounts
}

// Key returns the photo's identity.
func (p Photo) Key() PhotoKey { return PhotoKey{Owner: p.Owner, Timestamp: p.Timestamp} }

// PhotoKey identifies a photo: its owner's username and its upload timestamp.
type PhotoKey struct {
	Owner     string
	Timestamp string
}

// ReactionCounts counts a photo's reactions by type; the transactions that add and remove
// reactions keep it exact.
type ReactionCounts map[ReactionType]int

// Total is the number of reactions of all types.
func (c ReactionCounts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}
