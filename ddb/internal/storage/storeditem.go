package storage

import (
	"unsafe"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// StoredItem is a read item as storage holds it, copied out of its read
// transaction: its binary value and the key attributes the value leaves
// out. An unprojected read answers with it, and each path renders it from
// these bytes: the HTTP path as JSON (appendJSON), the in-process API as
// the SDK's values (storedItemToSDK), neither through the other's form.
type StoredItem struct {
	// Keys are the key attributes, sorted by name.
	Keys []attr.NamedValue
	// Value is the binary value (attr's codec); nil for an entry of the key
	// attributes alone (a KEYS_ONLY index entry). It is a read-only view of
	// Text, never written to.
	Value []byte
	// Text holds Value's bytes: the SDK's strings built from the item are
	// cut from it (attr.DecodeBinaryTextAs) rather than copied again.
	Text string
	// tableKey holds Keys for an item read by its table key (Stored): one
	// allocation for the item and its key attributes.
	tableKey [2]attr.NamedValue
}

// NewStoredItem copies the stored value v and keeps keys.
func NewStoredItem(keys []attr.NamedValue, v []byte) *StoredItem {
	if len(v) == 0 {
		return &StoredItem{Keys: keys, Value: append([]byte(nil), v...)}
	}
	text := string(v)
	return &StoredItem{Keys: keys, Value: unsafe.Slice(unsafe.StringData(text), len(text)), Text: text}
}
