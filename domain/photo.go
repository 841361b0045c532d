package domain

// Photo is an image a user uploaded. Owner and Timestamp identify it.
type Photo struct {
	Owner     string
	Timestamp string
	URL       string
	Reactions ReactionCounts
	// Width and Height are the dimensions of an uploaded photo, 0 for one hosted elsewhere.
	Width, Height int
	// Images are the stored renditions of an uploaded photo; nil for one hosted elsewhere.
	Images Images
	// Upload is the id of the upload an uploaded photo was made of; its images are stored
	// under it.
	Upload string
}

// ReactionCounts returns the photo's counts of reactions by type.
func (p Photo) ReactionCounts() ReactionCounts { return p.Reactions }

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

// Heart is the number of heart reactions.
func (c ReactionCounts) Heart() int { return c[ReactionHeart] }

// Smiley is the number of smiley reactions.
func (c ReactionCounts) Smiley() int { return c[ReactionSmiley] }

// ThumbsUp is the number of thumbs-up reactions.
func (c ReactionCounts) ThumbsUp() int { return c[ReactionThumbsUp] }

// Sunglasses is the number of sunglasses reactions.
func (c ReactionCounts) Sunglasses() int { return c[ReactionSunglasses] }

// Total is the number of reactions of all types.
func (c ReactionCounts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}
