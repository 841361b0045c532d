package ddb

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// getItemInput is the GetItem request.
type getItemInput struct {
	keyInput
	readParams
}

// opGetItem decodes a GetItem request and runs it.
func opGetItem(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in getItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.tableNameAbsent = absentTableName(in.TableName, body)
	return e.getItem(ctx, &in)
}

// getItem returns one item by key, projected; the item is in its stored
// form when not projected.
func (e *Engine) getItem(_ context.Context, in *getItemInput) (*getItemOutput, error) {
	if err := in.legacyParams.translate(&in.exprParams, exprSlots{projection: &in.ProjectionExpression}); err != nil {
		return nil, err
	}
	if err := in.readParams.shape().err(); err != nil {
		return nil, err
	}
	env := in.env()
	proj, err := env.projection(in.ProjectionExpression)
	if err != nil {
		return nil, err
	}
	if err := env.check(); err != nil {
		return nil, err
	}
	var out *getItemOutput
	err = e.view(func(tx *bolt.Tx) error {
		t, err := e.openTable(tx, in.TableName)
		if err != nil {
			return err
		}
		k, err := t.m.keyParam(in.Key)
		if err != nil {
			return err
		}
		it, raw, size, err := t.getLive(k, proj != nil)
		if err != nil {
			return err
		}
		out = &getItemOutput{capacity: consumedCapacity{mode: in.ReturnConsumedCapacity}}
		// Only an answer that reports its capacity needs it counted
		// (consumedCapacity.reported): most reads ask for none.
		if out.capacity.mode == capacityTotal || out.capacity.mode == capacityIndexes {
			c := newCapacity(t.m)
			c.units = readUnits(size, in.ConsistentRead)
			out.capacity.c = c
		}
		if raw != nil {
			out.item = readItem(proj, it, raw)
		}
		return nil
	})
	return out, err
}
