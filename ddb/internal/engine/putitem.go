package engine

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// PutItemInput is the PutItem request.
type PutItemInput struct {
	Item attr.Item `json:"Item"`
	WriteParams
}

// PutItem creates or replaces an item, if its condition holds.
func (e *Engine) PutItem(_ context.Context, in *PutItemInput) (*ItemWriteOutput, error) {
	env, err := in.front(nil, "ALL_OLD")
	if err != nil {
		return nil, err
	}
	if in.Item == nil {
		return nil, Validationf("1 validation error detected: Value null at 'item' failed to satisfy constraint: Member must not be null")
	}
	cond, err := in.bindCondition(env)
	if err != nil {
		return nil, err
	}
	return e.conditionalWrite(&in.WriteParams, itemWrite{
		key:  func(t *storage.TableTx) ([]byte, error) { return checkNewItem(t, in.Item) },
		cond: cond,
		evaluate: func(tg *writeTarget) error {
			tg.nw = tg.t.M.Encode(in.Item, attr.Size(in.Item))
			return nil
		},
		apply: func(tg *writeTarget) (*ItemWriteOutput, error) {
			u, err := tg.t.PutEncoded(tg.k, tg.raw, tg.rawSize, tg.nw)
			if err != nil {
				return nil, err
			}
			return in.putOrRemoveOutput(tg.t, u, tg.old, in.Item), nil
		},
	})
}
