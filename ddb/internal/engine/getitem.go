package engine

import (
	"context"

	bolt "go.etcd.io/bbolt"
)

// GetItemInput is the GetItem request.
type GetItemInput struct {
	KeyInput
	ReadParams
}

// GetItem returns one item by key, projected; the item is in its stored
// form when not projected.
func (e *Engine) GetItem(_ context.Context, in *GetItemInput) (*GetItemOutput, error) {
	if err := in.LegacyParams.translate(&in.ExprParams, exprSlots{projection: &in.ProjectionExpression}); err != nil {
		return nil, err
	}
	if err := in.ReadParams.shape().Err(); err != nil {
		return nil, err
	}
	env := in.env()
	proj, err := env.Projection(in.ProjectionExpression)
	if err != nil {
		return nil, err
	}
	if err := env.Check(); err != nil {
		return nil, err
	}
	var out *GetItemOutput
	err = e.View(func(tx *bolt.Tx) error {
		t, err := e.OpenTable(tx, in.TableName)
		if err != nil {
			return err
		}
		k, err := keyParam(t.M, in.Key)
		if err != nil {
			return err
		}
		it, raw, size, err := t.GetLive(k, proj != nil)
		if err != nil {
			return err
		}
		out = &GetItemOutput{Capacity: ConsumedCapacity{Mode: in.ReturnConsumedCapacity}}
		// Only an answer that reports its capacity needs it counted
		// (ConsumedCapacity.Reported): most reads ask for none.
		if out.Capacity.Mode == capacityTotal || out.Capacity.Mode == CapacityIndexes {
			c := newCapacity(t.M)
			c.Units = ReadUnits(size, in.ConsistentRead)
			out.Capacity.C = c
		}
		if raw != nil {
			out.Item = readItem(proj, it, raw)
		}
		return nil
	})
	return out, err
}
