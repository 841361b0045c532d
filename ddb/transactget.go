package ddb

import (
	"context"
	"fmt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	bolt "go.etcd.io/bbolt"
)

// transactGetInput is the TransactGetItems request.
type transactGetInput struct {
	TransactItems          []transactGetItem `json:"TransactItems"`
	ReturnConsumedCapacity string            `json:"ReturnConsumedCapacity"`
}

// transactGetItem is one element of TransactItems: its Get.
type transactGetItem struct {
	Get *transactGet `json:"Get"`
}

// transactGet is the one read of a TransactGetItems element.
type transactGet struct {
	TableName                string            `json:"TableName"`
	Key                      attr.Item         `json:"Key"`
	ProjectionExpression     *string           `json:"ProjectionExpression"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames"`
}

// opTransactGetItems decodes a TransactGetItems request and runs it.
func opTransactGetItems(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in transactGetInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.transactGetItems(ctx, &in)
}

// transactGetItems reads up to 100 items from one snapshot; Responses are
// in request order, {} for a missing item. Each read costs twice a strongly
// consistent read.
func (e *Engine) transactGetItems(_ context.Context, in *transactGetInput) (*transactGetOutput, error) {
	if err := checkCapacityMode(in.ReturnConsumedCapacity); err != nil {
		return nil, err
	}
	n := len(in.TransactItems)
	if err := checkTransactItemCount(in.TransactItems); err != nil {
		return nil, err
	}
	var names violations
	for i, ti := range in.TransactItems {
		if ti.Get != nil {
			names.dataTableName(fmt.Sprintf("transactItems.%d.member.get.tableName", i+1), ti.Get.TableName, false)
		}
	}
	if err := names.err(); err != nil {
		return nil, err
	}
	projs := make([]projector, n)
	for i, ti := range in.TransactItems {
		if ti.Get == nil {
			return nil, validationf("1 validation error detected: Value null at 'transactItems.%d.member.get' failed to satisfy constraint: Member must not be null", i+1)
		}
		env := &exprEnv{names: ti.Get.ExpressionAttributeNames}
		p, err := env.projection(ti.Get.ProjectionExpression)
		if err != nil {
			return nil, err
		}
		if err := env.check(); err != nil {
			return nil, err
		}
		projs[i] = p
	}
	responses := make([]resultItem, n)
	caps := map[string]*capacity{}
	err := e.view(func(tx *bolt.Tx) error {
		tables := map[string]*tableTx{}
		seen := map[string]bool{}
		reasons := make([]cancellationReason, n)
		failed := false
		for i, ti := range in.TransactItems {
			reasons[i] = cancellationReason{Code: "None"}
			g := ti.Get
			t := tables[g.TableName]
			if t == nil {
				var err error
				if t, err = e.openTable(tx, g.TableName); err != nil {
					return err
				}
				tables[g.TableName] = t
				caps[g.TableName] = newCapacity(t.m)
			}
			k, err := t.m.keyParam(g.Key)
			if err != nil {
				// An action's own validation error cancels the transaction,
				// with the reason in its place.
				reasons[i] = cancellationReason{Code: "ValidationError", Message: asError(err).Message}
				failed = true
				continue
			}
			if seen[g.TableName+"\x00"+string(k)] {
				return validationf("Transaction request cannot include multiple operations on one item")
			}
			seen[g.TableName+"\x00"+string(k)] = true
			it, raw, size, err := t.getLive(k, projs[i] != nil)
			if err != nil {
				return err
			}
			caps[g.TableName].units += 2 * readUnits(size, true)
			if raw != nil {
				responses[i] = readItem(projs[i], it, raw)
			}
		}
		if failed {
			return transactionCanceled(reasons)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &transactGetOutput{responses: responses, capacity: reportTables(caps, in.ReturnConsumedCapacity)}, nil
}
