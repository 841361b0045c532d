package engine

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// DeleteTable deletes a table with all its items and indexes in one
// transaction.
func (e *Engine) DeleteTable(_ context.Context, in *TableNameInput) (*TableChangeOutput, error) {
	if err := controlTableName(in.TableName, in.TableNameAbsent); err != nil {
		return nil, err
	}
	var out *TableChangeOutput
	err := e.Update(func(tx *bolt.Tx) error {
		m, st, err := tableAndStats(tx, in.TableName)
		if err != nil {
			return err
		}
		if m.DeletionProtection {
			return Validationf("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
		}
		if err := tx.DeleteBucket(storage.TableBucketName(m.Name)); err != nil {
			return err
		}
		if err := tx.Bucket(storage.BucketTables).Delete([]byte(m.Name)); err != nil {
			return err
		}
		out = &TableChangeOutput{TableDescription: e.describe(m, st, "DELETING")}
		// The table's stream outlives it for StreamRetention, as in DynamoDB.
		if m.Stream != nil {
			return e.disableStream(tx, m)
		}
		return nil
	})
	return out, err
}
