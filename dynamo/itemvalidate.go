package dynamo

import (
	"encoding/json"
	"fmt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// validateItem refuses an item DynamoDB would refuse to store: empty sets, duplicate set
// members (numbers compared by value), empty attribute names at any depth, numbers DynamoDB
// cannot hold (more than 38 digits, magnitude outside 1E-130 to 1E+126), items over 400 KB.
// The rules are the embedded engine's own (package attr), which the differential suite keeps
// equal to DynamoDB's; the message is DynamoDB's. Checking before writing lets a bulk load
// name the item's line and write everything before it, where a refused BatchWriteItem would
// only say that one of its 25 items was bad.
func validateItem(item Item) error {
	typed, err := typedItem(item)
	if err != nil {
		return err
	}
	data, err := json.Marshal(typed)
	if err != nil {
		return err
	}
	decoded, err := attr.DecodeItem(data)
	if err != nil {
		return err
	}
	if size := attr.Size(decoded); size > attr.MaxItemSize {
		return fmt.Errorf("item size %d bytes is over DynamoDB's limit of %d", size, attr.MaxItemSize)
	}
	return nil
}
