package ddb

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
	bolt "go.etcd.io/bbolt"
)

// keyInput is the Key parameter of single-item operations.
type keyInput struct {
	Key attr.Item `json:"Key"`
}

// deleteItemInput is the DeleteItem request.
type deleteItemInput struct {
	keyInput
	writeParams
}

// opDeleteItem deletes an item, if its condition holds.
func opDeleteItem(e *Engine, _ context.Context, body []byte) (any, error) {
	var in deleteItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := in.check("ALL_OLD"); err != nil {
		return nil, err
	}
	if err := in.legacyParams.translate(&in.exprParams, exprSlots{condition: &in.ConditionExpression}); err != nil {
		return nil, err
	}
	env := in.env()
	cond, err := env.condition(in.ConditionExpression)
	if err != nil {
		return nil, err
	}
	if err := env.check(); err != nil {
		return nil, err
	}
	var out any
	err = e.update(func(tx *bolt.Tx) error {
		t, err := e.openTable(tx, in.TableName)
		if err != nil {
			return err
		}
		k, err := t.m.keyParam(in.Key)
		if err != nil {
			return err
		}
		raw, err := t.getRaw(k)
		if err != nil {
			return err
		}
		old := t.live(raw)
		if ok, err := evalCondition(cond, old); err != nil {
			return err
		} else if !ok {
			return in.failure(old)
		}
		u, err := t.remove(k, raw)
		if err != nil {
			return err
		}
		c := newCapacity(t.m, true)
		c.addWrite(u, 1)
		var attrs attr.Item
		if in.ReturnValues == "ALL_OLD" {
			attrs = old
		}
		out = writeResponse(attrs, c, in.ReturnConsumedCapacity)
		return t.flush()
	})
	return out, err
}
