package ddb

import (
	"unsafe"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// storedItem is a read item as storage holds it, copied out of its read
// transaction: its binary value and the key attributes the value leaves
// out. An unprojected read answers with it, and each path renders it from
// these bytes: the HTTP path as JSON (appendJSON), the in-process API as
// the SDK's values (storedItemToSDK), neither through the other's form.
type storedItem struct {
	// keys are the key attributes, sorted by name.
	keys []attr.NamedValue
	// value is the binary value (attr's codec); nil for an entry of the key
	// attributes alone (a KEYS_ONLY index entry). It is a read-only view of
	// text, never written to.
	value []byte
	// text holds value's bytes: the SDK's strings built from the item are
	// cut from it (attr.DecodeBinaryTextAs) rather than copied again.
	text string
}

// newStoredItem copies the stored value v and keeps keys.
func newStoredItem(keys []attr.NamedValue, v []byte) *storedItem {
	if len(v) == 0 {
		return &storedItem{keys: keys, value: append([]byte(nil), v...)}
	}
	text := string(v)
	return &storedItem{keys: keys, value: unsafe.Slice(unsafe.StringData(text), len(text)), text: text}
}
