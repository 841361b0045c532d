package engine

import (
	"context"

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
	return e.conditionalWrite(&in.WriteParams, itemWrite{
		key:      func(t *storage.TableTx) ([]byte, error) { return KeyParam(t.M, in.Key) },
		cond:     cond,
		evaluate: func(*writeTarget) error { return nil },
		apply: func(tg *writeTarget) (*ItemWriteOutput, error) {
			u, err := tg.t.Remove(tg.k, tg.raw)
			if err != nil {
				return nil, err
			}
			return in.putOrRemoveOutput(tg.t, u, tg.old, in.Key), nil
		},
	})
}
