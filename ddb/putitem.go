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

// opPutItem creates or replaces an item, if its condition holds.
func opPutItem(e *Engine, _ context.Context, body []byte) (any, error) {
	var in putItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := in.check("ALL_OLD"); err != nil {
		return nil, err
	}
	if err := in.legacyParams.translate(&in.exprParams, exprSlots{condition: &in.ConditionExpression}); err != nil {
		return nil, err
	}
	if in.Item == nil {
		return nil, validationf("1 validation error detected: Value null at 'item' failed to satisfy constraint: Member must not be null")
	}
	env := in.env()
	cond, err := env.condition(in.ConditionExpression)
	if err != nil {
		return nil, err
	}
	if err := env.check(); err != nil {
		return nil, err
	}
	return e.conditionalWrite(&in.writeParams, func(t *tableTx) ([]byte, error) { return t.checkNewItem(in.Item) }, cond,
		func(t *tableTx, k []byte, raw, old attr.Item) (any, error) {
			u, err := t.put(k, raw, in.Item)
			if err != nil {
				return nil, err
			}
			c := newCapacity(t.m, true)
			c.addWrite(u, 1)
			return writeResponse(in.oldIfAsked(old), c, in.ReturnConsumedCapacity), nil
		})
}

// checkNewItem validates an item about to be stored (size, table keys,
// index keys) and returns its table key.
func (t *tableTx) checkNewItem(it attr.Item) ([]byte, error) {
	k, err := t.m.itemKey(it)
	if err != nil {
		return nil, err
	}
	if err := t.m.checkIndexKeys(it); err != nil {
		return nil, err
	}
	if err := checkItemSize(it); err != nil {
		return nil, err
	}
	return k, nil
}

// live returns it unless it is expired.
func (t *tableTx) live(it attr.Item) attr.Item {
	if it == nil || t.expired(it) {
		return nil
	}
	return it
}
