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
	return e.conditionalWrite(&in.WriteParams, func(t *storage.TableTx) ([]byte, error) { return checkNewItem(t, in.Item) }, cond,
		func(t *storage.TableTx, k []byte, raw attr.Item, rawSize int, old attr.Item) (*ItemWriteOutput, error) {
			u, err := t.PutSized(k, raw, rawSize, in.Item, attr.Size(in.Item))
			if err != nil {
				return nil, err
			}
			return in.putOrRemoveOutput(t, u, old, in.Item), nil
		})
}
