package ddb

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// opDescribeTable returns the table description with live counters.
func opDescribeTable(e *Engine, _ context.Context, body []byte) (any, error) {
	var in tableNameInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var out any
	err := e.view(func(tx *bolt.Tx) error {
		m, st, err := tableAndStats(tx, in.TableName)
		if err != nil {
			return err
		}
		out = map[string]any{"Table": e.describe(m, st, "ACTIVE")}
		return nil
	})
	return out, err
}
