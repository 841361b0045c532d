package engine

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// UpdateItemInput is the UpdateItem request.
type UpdateItemInput struct {
	KeyInput
	UpdateExpression *string `json:"UpdateExpression"`
	WriteParams
}

// UpdateItem edits an item's attributes, creating the item when absent, if
// its condition holds.
func (e *Engine) UpdateItem(_ context.Context, in *UpdateItemInput) (*ItemWriteOutput, error) {
	env, err := in.front(&in.UpdateExpression, "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW")
	if err != nil {
		return nil, err
	}
	var upd *updater
	if in.UpdateExpression != nil {
		if upd, err = env.Update(*in.UpdateExpression, keyNamesOf(in.Key)); err != nil {
			return nil, err
		}
	}
	cond, err := in.bindCondition(env)
	if err != nil {
		return nil, err
	}
	keyOf := func(t *storage.TableTx) ([]byte, error) {
		k, err := keyParam(t.M, in.Key)
		if err != nil {
			return nil, err
		}
		return k, checkKeyNotUpdated(t.M, upd)
	}
	return e.conditionalWrite(&in.WriteParams, keyOf, cond, func(t *storage.TableTx, k []byte, raw attr.Item, rawSize int, old attr.Item) (*ItemWriteOutput, error) {
		keepOld := t.KeepsReplaced() || in.ReturnValues == "ALL_OLD" || in.ReturnValues == "UPDATED_OLD"
		nw, err := applyUpdate(upd, old, in.Key, keepOld)
		if err != nil {
			return nil, err
		}
		c := newCapacity(t.M)
		if old == nil && upd != nil && len(nw) == len(in.Key) {
			// Only REMOVE/DELETE on an absent item: nothing is created.
			c.Units = 1
		} else {
			if err := checkIndexKeys(t.M, nw); err != nil {
				return nil, err
			}
			size := attr.Size(nw)
			if size > attr.MaxItemSize {
				return nil, Validationf("Item size to update has exceeded the maximum allowed size")
			}
			u, err := t.PutSized(k, raw, rawSize, nw, size)
			if err != nil {
				return nil, err
			}
			c.addWrite(u, 1)
		}
		return in.writeOutput(t, in.Key, returnValues(in.ReturnValues, old, nw, upd), c), nil
	})
}

// returnValues selects the Attributes of an UpdateItem response. UPDATED_OLD
// and UPDATED_NEW return the paths the expression names (as a
// ProjectionExpression of them would), from the old or the new item.
func returnValues(mode string, old, nw attr.Item, upd *updater) attr.Item {
	switch mode {
	case "ALL_OLD":
		return old
	case "ALL_NEW":
		return nw
	case "UPDATED_OLD", "UPDATED_NEW":
		src := old
		if mode == "UPDATED_NEW" {
			src = nw
		}
		if src == nil || upd == nil {
			return nil
		}
		if out := upd.targets(src); len(out) > 0 {
			return out
		}
	}
	return nil
}
