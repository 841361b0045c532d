package storage

// StoredTag is a table's tag as kept in its metadata and listed.
type StoredTag struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}
