package sdkapi

// slab hands out values of type T from slices it allocates size at a time rather than one by
// one: the builders of an answer's attribute values (sdkItemBuilder, recordsBuilder) take
// their string and number members, most of an item's values, from slabs shared by the answer's
// items. A value kept from the answer keeps its slab alive.
type slab[T any] struct {
	size int
	free []T
}

// take returns a pointer to a copy of v in the slab.
func (s *slab[T]) take(v T) *T {
	if len(s.free) == cap(s.free) {
		s.free = make([]T, 0, s.size)
	}
	s.free = append(s.free, v)
	return &s.free[len(s.free)-1]
}
