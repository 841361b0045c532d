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
	env, err := in.front(body, nil, "ALL_OLD")
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
		func(t *tableTx, k []byte, raw, old attr.Item) (any, error) {
			u, err := t.put(k, raw, in.Item)
			if err != nil {
				return nil, err
			}
			return in.putOrRemoveResponse(t, u, old, in.Item), nil
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
