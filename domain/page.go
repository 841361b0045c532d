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
}

// EndCursor is the cursor of the page's last item, "" for an empty page.
func (p Page[T]) EndCursor() string {
	if len(p.Cursors) == 0 {
		return ""
	}
	return p.Cursors[len(p.Cursors)-1]
}
