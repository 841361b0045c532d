package ddb

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// putItemInput is the PutItem request.
type putItemInput struct {
	Item attr.Item `json:"Item"`
	writeParams
}

// opPutItem decodes a PutItem request and runs it.
func opPutItem(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in putItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.tableNameAbsent = absentTableName(in.TableName, body)
	return e.putItem(ctx, &in)
}

// putItem creates or replaces an item, if its condition holds.
func (e *Engine) putItem(_ context.Context, in *putItemInput) (*itemWriteOutput, error) {
	env, err := in.front(nil, "ALL_OLD")
	if err != nil {
		return nil, err
	}
	if in.Item == nil {
		return nil, validationf("1 validation error detected: Value null at 'item' failed to satisfy constraint: Member must not be null")
	}
	cond, err := in.bindCondition(env)
	if err != nil {
		return nil, err
	}
	return e.conditionalWrite(&in.writeParams, func(t *tableTx) ([]byte, error) { return t.checkNewItem(in.Item) }, cond,
		func(t *tableTx, k []byte, raw, old attr.Item) (*itemWriteOutput, error) {
			u, err := t.put(k, raw, in.Item)
			if err != nil {
				return nil, err
			}
			return in.putOrRemoveOutput(t, u, old, in.Item), nil
		})
}
