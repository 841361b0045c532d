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

// opListTables decodes a ListTables request and runs it.
func opListTables(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in listTablesInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.listTables(ctx, &in)
}

// listTables lists table names in order, at most Limit (default and
// maximum 100) per page.
func (e *Engine) listTables(_ context.Context, in *listTablesInput) (*listTablesOutput, error) {
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
	if err != nil {
		return nil, err
	}
	return &listTablesOutput{names: names, last: last}, nil
}
