package engine

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// DeleteItemInput is the DeleteItem request.
type DeleteItemInput struct {
	KeyInput
	WriteParams
}

// DeleteItem deletes an item, if its condition holds.
func (e *Engine) DeleteItem(_ context.Context, in *DeleteItemInput) (*ItemWriteOutput, error) {
	env, err := in.front(nil, "ALL_OLD")
	if err != nil {
		return nil, err
	}
	cond, err := in.bindCondition(env)
	if err != nil {
		return nil, err
	}
	return e.conditionalWrite(&in.WriteParams, func(t *storage.TableTx) ([]byte, error) { return keyParam(t.M, in.Key) }, cond,
		func(t *storage.TableTx, k []byte, raw attr.Item, _ int, old attr.Item) (*ItemWriteOutput, error) {
			u, err := t.Remove(k, raw)
			if err != nil {
				return nil, err
			}
			return in.putOrRemoveOutput(t, u, old, in.Key), nil
		})
}
