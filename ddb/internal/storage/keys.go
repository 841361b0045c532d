package storage

import (
	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Key size limits of DynamoDB, in bytes.
const (
	MaxPartitionKeySize = 2048
	MaxSortKeySize      = 1024
)

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
func (m *TableMeta) IndexKeyBytes(ix *IndexMeta, it attr.Item) []byte {
	var k []byte
	indexKeys := len(ix.KeyNamesList())
	for i, p := range m.IndexKeyParts(ix) {
		v, ok := it[p.name]
		if i < indexKeys && (!ok || v.Type != p.typ || IsEmptyKey(v)) {
			return nil
		}
		k = attr.AppendKey(k, v)
	}
	return k
}

// KeyNamesList returns an index's key attribute names (hash, then range).
func (ix *IndexMeta) KeyNamesList() []string {
	names := []string{HashKey(ix.KeySchema)}
	if r := RangeKey(ix.KeySchema); r != "" {
		names = append(names, r)
	}
	return names
}

// Project returns the attributes of it stored in index ix.
func (m *TableMeta) Project(ix *IndexMeta, it attr.Item) attr.Item {
	if ix.Projection.ProjectionType == ProjectionAll {
		return it
	}
	out := attr.Item{}
	for _, name := range m.KeyNames() {
		out[name] = it[name]
	}
	for _, name := range ix.KeyNamesList() {
		out[name] = it[name]
	}
	if ix.Projection.ProjectionType == ProjectionInclude {
		for _, name := range ix.Projection.NonKeyAttributes {
			if v, ok := it[name]; ok {
				out[name] = v
			}
		}
	}
	return out
}

// IsEmptyKey reports whether v is an empty string or binary value, which no
// key attribute may hold.
func IsEmptyKey(v attr.Value) bool {
	return (v.Type == attr.TypeS && v.S == "") || (v.Type == attr.TypeB && len(v.Bytes()) == 0)
}

// PrefixEnd returns the smallest key greater than every key with prefix p,
// or nil when there is none.
func PrefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xFF {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
