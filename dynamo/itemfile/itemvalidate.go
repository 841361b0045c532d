package itemfile

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// validateItem refuses an item DynamoDB would refuse to store: empty sets, duplicate set
// members (numbers compared by value), empty attribute names at any depth, numbers DynamoDB
// cannot hold (more than 38 digits, magnitude outside 1E-130 to 1E+126), items over 400 KB.
// The rules are the embedded engine's own (package attr), which the differential suite keeps
// equal to DynamoDB's; the message is DynamoDB's, after the name of the top-level attribute
// that breaks the rule, which DynamoDB's message leaves out. Checking before writing lets a
// bulk load name the item's line and write everything before it, where a refused
// BatchWriteItem would only say that one of its 25 items was bad.
func validateItem(item Item) error {
	names := make([]string, 0, len(item))
	for name := range item {
		names = append(names, name)
	}
	sort.Strings(names) // the same item always reports the same attribute
	size := 0
	for _, name := range names {
		typed, err := typedJSON(item[name])
		if err != nil {
			return fmt.Errorf("attribute %q: %w", name, err)
		}
		data, err := json.Marshal(map[string]any{name: typed})
		if err != nil {
			return fmt.Errorf("attribute %q: %w", name, err)
		}
		decoded, err := attr.DecodeItem(data)
		if err != nil {
			return fmt.Errorf("attribute %q: %w", name, err)
		}
		size += attr.Size(decoded)
	}
	if size > attr.MaxItemSize {
		return fmt.Errorf("item size %d bytes is over DynamoDB's limit of %d", size, attr.MaxItemSize)
	}
	return nil
}
