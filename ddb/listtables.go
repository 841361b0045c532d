package ddb

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// listTablesInput is the ListTables request.
type listTablesInput struct {
	ExclusiveStartTableName string `json:"ExclusiveStartTableName"`
	Limit                   *int   `json:"Limit"`
}

// opListTables lists table names in order, at most Limit (default and
// maximum 100) per page.
func opListTables(e *Engine, _ context.Context, body []byte) (any, error) {
	var in listTablesInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, validationf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100 and greater than or equal to 1", *in.Limit)
		}
		limit = *in.Limit
	}
	names := []string{}
	var last string
	err := e.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketTables).Cursor()
		k, _ := c.First()
		if in.ExclusiveStartTableName != "" {
			k, _ = c.Seek([]byte(in.ExclusiveStartTableName))
			if k != nil && string(k) == in.ExclusiveStartTableName {
				k, _ = c.Next()
			}
		}
		for ; k != nil; k, _ = c.Next() {
			if len(names) == limit {
				last = names[len(names)-1]
				break
			}
			names = append(names, string(k))
		}
		return nil
	})
	out := map[string]any{"TableNames": names}
	if last != "" {
		out["LastEvaluatedTableName"] = last
	}
	return out, err
}

// opDeleteTable deletes a table with all its items and indexes in one
// transaction.
func opDeleteTable(e *Engine, _ context.Context, body []byte) (any, error) {
	var in tableNameInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var out any
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
		out = map[string]any{"TableDescription": e.describe(m, st, "DELETING")}
		// The table's stream outlives it for StreamRetention, as in DynamoDB.
		if m.Stream != nil {
			return e.disableStream(tx, m)
		}
		return nil
	})
	return out, err
}
