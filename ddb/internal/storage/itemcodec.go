package storage

// The stored forms of items and index entries (format 4). Storage holds
// no byte twice that a key already holds or that another entry holds:
//
//   - An item is stored under the encoding of its table key (keys.go) as
//     attr's binary codec (attr.AppendBinary) without its key attributes,
//     which the key holds; its DynamoDB size is recorded in front.
//   - An index entry's key is the index key followed by the table key
//     attributes the index key lacks (indexKeyBytes), so it holds every key
//     attribute of the item once. Its value is empty for ALL projections
//     (the item is the table's, found by its key in the same transaction)
//     and for KEYS_ONLY (the key holds every projected attribute); for
//     INCLUDE it is the projected attributes other than keys, binary, with
//     the projected size in front.
//
// Reads that return items as stored hand them on in this form; the JSON
// front-end writes them straight into the response (StoredItemAppendJSON,
// engine/responsejson.go), byte for byte what json.Marshal gives the decoded item,
// without building the item, and the in-process API builds the SDK's values
// from them (sdkapi/sdkvalue.go).

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// KeyPart is one attribute held in an entry key: its name and declared type.
type KeyPart struct {
	name string
	typ  attr.Type
}

// Name is the attribute's name.
func (p KeyPart) Name() string { return p.name }

// Type is the attribute's declared type.
func (p KeyPart) Type() attr.Type { return p.typ }

// TableKeyParts returns the attributes of the table key, in key order.
func (m *TableMeta) TableKeyParts() []KeyPart {
	if m.keyParts != nil {
		return m.keyParts
	}
	names := m.KeyNames()
	parts := make([]KeyPart, len(names))
	for i, n := range names {
		parts[i] = KeyPart{n, attr.ParseType(m.AttrType(n))}
	}
	return parts
}

// IndexKeyParts returns the attributes of an index entry's key, in key
// order: the index hash and range keys, then the table keys not among them.
func (m *TableMeta) IndexKeyParts(ix *IndexMeta) []KeyPart {
	names := ix.KeyNamesList()
	for _, n := range m.KeyNames() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	parts := make([]KeyPart, len(names))
	for i, n := range names {
		parts[i] = KeyPart{n, attr.ParseType(m.AttrType(n))}
	}
	return parts
}

// KeyAttrs decodes the attributes held by entry key k, sorted by name (as
// attr.AppendBinaryJSON wants them).
func KeyAttrs(k []byte, parts []KeyPart) ([]attr.NamedValue, error) {
	return keyAttrs(nil, k, parts, attr.DecodeKey)
}

// keyAttrs is KeyAttrs decoding each value with decode, into dst when it
// has room.
func keyAttrs(dst []attr.NamedValue, k []byte, parts []KeyPart, decode func([]byte, attr.Type) (attr.Value, []byte, error)) ([]attr.NamedValue, error) {
	out := dst[:0]
	if cap(out) < len(parts) {
		out = make([]attr.NamedValue, 0, len(parts))
	}
	out = out[:len(parts)]
	rest := k
	for i, p := range parts {
		var v attr.Value
		var err error
		if v, rest, err = decode(rest, p.typ); err != nil {
			return nil, fmt.Errorf("ddb: corrupt key %x: %w", k, err)
		}
		out[i] = attr.NamedValue{Name: p.name, Value: v}
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("ddb: corrupt key %x: trailing bytes", k)
	}
	slices.SortFunc(out, func(a, b attr.NamedValue) int { return compareStrings(a.Name, b.Name) })
	return out, nil
}

// ItemOf returns the item holding just attributes kvs.
func ItemOf(kvs []attr.NamedValue) attr.Item {
	it := make(attr.Item, len(kvs))
	for _, kv := range kvs {
		it[kv.Name] = kv.Value
	}
	return it
}

// compareStrings orders strings bytewise.
func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// encodeStored is the stored value of item it, whose size is size.
func (m *TableMeta) encodeStored(it attr.Item, size int) []byte {
	// The encoding is about the item's size plus a tag and a length or two
	// per value: room for that up front spares the appends' regrowth (four
	// allocations of a small item's encoding).
	return attr.AppendBinary(make([]byte, 0, size+size/4+32), it, size, m.KeyNames()...)
}

// DecodeStored decodes the item stored under table key k with value v,
// copied out of the transaction: key and value are copied together, once,
// and the item's names and strings are views of that copy.
func (m *TableMeta) DecodeStored(k, v []byte) (attr.Item, error) {
	text, whole := copyOut(k, v)
	keys, err := keyAttrs(nil, whole[:len(k):len(k)], m.TableKeyParts(), attr.DecodeKeyShared)
	if err != nil {
		return nil, err
	}
	it := newItem(keys, whole[len(k):])
	if _, err := attr.DecodeBinaryText(text[len(k):], it); err != nil {
		return nil, fmt.Errorf("ddb: corrupt item: %w", err)
	}
	return it, nil
}

// copyOut copies key k and value v out of their transaction into one
// string, returned with a read-only view of its bytes.
func copyOut(k, v []byte) (string, []byte) {
	whole := make([]byte, len(k)+len(v))
	copy(whole[copy(whole, k):], v)
	return unsafe.String(unsafe.SliceData(whole), len(whole)), whole
}

// DecodeWithKeys decodes binary value v into an item holding keys too.
func DecodeWithKeys(keys []attr.NamedValue, v []byte) (attr.Item, error) {
	it := newItem(keys, v)
	if _, err := attr.DecodeBinary(v, it); err != nil {
		return nil, fmt.Errorf("ddb: corrupt item: %w", err)
	}
	return it, nil
}

// newItem is a new item holding keys, sized for them and the attributes
// of binary value v.
func newItem(keys []attr.NamedValue, v []byte) attr.Item {
	it := make(attr.Item, len(keys)+attr.BinaryLen(v))
	for _, kv := range keys {
		it[kv.Name] = kv.Value
	}
	return it
}

// Stored returns the item stored under table key k with value v, copied
// out of the transaction, and its size. Key and value are copied together,
// once: the key attributes' strings and the value are views of that copy.
func (m *TableMeta) Stored(k, v []byte) (*StoredItem, int, error) {
	size, err := StoredSize(v)
	if err != nil {
		return nil, 0, err
	}
	text, whole := copyOut(k, v)
	it := &StoredItem{Value: whole[len(k):], Text: text[len(k):]}
	if it.Keys, err = keyAttrs(it.tableKey[:0], whole[:len(k):len(k)], m.TableKeyParts(), attr.DecodeKeyShared); err != nil {
		return nil, 0, err
	}
	return it, size, nil
}

// StoredSize returns the size recorded in a stored item or INCLUDE entry.
func StoredSize(v []byte) (int, error) {
	size, err := attr.BinarySize(v)
	if err != nil {
		return 0, fmt.Errorf("ddb: corrupt item: %w", err)
	}
	return size, nil
}

// IndexEntryValue is the stored value of the entry of item it in index ix
// (see the top of this file); proj is the projected item and size its size.
func (m *TableMeta) IndexEntryValue(ix *IndexMeta, proj attr.Item, size int) []byte {
	if ix.Projection.ProjectionType != ProjectionInclude {
		return nil
	}
	var omit []string
	for _, p := range m.IndexKeyParts(ix) {
		omit = append(omit, p.name)
	}
	return attr.AppendBinary(nil, proj, size, omit...)
}

// TableKeyOf appends to dst the table key of the index entry stored under
// k, whose key attributes are parts (indexKeyParts): the encodings of the
// table key attributes, cut out of k.
func (m *TableMeta) TableKeyOf(dst []byte, parts []KeyPart, k []byte) ([]byte, error) {
	var pieces [4][]byte // an entry key holds at most four attributes
	rest := k
	for i, p := range parts {
		n, err := attr.KeyLen(rest, p.typ)
		if err != nil {
			return nil, fmt.Errorf("ddb: corrupt index key %x: %w", k, err)
		}
		pieces[i], rest = rest[:n], rest[n:]
	}
	for _, name := range m.KeyNames() {
		for i, p := range parts {
			if p.name == name {
				dst = append(dst, pieces[i]...)
			}
		}
	}
	return dst, nil
}

// SizeOf is attr.Size allowing a nil item.
func SizeOf(it attr.Item) int {
	if it == nil {
		return 0
	}
	return attr.Size(it)
}
