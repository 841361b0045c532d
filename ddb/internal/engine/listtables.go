package engine

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// ListTablesInput is the ListTables request.
type ListTablesInput struct {
	ExclusiveStartTableName string `json:"ExclusiveStartTableName"`
	Limit                   *int   `json:"Limit"`
}

// ListTables lists table names in order, at most Limit (default and
// maximum 100) per page.
func (e *Engine) ListTables(_ context.Context, in *ListTablesInput) (*ListTablesOutput, error) {
	limit := 100
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, Validationf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100 and greater than or equal to 1", *in.Limit)
		}
		limit = *in.Limit
	}
	names := []string{}
	var last string
	err := e.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(storage.BucketTables).Cursor()
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
	if err != nil {
		return nil, err
	}
	return &ListTablesOutput{Names: names, Last: last}, nil
}
