package ddb

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// opDeleteTable decodes a DeleteTable request and runs it.
func opDeleteTable(e *Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.deleteTable(ctx, in)
}

// deleteTable deletes a table with all its items and indexes in one
// transaction.
func (e *Engine) deleteTable(_ context.Context, in *tableNameInput) (*tableChangeOutput, error) {
	if err := controlTableName(in.TableName, in.tableNameAbsent); err != nil {
		return nil, err
	}
	var out *tableChangeOutput
	err := e.update(func(tx *bolt.Tx) error {
		m, st, err := tableAndStats(tx, in.TableName)
		if err != nil {
			return err
		}
		if m.DeletionProtection {
			return validationf("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
		}
		if err := tx.DeleteBucket(tableBucketName(m.Name)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketTables).Delete([]byte(m.Name)); err != nil {
			return err
		}
		out = &tableChangeOutput{TableDescription: e.describe(m, st, "DELETING")}
		// The table's stream outlives it for StreamRetention, as in DynamoDB.
		if m.Stream != nil {
			return e.disableStream(tx, m)
		}
		return nil
	})
	return out, err
}
