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
