package engine

import (
	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Key size limits of DynamoDB, in bytes.
const (
	maxPartitionKeySize = 2048
	maxSortKeySize      = 1024
)

// checkKeyValue validates the value of key attribute name of declared type
// want ("S", "N" or "B") as found in an item being written. index is empty
// for the table's own keys.
func checkKeyValue(name, want string, v attr.Value, isRange bool, index string) *Error {
	if v.Type.String() != want {
		if index != "" {
			return InvalidParamf("Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", name, want, v.Type, index)
		}
		return InvalidParamf("Type mismatch for key %s expected: %s actual: %s", name, want, v.Type)
	}
	if isEmptyKey(v) {
		if index != "" {
			return Validationf("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", emptyKind(v.Type), index, name)
		}
		return Validationf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s", emptyKind(v.Type), name)
	}
	size := attr.ValueSize(v)
	if !isRange && size > maxPartitionKeySize {
		return InvalidParamf("Size of hashkey has exceeded the maximum size limit of%d bytes", maxPartitionKeySize)
	}
	if isRange && size > maxSortKeySize {
		return InvalidParamf("Aggregated size of all range keys has exceeded the size limit of %d bytes", maxSortKeySize)
	}
	return nil
}

// emptyKind names a type in the empty-key messages.
func emptyKind(t attr.Type) string {
	if t == attr.TypeB {
		return "binary"
	}
	return "string"
}

// ItemKey validates the key attributes of an item being written (PutItem,
// BatchWriteItem's PutRequest, a transaction's Put) and returns its encoded
// table key.
func (m *TableMeta) ItemKey(it attr.Item) ([]byte, error) {
	var k []byte
	for i, name := range m.KeyNames() {
		v, ok := it[name]
		if !ok {
			return nil, InvalidParamf("Missing the key %s in the item", name)
		}
		if err := checkKeyValue(name, m.attrType(name), v, i == 1, ""); err != nil {
			return nil, err
		}
		k = attr.AppendKey(k, v)
	}
	return k, nil
}

// KeyParam validates a Key parameter (GetItem, DeleteItem, UpdateItem, …):
// exactly the table's key attributes with their declared types. It returns
// the encoded table key.
func (m *TableMeta) KeyParam(key attr.Item) ([]byte, error) {
	names := m.KeyNames()
	if len(key) != len(names) {
		return nil, Validationf("The provided key element does not match the schema")
	}
	k := make([]byte, 0, 64) // most keys fit, grown once if not
	for i, name := range names {
		v, ok := key[name]
		if !ok || v.Type.String() != m.attrType(name) {
			return nil, Validationf("The provided key element does not match the schema")
		}
		if err := checkKeyValue(name, m.attrType(name), v, i == 1, ""); err != nil {
			return nil, err
		}
		k = attr.AppendKey(k, v)
	}
	return k, nil
}

// TableKeyBytes encodes the table key of a stored item (whose key attributes
// are known to be valid).
func (m *TableMeta) TableKeyBytes(it attr.Item) []byte {
	var k []byte
	for _, name := range m.KeyNames() {
		k = attr.AppendKey(k, it[name])
	}
	return k
}

// IndexKeyBytes returns the index entry key of item it in index ix, or nil
// when the item has no entry (it lacks an index key attribute, or has one
// of another type: sparse index). The key is the index key, then the table
// key attributes it lacks (indexKeyParts), which make entries unique.
func (m *TableMeta) IndexKeyBytes(ix *indexMeta, it attr.Item) []byte {
	var k []byte
	indexKeys := len(ix.KeyNamesList())
	for i, p := range m.indexKeyParts(ix) {
		v, ok := it[p.name]
		if i < indexKeys && (!ok || v.Type != p.typ || isEmptyKey(v)) {
			return nil
		}
		k = attr.AppendKey(k, v)
	}
	return k
}

// KeyNamesList returns an index's key attribute names (hash, then range).
func (ix *indexMeta) KeyNamesList() []string {
	names := []string{HashKey(ix.KeySchema)}
	if r := RangeKey(ix.KeySchema); r != "" {
		names = append(names, r)
	}
	return names
}

// checkIndexKeys validates the index key attributes of an item being written:
// present index keys must have the declared type and not be empty.
func (m *TableMeta) checkIndexKeys(it attr.Item) error {
	for i := range m.Indexes {
		ix := &m.Indexes[i]
		for j, name := range ix.KeyNamesList() {
			v, ok := it[name]
			if !ok {
				continue
			}
			if err := checkKeyValue(name, m.attrType(name), v, j == 1, ix.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// Project returns the attributes of it stored in index ix.
func (m *TableMeta) Project(ix *indexMeta, it attr.Item) attr.Item {
	if ix.Projection.ProjectionType == projectionAll {
		return it
	}
	out := attr.Item{}
	for _, name := range m.KeyNames() {
		out[name] = it[name]
	}
	for _, name := range ix.KeyNamesList() {
		out[name] = it[name]
	}
	if ix.Projection.ProjectionType == projectionInclude {
		for _, name := range ix.Projection.NonKeyAttributes {
			if v, ok := it[name]; ok {
				out[name] = v
			}
		}
	}
	return out
}

// isEmptyKey reports whether v is an empty string or binary value, which no
// key attribute may hold.
func isEmptyKey(v attr.Value) bool {
	return (v.Type == attr.TypeS && v.S == "") || (v.Type == attr.TypeB && len(v.B) == 0)
}

// KeyInput is the Key parameter of single-item operations.
type KeyInput struct {
	Key attr.Item `json:"Key"`
}

// prefixEnd returns the smallest key greater than every key with prefix p,
// or nil when there is none.
func prefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xFF {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
