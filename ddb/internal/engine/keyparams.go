package engine

import (
	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// checkKeyValue validates the value of key attribute name of declared type
// want ("S", "N" or "B") as found in an item being written. index is empty
// for the table's own keys.
func checkKeyValue(name, want string, v attr.Value, isRange bool, index string) *Error {
	if v.Type.String() != want {
		if index != "" {
			return invalidParamf("Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", name, want, v.Type, index)
		}
		return invalidParamf("Type mismatch for key %s expected: %s actual: %s", name, want, v.Type)
	}
	if storage.IsEmptyKey(v) {
		if index != "" {
			return Validationf("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", emptyKind(v.Type), index, name)
		}
		return Validationf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s", emptyKind(v.Type), name)
	}
	size := attr.ValueSize(v)
	if !isRange && size > storage.MaxPartitionKeySize {
		return invalidParamf("Size of hashkey has exceeded the maximum size limit of%d bytes", storage.MaxPartitionKeySize)
	}
	if isRange && size > storage.MaxSortKeySize {
		return invalidParamf("Aggregated size of all range keys has exceeded the size limit of %d bytes", storage.MaxSortKeySize)
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
func ItemKey(m *storage.TableMeta, it attr.Item) ([]byte, error) {
	var k []byte
	for i, p := range m.TableKeyParts() {
		v, ok := it[p.Name()]
		if !ok {
			return nil, invalidParamf("Missing the key %s in the item", p.Name())
		}
		if err := checkKeyValue(p.Name(), p.Type().String(), v, i == 1, ""); err != nil {
			return nil, err
		}
		k = attr.AppendKey(k, v)
	}
	return k, nil
}

// keyParam validates a Key parameter (GetItem, DeleteItem, UpdateItem, …):
// exactly the table's key attributes with their declared types. It returns
// the encoded table key.
func keyParam(m *storage.TableMeta, key attr.Item) ([]byte, error) {
	parts := m.TableKeyParts()
	if len(key) != len(parts) {
		return nil, Validationf("The provided key element does not match the schema")
	}
	k := make([]byte, 0, 64) // most keys fit, grown once if not
	for i, p := range parts {
		v, ok := key[p.Name()]
		if !ok || v.Type != p.Type() {
			return nil, Validationf("The provided key element does not match the schema")
		}
		if err := checkKeyValue(p.Name(), v.Type.String(), v, i == 1, ""); err != nil {
			return nil, err
		}
		k = attr.AppendKey(k, v)
	}
	return k, nil
}

// checkIndexKeys validates the index key attributes of an item being written:
// present index keys must have the declared type and not be empty.
func checkIndexKeys(m *storage.TableMeta, it attr.Item) error {
	for i := range m.Indexes {
		ix := &m.Indexes[i]
		for j, name := range ix.KeyNamesList() {
			v, ok := it[name]
			if !ok {
				continue
			}
			if err := checkKeyValue(name, m.AttrType(name), v, j == 1, ix.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// KeyInput is the Key parameter of single-item operations.
type KeyInput struct {
	Key attr.Item `json:"Key"`
}
