package engine

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// maxTransactBytes is the aggregate item size limit of a transaction.
const maxTransactBytes = 4 << 20

// TransactAction is the body shared by the four TransactWriteItems actions.
type TransactAction struct {
	TableName                           string    `json:"TableName"`
	Key                                 attr.Item `json:"Key"`
	Item                                attr.Item `json:"Item"`
	ConditionExpression                 *string   `json:"ConditionExpression"`
	UpdateExpression                    *string   `json:"UpdateExpression"`
	ReturnValuesOnConditionCheckFailure string    `json:"ReturnValuesOnConditionCheckFailure"`
	ExprParams
}

// TransactWriteItem is one element of TransactItems: exactly one action.
type TransactWriteItem struct {
	ConditionCheck *TransactAction `json:"ConditionCheck"`
	Put            *TransactAction `json:"Put"`
	Delete         *TransactAction `json:"Delete"`
	Update         *TransactAction `json:"Update"`
}

// TransactWriteInput is the TransactWriteItems request.
type TransactWriteInput struct {
	TransactItems               []TransactWriteItem `json:"TransactItems"`
	ClientRequestToken          string              `json:"ClientRequestToken"`
	ReturnConsumedCapacity      string              `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics string              `json:"ReturnItemCollectionMetrics"`
}

// TransactKind is the kind of a TransactWriteItems action: which of the
// four members of its element is set.
type TransactKind int

// The action kinds, in the order of transactWriteItem's members.
const (
	TransactConditionCheck TransactKind = iota
	TransactPut
	TransactDelete
	TransactUpdate
)

// Action returns the element's one action and its kind.
func (ti *TransactWriteItem) Action() (TransactKind, *TransactAction, error) {
	var kind TransactKind
	var a *TransactAction
	count := 0
	for k, x := range [...]*TransactAction{
		TransactConditionCheck: ti.ConditionCheck,
		TransactPut:            ti.Put,
		TransactDelete:         ti.Delete,
		TransactUpdate:         ti.Update,
	} {
		if x != nil {
			kind, a = TransactKind(k), x
			count++
		}
	}
	if count != 1 {
		return 0, nil, Validationf("TransactItems can only contain one of Check, Put, Update or Delete")
	}
	return kind, a, nil
}

// plannedAction is a validated transaction action.
type plannedAction struct {
	kind TransactKind
	a    *TransactAction
	cond condition
	upd  *updater // transactUpdate only
}

// plan validates a transaction's actions (shape, expressions) without
// touching storage.
func (in *TransactWriteInput) plan() ([]plannedAction, error) {
	if err := checkCapacityMode(in.ReturnConsumedCapacity); err != nil {
		return nil, err
	}
	if err := checkTransactItemCount(in.TransactItems); err != nil {
		return nil, err
	}
	if len(in.ClientRequestToken) > 36 {
		return nil, Validationf("1 validation error detected: Value at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36")
	}
	if err := in.checkTableNames(); err != nil {
		return nil, err
	}
	plans := make([]plannedAction, len(in.TransactItems))
	for i := range in.TransactItems {
		kind, a, err := in.TransactItems[i].Action()
		if err != nil {
			return nil, err
		}
		if err := checkOnFailure(a.ReturnValuesOnConditionCheckFailure); err != nil {
			return nil, err
		}
		p := plannedAction{kind: kind, a: a}
		env := a.env()
		if err := p.bind(i, env); err != nil {
			return nil, err
		}
		if p.cond, err = env.condition(a.ConditionExpression); err != nil {
			return nil, err
		}
		if err := env.Check(); err != nil {
			return nil, err
		}
		plans[i] = p
	}
	return plans, nil
}

// transactMembers names the members of a TransactItems element, by kind, as
// DynamoDB's messages do.
var transactMembers = [...]string{
	TransactConditionCheck: "conditionCheck",
	TransactPut:            "put",
	TransactDelete:         "delete",
	TransactUpdate:         "update",
}

// checkTableNames checks the TableName of every action, as DynamoDB does
// before looking at any action's other members (shape.go). An element
// without exactly one action is left to plan.
func (in *TransactWriteInput) checkTableNames() error {
	var v Violations
	for i := range in.TransactItems {
		kind, a, err := in.TransactItems[i].Action()
		if err != nil {
			continue
		}
		// Check first under a placeholder path: the real one, a Sprintf per
		// action, is only needed for a name the rule refuses.
		var probe Violations
		if probe.dataTableName("", a.TableName, false); len(probe) == 0 {
			continue
		}
		v.dataTableName(fmt.Sprintf("transactItems.%d.member.%s.tableName", i+1, transactMembers[kind]), a.TableName, false)
	}
	if err := v.Err(); err != nil {
		return err
	}
	return nil
}

// bind checks the members the action's kind requires (i is its index in
// TransactItems) and binds its UpdateExpression.
func (p *plannedAction) bind(i int, env *exprEnv) error {
	switch p.kind {
	case TransactConditionCheck:
		if p.a.ConditionExpression == nil {
			return Validationf("The ConditionExpression parameter is required for ConditionCheck")
		}
	case TransactPut:
		if p.a.Item == nil {
			return Validationf("1 validation error detected: Value null at 'transactItems.%d.member.put.item' failed to satisfy constraint: Member must not be null", i+1)
		}
	case TransactUpdate:
		if p.a.UpdateExpression == nil {
			return Validationf("1 validation error detected: Value null at 'transactItems.%d.member.update.updateExpression' failed to satisfy constraint: Member must not be null", i+1)
		}
		var err error
		p.upd, err = env.Update(*p.a.UpdateExpression, nil)
		return err
	}
	return nil
}

// key returns the table key of the item the action acts on: a Put names it
// by its item, the others by Key.
func (p *plannedAction) key(m *storage.TableMeta) ([]byte, error) {
	if p.kind == TransactPut {
		return ItemKey(m, p.a.Item)
	}
	return keyParam(m, p.a.Key)
}

// newItem returns the item the action writes in place of old, or nil for
// the kinds that write none; an update spends old unless keepOld. An update
// that fails at run time (an operand of the wrong type) fails the request,
// as in DynamoDB Local, rather than cancelling the transaction.
func (p *plannedAction) newItem(old attr.Item, keepOld bool) (attr.Item, error) {
	switch p.kind {
	case TransactPut:
		return p.a.Item, nil
	case TransactUpdate:
		return applyUpdate(p.upd, old, p.a.Key, keepOld)
	}
	return nil, nil
}

// write applies the action to its target and returns the units it wrote.
func (p *plannedAction) write(tg *transactTarget) (storage.WriteUnits, error) {
	switch p.kind {
	case TransactConditionCheck:
		return storage.WriteUnits{Table: float64(attr.WriteUnits(storage.SizeOf(tg.old)))}, nil
	case TransactDelete:
		return tg.t.Remove(tg.k, tg.raw)
	case TransactUpdate:
		if tg.old == nil && len(tg.nw) == len(p.a.Key) {
			return storage.WriteUnits{Table: 1}, nil // only removals on an absent item
		}
	}
	return tg.t.PutSized(tg.k, tg.raw, tg.rawSize, tg.nw, tg.size)
}

// TransactWriteItems applies up to 100 actions atomically in one bbolt
// transaction. All conditions are checked against the state before the
// transaction; if any fails, nothing is written and the
// TransactionCanceledException lists a reason per action, in order. A
// ClientRequestToken makes the call idempotent for ten minutes: a repeat
// with the same parameters returns the first response without writing, one
// with other parameters is an IdempotentParameterMismatchException. Tokens
// are stored in the data file, so idempotency survives restarts.
// earlierHash returns the hash a ClientRequestToken was stored with by
// earlier versions (requestDigest), called only when a stored record needs
// it.
func (e *Engine) TransactWriteItems(_ context.Context, in *TransactWriteInput, earlierHash func() []byte) (*TransactWriteOutput, error) {
	plans, err := in.plan()
	if err != nil {
		return nil, err
	}
	var digest requestDigest
	if in.ClientRequestToken != "" {
		digest = requestDigest{binary: BinaryRequestHash(in), typed: func() []byte { return TypedRequestHash(in) }, earlier: earlierHash}
	}
	var out *TransactWriteOutput
	err = e.UpdateGrouped(func(tx *bolt.Tx) error {
		if in.ClientRequestToken != "" {
			prev, err := e.lookupToken(tx, in.ClientRequestToken, digest)
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
			return e.saveToken(tx, in.ClientRequestToken, digest, res)
		}
		return nil
	})
	return out, err
}

// transactTarget is the item an action acts on, read before any action
// writes: its table, its key, the stored item (raw, possibly expired) and
// its size, the live one (old, nil when absent or expired), and the item
// the action writes (nw, set by evaluate) and its size.
type transactTarget struct {
	t             *storage.TableTx
	k             []byte
	raw, old      attr.Item
	rawSize, size int
	nw            attr.Item
}

// transactWrite runs validated actions inside tx: it reads every target,
// evaluates every action against the state before the transaction, then
// applies them all or none.
func (e *Engine) transactWrite(tx *bolt.Tx, plans []plannedAction, capMode string) (*TransactWriteOutput, error) {
	targets, err := e.readTargets(tx, plans)
	if err != nil {
		return nil, err
	}
	if err := evaluate(plans, targets); err != nil {
		return nil, err
	}
	caps, err := applyActions(plans, targets)
	if err != nil {
		return nil, err
	}
	return &TransactWriteOutput{ConsumedCapacity: reportTables(caps, capMode)}, nil
}

// readTargets opens the table of each action (once per table), finds its
// key and reads the item there, refusing two actions on one item.
func (e *Engine) readTargets(tx *bolt.Tx, plans []plannedAction) ([]transactTarget, error) {
	// A transaction holds at most 100 actions, most of them on one table:
	// the tables opened and the items seen are searched in order, cheaper
	// than maps at these sizes.
	var tables []*storage.TableTx
	targets := make([]transactTarget, len(plans))
	for i := range plans {
		p := &plans[i]
		var t *storage.TableTx
		for _, open := range tables {
			if open.M.Name == p.a.TableName {
				t = open
				break
			}
		}
		if t == nil {
			var err error
			if t, err = e.OpenTable(tx, p.a.TableName); err != nil {
				return nil, err
			}
			tables = append(tables, t)
		}
		k, err := p.key(t.M)
		if err != nil {
			return nil, err
		}
		for _, seen := range targets[:i] {
			if seen.t == t && string(seen.k) == string(k) {
				return nil, Validationf("Transaction request cannot include multiple operations on one item")
			}
		}
		raw, rawSize, err := t.GetSized(k)
		if err != nil {
			return nil, err
		}
		targets[i] = transactTarget{t: t, k: k, raw: raw, rawSize: rawSize, old: t.Live(raw)}
	}
	return targets, nil
}

// evaluate checks every action against its target and sets the items they
// write. Any action that fails cancels the transaction, with a reason per
// action in action order; a transaction that passes may still be refused
// for its total size.
func evaluate(plans []plannedAction, targets []transactTarget) error {
	reasons := make([]CancellationReason, len(plans))
	failed := false
	for i := range plans {
		r, err := plans[i].evaluate(&targets[i])
		if err != nil {
			return err
		}
		reasons[i] = r
		failed = failed || r.Code != "None"
	}
	if failed {
		return TransactionCanceled(reasons)
	}
	size := 0
	for i := range targets {
		size += targets[i].size
	}
	if size > maxTransactBytes {
		return Validationf("Transaction request size exceeds the maximum of %d bytes", maxTransactBytes)
	}
	return nil
}

// evaluate checks one action against the item before the transaction and
// sets tg.nw. It returns the action's cancellation reason ("None" when it
// may proceed), or an error that fails the whole request.
func (p *plannedAction) evaluate(tg *transactTarget) (CancellationReason, error) {
	if p.kind == TransactUpdate {
		// Like DynamoDB Local: a key update cancels the transaction.
		if err := checkKeyNotUpdated(tg.t.M, p.upd); err != nil {
			return validationReason(err), nil
		}
	}
	ok, err := evalCondition(p.cond, tg.old)
	if err != nil {
		return validationReason(err), nil
	}
	if !ok {
		r := CancellationReason{Code: "ConditionalCheckFailed", Message: "The conditional request failed"}
		if p.a.ReturnValuesOnConditionCheckFailure == "ALL_OLD" {
			r.Item = tg.old
		}
		return r, nil
	}
	// Only an action whose condition fails answers its old item, and this
	// one's passed: the old item is spent unless the table's writes read it.
	if tg.nw, err = p.newItem(tg.old, tg.t.KeepsReplaced()); err != nil {
		return CancellationReason{}, err
	}
	if tg.nw != nil {
		if err := checkIndexKeys(tg.t.M, tg.nw); err != nil {
			return validationReason(err), nil
		}
		tg.size = attr.Size(tg.nw)
		if err := checkSize(tg.size); err != nil {
			return validationReason(err), nil
		}
	}
	return CancellationReason{Code: "None"}, nil
}

// validationReason is the cancellation reason of an action refused by err.
func validationReason(err error) CancellationReason {
	return CancellationReason{Code: "ValidationError", Message: AsError(err).Message}
}

// applyActions writes every action, in order, and stores the tables'
// counters; it returns the capacity consumed per table. Every item write
// goes through tableTx.put or remove, so each appends its stream record in
// this transaction.
func applyActions(plans []plannedAction, targets []transactTarget) (map[string]*Capacity, error) {
	caps := map[string]*Capacity{}
	for i := range plans {
		p, tg := &plans[i], &targets[i]
		c := caps[p.a.TableName]
		if c == nil {
			c = newCapacity(tg.t.M)
			caps[p.a.TableName] = c
		}
		u, err := p.write(tg)
		if err != nil {
			return nil, err
		}
		// A transactional write costs twice a standard one.
		c.addWrite(u, 2)
	}
	for i := range targets {
		// flush stores a table's counters once; later calls find it clean.
		if err := targets[i].t.Flush(); err != nil {
			return nil, err
		}
	}
	return caps, nil
}
