package ddb

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// deleteItemInput is the DeleteItem request.
type deleteItemInput struct {
	keyInput
	writeParams
}

// opDeleteItem decodes a DeleteItem request and runs it.
func opDeleteItem(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in deleteItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.tableNameAbsent = absentTableName(in.TableName, body)
	return e.deleteItem(ctx, &in)
}

// deleteItem deletes an item, if its condition holds.
func (e *Engine) deleteItem(_ context.Context, in *deleteItemInput) (*itemWriteOutput, error) {
	env, err := in.front(nil, "ALL_OLD")
	if err != nil {
		return nil, err
	}
	cond, err := in.bindCondition(env)
	if err != nil {
		return nil, err
	}
	return e.conditionalWrite(&in.writeParams, func(t *tableTx) ([]byte, error) { return t.m.keyParam(in.Key) }, cond,
		func(t *tableTx, k []byte, raw, old attr.Item) (*itemWriteOutput, error) {
			u, err := t.remove(k, raw)
			if err != nil {
				return nil, err
			}
			return in.putOrRemoveOutput(t, u, old, in.Key), nil
		})
}
