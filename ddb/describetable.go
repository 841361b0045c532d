package ddb

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// opDescribeTable decodes a DescribeTable request and runs it.
func opDescribeTable(e *Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.describeTable(ctx, in)
}

// describeTable returns the table description with live counters.
func (e *Engine) describeTable(_ context.Context, in *tableNameInput) (*describeTableOutput, error) {
	if err := controlTableName(in.TableName, in.tableNameAbsent); err != nil {
		return nil, err
	}
	var out *describeTableOutput
	err := e.view(func(tx *bolt.Tx) error {
		m, st, err := tableAndStats(tx, in.TableName)
		if err != nil {
			return err
		}
		out = &describeTableOutput{Table: e.describe(m, st, "ACTIVE")}
		return nil
	})
	return out, err
}
