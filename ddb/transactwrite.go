package ddb

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
	bolt "go.etcd.io/bbolt"
)

// maxTransactBytes is the aggregate item size limit of a transaction.
const maxTransactBytes = 4 << 20

// transactAction is the body shared by the four TransactWriteItems actions.
type transactAction struct {
	TableName                           string    `json:"TableName"`
	Key                                 attr.Item `json:"Key"`
	Item                                attr.Item `json:"Item"`
	ConditionExpression                 *string   `json:"ConditionExpression"`
	UpdateExpression                    *string   `json:"UpdateExpression"`
	ReturnValuesOnConditionCheckFailure string    `json:"ReturnValuesOnConditionCheckFailure"`
	exprParams
}

// transactWriteItem is one element of TransactItems: exactly one action.
type transactWriteItem struct {
	ConditionCheck *transactAction `json:"ConditionCheck"`
	Put            *transactAction `json:"Put"`
	Delete         *transactAction `json:"Delete"`
	Update         *transactAction `json:"Update"`
}

// transactWriteInput is the TransactWriteItems request.
type transactWriteInput struct {
	TransactItems               []transactWriteItem `json:"TransactItems"`
	ClientRequestToken          string              `json:"ClientRequestToken"`
	ReturnConsumedCapacity      string              `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics string              `json:"ReturnItemCollectionMetrics"`
}

// plannedAction is a validated transaction action.
type plannedAction struct {
	kind string // ConditionCheck, Put, Delete, Update
	a    *transactAction
	cond condition
	upd  *updater
}

// plan validates a transaction's actions (shape, expressions) without
// touching storage.
func (in *transactWriteInput) plan() ([]plannedAction, error) {
	if err := checkCapacityMode(in.ReturnConsumedCapacity); err != nil {
		return nil, err
	}
	n := len(in.TransactItems)
	if err := checkTransactItemCount(in.TransactItems); err != nil {
		return nil, err
	}
	if len(in.ClientRequestToken) > 36 {
		return nil, validationf("1 validation error detected: Value at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36")
	}
	plans := make([]plannedAction, n)
	for i, ti := range in.TransactItems {
		var p plannedAction
		count := 0
		for kind, a := range map[string]*transactAction{"ConditionCheck": ti.ConditionCheck, "Put": ti.Put, "Delete": ti.Delete, "Update": ti.Update} {
			if a != nil {
				p.kind, p.a = kind, a
				count++
			}
		}
		if count != 1 {
			return nil, validationf("TransactItems can only contain one of Check, Put, Update or Delete")
		}
		if err := checkOnFailure(p.a.ReturnValuesOnConditionCheckFailure); err != nil {
			return nil, err
		}
		env := p.a.env()
		var err error
		switch p.kind {
		case "ConditionCheck":
			if p.a.ConditionExpression == nil {
				return nil, validationf("The ConditionExpression parameter is required for ConditionCheck")
			}
		case "Put":
			if p.a.Item == nil {
				return nil, validationf("1 validation error detected: Value null at 'transactItems.%d.member.put.item' failed to satisfy constraint: Member must not be null", i+1)
			}
		case "Update":
			if p.a.UpdateExpression == nil {
				return nil, validationf("1 validation error detected: Value null at 'transactItems.%d.member.update.updateExpression' failed to satisfy constraint: Member must not be null", i+1)
			}
			if p.upd, err = env.update(*p.a.UpdateExpression, nil); err != nil {
				return nil, err
			}
		}
		if p.cond, err = env.condition(p.a.ConditionExpression); err != nil {
			return nil, err
		}
		if err := env.check(); err != nil {
			return nil, err
		}
		plans[i] = p
	}
	return plans, nil
}

// opTransactWriteItems applies up to 100 actions atomically in one bbolt
// transaction. All conditions are checked against the state before the
// transaction; if any fails, nothing is written and the
// TransactionCanceledException lists a reason per action, in order.
// A ClientRequestToken makes the call idempotent for ten minutes: a repeat
// with the same parameters returns the first response without writing,
// one with other parameters is an IdempotentParameterMismatchException.
// Tokens are stored in the data file, so idempotency survives restarts.
func opTransactWriteItems(e *Engine, _ context.Context, body []byte) (any, error) {
	var in transactWriteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	plans, err := in.plan()
	if err != nil {
		return nil, err
	}
	var hash []byte
	if in.ClientRequestToken != "" {
		hash = requestHash(body)
	}
	var out map[string]any
	err = e.updateGrouped(func(tx *bolt.Tx) error {
		if in.ClientRequestToken != "" {
			prev, err := e.lookupToken(tx, in.ClientRequestToken, hash)
			if err != nil || prev != nil {
				out = prev
				return err
			}
		}
		res, err := e.transactWrite(tx, plans, in.ReturnConsumedCapacity)
		if err != nil {
			return err
		}
		out = res
		if in.ClientRequestToken != "" {
			return e.saveToken(tx, in.ClientRequestToken, hash, res)
		}
		return nil
	})
	return out, err
}

// transactWrite runs validated actions inside tx.
func (e *Engine) transactWrite(tx *bolt.Tx, plans []plannedAction, capMode string) (map[string]any, error) {
	tables := map[string]*tableTx{}
	type target struct {
		t        *tableTx
		k        []byte
		raw, old attr.Item
		nw       attr.Item
	}
	targets := make([]target, len(plans))
	seen := map[string]bool{}
	for i, p := range plans {
		t := tables[p.a.TableName]
		if t == nil {
			var err error
			if t, err = e.openTable(tx, p.a.TableName); err != nil {
				return nil, err
			}
			tables[p.a.TableName] = t
		}
		var k []byte
		var err error
		if p.kind == "Put" {
			k, err = t.m.itemKey(p.a.Item)
		} else {
			k, err = t.m.keyParam(p.a.Key)
		}
		if err != nil {
			return nil, err
		}
		id := p.a.TableName + "\x00" + string(k)
		if seen[id] {
			return nil, validationf("Transaction request cannot include multiple operations on one item")
		}
		seen[id] = true
		raw, err := t.getRaw(k)
		if err != nil {
			return nil, err
		}
		targets[i] = target{t: t, k: k, raw: raw, old: t.live(raw)}
	}
	// Evaluate every action against the state before the transaction.
	reasons := make([]cancellationReason, len(plans))
	failed := false
	size := 0
	for i, p := range plans {
		tg := &targets[i]
		reasons[i] = cancellationReason{Code: "None"}
		if p.kind == "Update" {
			// Like DynamoDB Local: a key update cancels the transaction.
			if err := checkKeyNotUpdated(tg.t.m, p.upd); err != nil {
				reasons[i] = cancellationReason{Code: "ValidationError", Message: asError(err).Message}
				failed = true
				continue
			}
		}
		ok, err := evalCondition(p.cond, tg.old)
		if err == nil && !ok {
			reasons[i] = cancellationReason{Code: "ConditionalCheckFailed", Message: "The conditional request failed"}
			if p.a.ReturnValuesOnConditionCheckFailure == "ALL_OLD" {
				reasons[i].Item = tg.old
			}
			failed = true
			continue
		}
		switch p.kind {
		case "Put":
			tg.nw = p.a.Item
		case "Update":
			if err == nil {
				// An update that fails at run time (an operand of the wrong
				// type) fails the request, as in DynamoDB Local, rather than
				// cancelling the transaction.
				if tg.nw, err = applyUpdate(p.upd, tg.old, p.a.Key); err != nil {
					return nil, err
				}
			}
		}
		if err == nil && tg.nw != nil {
			if err = tg.t.m.checkIndexKeys(tg.nw); err == nil {
				err = checkItemSize(tg.nw)
			}
			size += attr.Size(tg.nw)
		}
		if err != nil {
			reasons[i] = cancellationReason{Code: "ValidationError", Message: asError(err).Message}
			failed = true
		}
	}
	if failed {
		return nil, transactionCanceled(reasons)
	}
	if size > maxTransactBytes {
		return nil, validationf("Transaction request size exceeds the maximum of %d bytes", maxTransactBytes)
	}
	caps := map[string]*capacity{}
	for i, p := range plans {
		tg := &targets[i]
		c := caps[p.a.TableName]
		if c == nil {
			c = newCapacity(tg.t.m)
			caps[p.a.TableName] = c
		}
		var u writeUnits
		var err error
		switch {
		case p.kind == "ConditionCheck":
			u = writeUnits{table: float64(attr.WriteUnits(sizeOf(tg.old)))}
		case p.kind == "Delete":
			u, err = tg.t.remove(tg.k, tg.raw)
		case p.kind == "Update" && tg.old == nil && len(tg.nw) == len(p.a.Key):
			u = writeUnits{table: 1} // only removals on an absent item
		default:
			u, err = tg.t.put(tg.k, tg.raw, tg.nw)
		}
		if err != nil {
			return nil, err
		}
		c.addWrite(u, 2)
	}
	for _, t := range tables {
		if err := t.flush(); err != nil {
			return nil, err
		}
	}
	out := map[string]any{}
	if capMode == capacityTotal || capMode == capacityIndexes {
		var list []map[string]any
		for _, name := range sortedKeys(caps) {
			list = append(list, caps[name].render(capMode))
		}
		out["ConsumedCapacity"] = list
	}
	return out, nil
}
