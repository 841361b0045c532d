package domain

// Page sizes for every list.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// PageRequest asks for First items after the opaque cursor After ("" for the first page).
type PageRequest struct {
	First int
	After string
}

// Page is one page of a list. Cursors[i] is the opaque cursor of Items[i].
type Page[T any] struct {
	Items       []T
	Cursors     []string
	HasNextPage bool
	// End, when set, is where the page ends if not at its last item: a list that leaves out
	// items it read (the feed leaves out the photos deleted since their entries were written)
	// ends at the last one read, so that the next page starts after it, even when none was
	// kept.
	End string
}

// EndCursor is the cursor the next page starts after: End when set, else the cursor of the
// page's last item, "" for an empty page.
func (p Page[T]) EndCursor() string {
	if p.End != "" {
		return p.End
	}
	if len(p.Cursors) == 0 {
		return ""
	}
	return p.Cursors[len(p.Cursors)-1]
}

// List names a list clients page through. A cursor belongs to one list, and is refused by
// every other: the endCursor of a user's photos does not continue their followers.
type List string

// The lists. Feeds are one list, whoever's feed is read; so are photos, followers and the
// others: that a cursor is of the very user or photo read is checked when its page is read.
const (
	ListPhotos         List = "photos"         // a user's photos
	ListFeed           List = "feed"           // the photos of those a user follows
	ListFollowers      List = "followers"      // the friendships in which a user is followed
	ListFollowing      List = "following"      // the friendships in which a user follows
	ListPhotoReactions List = "photoReactions" // the reactions to a photo
	ListUserReactions  List = "userReactions"  // the reactions a user gave
	ListChanges        List = "changes"        // the changes to a user's sync scope
)
