package ddb

// The stored form of items: reads copy the stored bytes into responses, so
// encoding must give exactly what a response carries (respjson.go).

import (
	"fmt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// decodeItem decodes a stored item with attr's codec (encoding/json would
// first scan the whole value, then hand it to attr.Item.UnmarshalJSON).
func decodeItem(raw []byte) (attr.Item, error) {
	it, err := attr.DecodeItem(raw)
	if err != nil {
		return nil, fmt.Errorf("ddb: corrupt item: %w", err)
	}
	return it, nil
}

// encodeItem is the stored form of an item or index entry: exactly the
// bytes json.Marshal gives (see appendItem), so a read can copy them into
// a response.
func encodeItem(it attr.Item) []byte { return appendItem(nil, it) }

// sizeOf is attr.Size allowing a nil item.
func sizeOf(it attr.Item) int {
	if it == nil {
		return 0
	}
	return attr.Size(it)
}
