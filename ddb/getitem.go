package ddb

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
	bolt "go.etcd.io/bbolt"
)

// readParams are the parameters shared by GetItem, Query and Scan.
type readParams struct {
	TableName              string  `json:"TableName"`
	ProjectionExpression   *string `json:"ProjectionExpression"`
	ConsistentRead         bool    `json:"ConsistentRead"`
	ReturnConsumedCapacity string  `json:"ReturnConsumedCapacity"`
	exprParams
	legacyParams
}

// shape checks the table name and ReturnConsumedCapacity (shape.go),
// returning the violations for the caller to add its own to.
func (p *readParams) shape(body []byte) violations {
	var v violations
	v.tableName(p.TableName, body)
	v.enum("returnConsumedCapacity", p.ReturnConsumedCapacity, returnConsumedCapacitySet...)
	return v
}

// getItemInput is the GetItem request.
type getItemInput struct {
	keyInput
	readParams
}

// opGetItem returns one item by key, projected.
func opGetItem(e *Engine, _ context.Context, body []byte) (any, error) {
	var in getItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := in.legacyParams.translate(&in.exprParams, exprSlots{projection: &in.ProjectionExpression}); err != nil {
		return nil, err
	}
	if err := in.readParams.shape(body).err(); err != nil {
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
	var out map[string]any
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
		c := newCapacity(t.m)
		c.units = readUnits(size, in.ConsistentRead)
		out = map[string]any{}
		if raw != nil {
			out["Item"] = projectedOrRaw(proj, it, raw)
		}
		if cc := c.render(in.ReturnConsumedCapacity); cc != nil {
			out["ConsumedCapacity"] = cc
		}
		return nil
	})
	return out, err
}

// sizeOf is attr.Size allowing a nil item.
func sizeOf(it attr.Item) int {
	if it == nil {
		return 0
	}
	return attr.Size(it)
}
