package engine

import bolt "go.etcd.io/bbolt"

// OpenTable returns the named table in tx, or the ValidationException of a
// missing name or the ResourceNotFoundException of an unknown table.
func (e *Engine) OpenTable(tx *bolt.Tx, name string) (*TableTx, error) {
	if name == "" {
		return nil, Validationf("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null")
	}
	t, err := e.OpenTableTx(tx, name)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, ResourceNotFound()
	}
	return t, nil
}

// tableAndStats loads a table's metadata and counters, or returns the
// ResourceNotFoundException naming it.
func tableAndStats(tx *bolt.Tx, name string) (*TableMeta, tableStats, error) {
	m, st, err := LoadTableAndStats(tx, name)
	if err == nil && m == nil {
		err = tableNotFound(name)
	}
	return m, st, err
}
