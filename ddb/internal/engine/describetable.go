package engine

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// DescribeTable returns the table description with live counters.
func (e *Engine) DescribeTable(_ context.Context, in *TableNameInput) (*DescribeTableOutput, error) {
	if err := controlTableName(in.TableName, in.TableNameAbsent); err != nil {
		return nil, err
	}
	var out *DescribeTableOutput
	err := e.View(func(tx *bolt.Tx) error {
		m, st, err := tableAndStats(tx, in.TableName)
		if err != nil {
			return err
		}
		out = &DescribeTableOutput{Table: e.describe(m, st, "ACTIVE")}
		return nil
	})
	return out, err
}
