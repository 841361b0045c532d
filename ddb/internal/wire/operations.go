package wire

import (
	"context"
	"fmt"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// opBatchGetItem decodes a BatchGetItem request and runs it.
func opBatchGetItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.BatchGetInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.BatchGetItem(ctx, &in)
}

// opBatchWriteItem decodes a BatchWriteItem request and runs it.
func opBatchWriteItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.BatchWriteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.BatchWriteItem(ctx, &in)
}

// opCreateTable decodes a CreateTable request and runs it.
func opCreateTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.CreateTableInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.CreateTable(ctx, &in)
}

// opDeleteItem decodes a DeleteItem request and runs it.
func opDeleteItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.DeleteItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.DeleteItem(ctx, &in)
}

// opDeleteTable decodes a DeleteTable request and runs it.
func opDeleteTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.DeleteTable(ctx, in)
}

// opDescribeTable decodes a DescribeTable request and runs it.
func opDescribeTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.DescribeTable(ctx, in)
}

// opGetItem decodes a GetItem request and runs it.
func opGetItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.GetItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.GetItem(ctx, &in)
}

// opListTables lists table names in order, at most Limit (default and
// maximum 100) per page.
func opListTables(e *engine.Engine, _ context.Context, body []byte) (any, error) {
	var in engine.ListTablesInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, engine.Validationf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100 and greater than or equal to 1", *in.Limit)
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
	out := map[string]any{"TableNames": names}
	if last != "" {
		out["LastEvaluatedTableName"] = last
	}
	return out, err
}

// opPutItem decodes a PutItem request and runs it.
func opPutItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.PutItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.PutItem(ctx, &in)
}

// OpQuery decodes a Query request and runs it.
func OpQuery(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.QueryInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.Query(ctx, &in)
}

// OpScan decodes a Scan request and runs it.
func OpScan(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.ScanInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.Scan(ctx, &in)
}

// decodeTableNameInput decodes the request of an operation naming only a
// table.
func decodeTableNameInput(body []byte) (*engine.TableNameInput, error) {
	var in engine.TableNameInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return &in, nil
}

// opTagResource adds tags to a table, replacing the values of keys it has.
func opTagResource(e *engine.Engine, _ context.Context, body []byte) (any, error) {
	var in engine.TagResourceInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if in.Tags == nil {
		return nil, engine.Validationf("1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null")
	}
	add, err := engine.CheckTags("tags", in.Tags)
	if err != nil {
		return nil, err
	}
	return map[string]any{}, e.Update(func(tx *bolt.Tx) error {
		m, err := e.TaggedTable(tx, "TagResource", in.ResourceArn)
		if err != nil {
			return err
		}
		m.Tags = engine.MergeTags(m.Tags, add)
		if len(m.Tags) > engine.MaxTagsPerResource {
			return engine.ErrTooManyTags(len(m.Tags))
		}
		return storage.SaveTable(tx, m)
	})
}

// opUntagResource removes tags from a table; a key it does not have is no
// error.
func opUntagResource(e *engine.Engine, _ context.Context, body []byte) (any, error) {
	var in engine.UntagResourceInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if in.TagKeys == nil {
		return nil, engine.Validationf("1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null")
	}
	for i, k := range in.TagKeys {
		if n := utf8.RuneCountInString(k); n < 1 || n > engine.MaxTagKeyLength {
			return nil, engine.Validationf("1 validation error detected: Value '%s' at 'tagKeys.%d.member' failed to satisfy constraint: Member must have length less than or equal to %d and greater than or equal to 1", k, i+1, engine.MaxTagKeyLength)
		}
	}
	return map[string]any{}, e.Update(func(tx *bolt.Tx) error {
		m, err := e.TaggedTable(tx, "UntagResource", in.ResourceArn)
		if err != nil {
			return err
		}
		kept := m.Tags[:0]
		for _, t := range m.Tags {
			removed := false
			for _, k := range in.TagKeys {
				removed = removed || t.Key == k
			}
			if !removed {
				kept = append(kept, t)
			}
		}
		m.Tags = kept
		return storage.SaveTable(tx, m)
	})
}

// opListTagsOfResource lists a table's tags, ordered by key. A table has at
// most 50, so one page holds them all and no NextToken is ever issued.
func opListTagsOfResource(e *engine.Engine, _ context.Context, body []byte) (any, error) {
	var in engine.ListTagsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var tags []storage.StoredTag
	err := e.View(func(tx *bolt.Tx) error {
		m, err := e.TaggedTable(tx, "ListTagsOfResource", in.ResourceArn)
		if err != nil {
			return err
		}
		if in.NextToken != nil {
			return engine.InvalidParamf("Invalid NextToken: %s", *in.NextToken)
		}
		tags = m.Tags
		return nil
	})
	if err != nil {
		return nil, err
	}
	list := make([]any, len(tags))
	for i, t := range tags {
		list[i] = map[string]any{"Key": t.Key, "Value": t.Value}
	}
	return map[string]any{"Tags": list}, nil
}

// opTransactGetItems reads up to 100 items from one snapshot; Responses are
// in request order, {} for a missing item. Each read costs twice a strongly
// consistent read.
func opTransactGetItems(e *engine.Engine, _ context.Context, body []byte) (any, error) {
	var in engine.TransactGetInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := engine.CheckCapacityMode(in.ReturnConsumedCapacity); err != nil {
		return nil, err
	}
	n := len(in.TransactItems)
	if err := engine.CheckTransactItemCount(in.TransactItems); err != nil {
		return nil, err
	}
	var names engine.Violations
	for i, ti := range in.TransactItems {
		if ti.Get != nil {
			names.DataTableName(fmt.Sprintf("transactItems.%d.member.get.tableName", i+1), ti.Get.TableName, false)
		}
	}
	if err := names.Err(); err != nil {
		return nil, err
	}
	projs := make([]engine.Projector, n)
	for i, ti := range in.TransactItems {
		if ti.Get == nil {
			return nil, engine.Validationf("1 validation error detected: Value null at 'transactItems.%d.member.get' failed to satisfy constraint: Member must not be null", i+1)
		}
		env := &engine.ExprEnv{Names: ti.Get.ExpressionAttributeNames}
		p, err := env.Projection(ti.Get.ProjectionExpression)
		if err != nil {
			return nil, err
		}
		if err := env.Check(); err != nil {
			return nil, err
		}
		projs[i] = p
	}
	responses := make([]engine.ResultItem, n)
	caps := map[string]*engine.Capacity{}
	err := e.View(func(tx *bolt.Tx) error {
		tables := map[string]*storage.TableTx{}
		seen := map[string]bool{}
		reasons := make([]engine.CancellationReason, n)
		failed := false
		for i, ti := range in.TransactItems {
			reasons[i] = engine.CancellationReason{Code: "None"}
			g := ti.Get
			t := tables[g.TableName]
			if t == nil {
				var err error
				if t, err = e.OpenTable(tx, g.TableName); err != nil {
					return err
				}
				tables[g.TableName] = t
				caps[g.TableName] = engine.NewCapacity(t.M)
			}
			k, err := engine.KeyParam(t.M, g.Key)
			if err != nil {
				// An action's own validation error cancels the transaction,
				// with the reason in its place.
				reasons[i] = engine.CancellationReason{Code: "ValidationError", Message: engine.AsError(err).Message}
				failed = true
				continue
			}
			if seen[g.TableName+"\x00"+string(k)] {
				return engine.Validationf("Transaction request cannot include multiple operations on one item")
			}
			seen[g.TableName+"\x00"+string(k)] = true
			it, raw, size, err := t.GetLive(k, projs[i] != nil)
			if err != nil {
				return err
			}
			caps[g.TableName].Units += 2 * engine.ReadUnits(size, true)
			if raw != nil {
				responses[i] = engine.ReadItem(projs[i], it, raw)
			}
		}
		if failed {
			return engine.TransactionCanceled(reasons)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &engine.TransactGetOutput{Responses: responses, Capacity: engine.ReportTables(caps, in.ReturnConsumedCapacity)}, nil
}

// opTransactWriteItems decodes a TransactWriteItems request and runs it:
// it applies up to 100 actions atomically in one bbolt
// transaction. All conditions are checked against the state before the
// transaction; if any fails, nothing is written and the
// TransactionCanceledException lists a reason per action, in order.
// A ClientRequestToken makes the call idempotent for ten minutes: a repeat
// with the same parameters returns the first response without writing,
// one with other parameters is an IdempotentParameterMismatchException.
// Tokens are stored in the data file, so idempotency survives restarts.
func opTransactWriteItems(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.TransactWriteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.TransactWriteItems(ctx, &in, func() []byte { return engine.RequestHash(body) })
}

// opUpdateTimeToLive decodes an UpdateTimeToLive request and runs it.
func opUpdateTimeToLive(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.UpdateTTLInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.UpdateTimeToLive(ctx, &in)
}

// opDescribeTimeToLive decodes a DescribeTimeToLive request and runs it.
func opDescribeTimeToLive(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.DescribeTimeToLive(ctx, in)
}

// opUpdateItem decodes an UpdateItem request and runs it.
func opUpdateItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.UpdateItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.UpdateItem(ctx, &in)
}

// opUpdateTable decodes an UpdateTable request and runs it.
func opUpdateTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.UpdateTableInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.UpdateTable(ctx, &in)
}
