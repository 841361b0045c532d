package engine

// The write path: PutItem, UpdateItem and DeleteItem run through
// conditionalWrite; BatchWriteItem and TransactWriteItems share the checks of
// a new item and the application of an update.

import (
	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// WriteParams are the parameters shared by PutItem, UpdateItem and
// DeleteItem.
type WriteParams struct {
	TableName                           string  `json:"TableName"`
	ConditionExpression                 *string `json:"ConditionExpression"`
	ReturnValues                        string  `json:"ReturnValues"`
	ReturnValuesOnConditionCheckFailure string  `json:"ReturnValuesOnConditionCheckFailure"`
	ReturnConsumedCapacity              string  `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics         string  `json:"ReturnItemCollectionMetrics"`
	ExprParams
	LegacyParams
	// TableNameAbsent is whether the request left TableName out (shape.go).
	TableNameAbsent bool `json:"-"`
}

// Check validates the request's shape (shape.go: the table name and the
// enum parameters, all violations reported together), then ReturnValues
// against the values the operation allows.
func (p *WriteParams) Check(allowed ...string) error {
	var v Violations
	v.tableName(p.TableName, p.TableNameAbsent)
	v.Enum("returnValues", p.ReturnValues, returnValuesSet...)
	v.Enum("returnConsumedCapacity", p.ReturnConsumedCapacity, ReturnConsumedCapacitySet...)
	v.Enum("returnItemCollectionMetrics", p.ReturnItemCollectionMetrics, returnCollectionSet...)
	v.Enum("returnValuesOnConditionCheckFailure", p.ReturnValuesOnConditionCheckFailure, "ALL_OLD", "NONE")
	if err := v.Err(); err != nil {
		return err
	}
	if p.ReturnValues == "" || p.ReturnValues == "NONE" {
		return nil
	}
	for _, a := range allowed {
		if p.ReturnValues == a {
			return nil
		}
	}
	return Validationf("Return values set to invalid value")
}

// front is the request front of PutItem, UpdateItem and DeleteItem, after
// decoding: it validates the request's shape and ReturnValues (against
// allowed) (check), translates
// legacy parameters into the ConditionExpression (and into update, when not
// nil), and returns the request's expression environment.
func (p *WriteParams) front(update **string, allowed ...string) (*exprEnv, error) {
	if err := p.Check(allowed...); err != nil {
		return nil, err
	}
	if err := p.LegacyParams.translate(&p.ExprParams, exprSlots{condition: &p.ConditionExpression, update: update}); err != nil {
		return nil, err
	}
	if err := p.placeholdersWithoutExpressions(update); err != nil {
		return nil, err
	}
	return p.env(), nil
}

// placeholdersWithoutExpressions refuses ExpressionAttributeNames or
// ExpressionAttributeValues in a write that has no expression to use them,
// naming the expressions that are missing as DynamoDB does. update is nil
// for PutItem and DeleteItem, which have no UpdateExpression.
func (p *WriteParams) placeholdersWithoutExpressions(update **string) error {
	if p.ConditionExpression != nil || update != nil && *update != nil {
		return nil
	}
	missing := "ConditionExpression is null"
	if update != nil {
		missing = "UpdateExpression and ConditionExpression are null"
	}
	switch {
	case len(p.ExpressionAttributeNames) > 0:
		return Validationf("ExpressionAttributeNames can only be specified when using expressions: %s", missing)
	case len(p.ExpressionAttributeValues) > 0:
		return Validationf("ExpressionAttributeValues can only be specified when using expressions: %s", missing)
	}
	return nil
}

// itemWrite is one single-item write (PutItem, UpdateItem, DeleteItem) inside
// conditionalWrite: it stores its change given the item's key, the stored
// item (raw, possibly expired) and the live one (old, nil when absent or
// expired; rawSize is its size), and returns the response.
type itemWrite func(t *storage.TableTx, k []byte, raw attr.Item, rawSize int, old attr.Item) (*ItemWriteOutput, error)

// conditionalWrite runs a single-item write in one read-write transaction:
// it finds the key (keyOf also validates the request against the table),
// reads the current item, checks the condition against it, and lets write
// store the change. A failed condition writes nothing.
func (e *Engine) conditionalWrite(p *WriteParams, keyOf func(*storage.TableTx) ([]byte, error), cond condition, write itemWrite) (*ItemWriteOutput, error) {
	var out *ItemWriteOutput
	err := e.UpdateGrouped(func(tx *bolt.Tx) error {
		t, err := e.OpenTable(tx, p.TableName)
		if err != nil {
			return err
		}
		k, err := keyOf(t)
		if err != nil {
			return err
		}
		raw, rawSize, err := t.GetSized(k)
		if err != nil {
			return err
		}
		old := t.Live(raw)
		if ok, err := evalCondition(cond, old); err != nil {
			return err
		} else if !ok {
			return p.failure(old)
		}
		if out, err = write(t, k, raw, rawSize, old); err != nil {
			return err
		}
		return t.Flush()
	})
	return out, err
}

// oldIfAsked is the item a PutItem or DeleteItem returns: the old one for
// ReturnValues ALL_OLD, else none.
func (p *WriteParams) oldIfAsked(old attr.Item) attr.Item {
	if p.ReturnValues == "ALL_OLD" {
		return old
	}
	return nil
}

// checkItemSize refuses items larger than DynamoDB's 400 KB.
func checkItemSize(it attr.Item) error {
	return checkSize(attr.Size(it))
}

// checkSize refuses an item of size bytes if larger than DynamoDB's 400 KB.
func checkSize(size int) error {
	if size > attr.MaxItemSize {
		return Validationf("Item size has exceeded the maximum allowed size")
	}
	return nil
}

// putOrRemoveOutput is the answer of a PutItem or DeleteItem of the item
// with key (or attributes) key that wrote units u.
func (p *WriteParams) putOrRemoveOutput(t *storage.TableTx, u storage.WriteUnits, old, key attr.Item) *ItemWriteOutput {
	c := newCapacity(t.M)
	c.addWrite(u, 1)
	return p.writeOutput(t, key, p.oldIfAsked(old), c)
}

// writeOutput is the answer of a single-item write to the collection of
// key, returning attrs (nil for none) and having consumed c: its
// ItemCollectionMetrics when asked for and the table has item collections.
func (p *WriteParams) writeOutput(t *storage.TableTx, key, attrs attr.Item, c *Capacity) *ItemWriteOutput {
	return &ItemWriteOutput{Attributes: attrs, Capacity: ConsumedCapacity{C: c, Mode: p.ReturnConsumedCapacity},
		Metrics: itemCollectionMetrics(t, p.ReturnItemCollectionMetrics, key)}
}

// checkNewItem validates an item about to be stored (size, table keys,
// index keys) and returns its table key.
func checkNewItem(t *storage.TableTx, it attr.Item) ([]byte, error) {
	k, err := ItemKey(t.M, it)
	if err != nil {
		return nil, err
	}
	if err := checkIndexKeys(t.M, it); err != nil {
		return nil, err
	}
	if err := checkItemSize(it); err != nil {
		return nil, err
	}
	return k, nil
}

// applyUpdate returns the item an update produces from old, or from the key
// alone when old is absent. Unless keepOld, old is the caller's to spend:
// the update changes it in place rather than copy it (an item of more than
// eight attributes is a map of a kilobyte and more).
func applyUpdate(upd *updater, old, key attr.Item, keepOld bool) (attr.Item, error) {
	if old == nil {
		base := key.ShallowClone()
		if upd == nil {
			return base, nil
		}
		return upd.bound.ApplyInPlace(base)
	}
	switch {
	case upd == nil:
		return old, nil
	case keepOld:
		return upd.bound.Apply(old)
	}
	return upd.bound.ApplyInPlace(old)
}

// checkKeyNotUpdated refuses update expressions that touch key attributes.
func checkKeyNotUpdated(m *storage.TableMeta, upd *updater) error {
	if upd == nil {
		return nil
	}
	for _, name := range upd.names {
		for _, k := range m.KeyNames() {
			if name == k {
				return invalidParamf("Cannot update attribute %s. This attribute is part of the key", name)
			}
		}
	}
	return nil
}
