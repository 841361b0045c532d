package engine

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// TransactGetInput is the TransactGetItems request.
type TransactGetInput struct {
	TransactItems          []TransactGetItem `json:"TransactItems"`
	ReturnConsumedCapacity string            `json:"ReturnConsumedCapacity"`
}

// TransactGetItem is one element of TransactItems: its Get.
type TransactGetItem struct {
	Get *TransactGet `json:"Get"`
}

// TransactGet is the one read of a TransactGetItems element.
type TransactGet struct {
	TableName                string            `json:"TableName"`
	Key                      attr.Item         `json:"Key"`
	ProjectionExpression     *string           `json:"ProjectionExpression"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames"`
}

// TransactGetItems reads up to 100 items from one snapshot; Responses are
// in request order, {} for a missing item. Each read costs twice a strongly
// consistent read.
func (e *Engine) TransactGetItems(_ context.Context, in *TransactGetInput) (*TransactGetOutput, error) {
	if err := checkCapacityMode(in.ReturnConsumedCapacity); err != nil {
		return nil, err
	}
	n := len(in.TransactItems)
	if err := checkTransactItemCount(in.TransactItems); err != nil {
		return nil, err
	}
	var names Violations
	for i, ti := range in.TransactItems {
		if ti.Get != nil {
			names.dataTableName(fmt.Sprintf("transactItems.%d.member.get.tableName", i+1), ti.Get.TableName, false)
		}
	}
	if err := names.Err(); err != nil {
		return nil, err
	}
	projs := make([]projector, n)
	for i, ti := range in.TransactItems {
		if ti.Get == nil {
			return nil, Validationf("1 validation error detected: Value null at 'transactItems.%d.member.get' failed to satisfy constraint: Member must not be null", i+1)
		}
		env := &exprEnv{Names: ti.Get.ExpressionAttributeNames}
		p, err := env.Projection(ti.Get.ProjectionExpression)
		if err != nil {
			return nil, err
		}
		if err := env.Check(); err != nil {
			return nil, err
		}
		projs[i] = p
	}
	responses := make([]ResultItem, n)
	caps := map[string]*Capacity{}
	err := e.View(func(tx *bolt.Tx) error {
		tables := map[string]*storage.TableTx{}
		seen := map[string]bool{}
		reasons := make([]CancellationReason, n)
		failed := false
		for i, ti := range in.TransactItems {
			reasons[i] = CancellationReason{Code: "None"}
			g := ti.Get
			t := tables[g.TableName]
			if t == nil {
				var err error
				if t, err = e.OpenTable(tx, g.TableName); err != nil {
					return err
				}
				tables[g.TableName] = t
				caps[g.TableName] = newCapacity(t.M)
			}
			k, err := keyParam(t.M, g.Key)
			if err != nil {
				// An action's own validation error cancels the transaction,
				// with the reason in its place.
				reasons[i] = CancellationReason{Code: "ValidationError", Message: AsError(err).Message}
				failed = true
				continue
			}
			if seen[g.TableName+"\x00"+string(k)] {
				return Validationf("Transaction request cannot include multiple operations on one item")
			}
			seen[g.TableName+"\x00"+string(k)] = true
			it, raw, size, err := t.GetLive(k, projs[i] != nil)
			if err != nil {
				return err
			}
			caps[g.TableName].Units += 2 * ReadUnits(size, true)
			if raw != nil {
				responses[i] = readItem(projs[i], it, raw)
			}
		}
		if failed {
			return TransactionCanceled(reasons)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &TransactGetOutput{Responses: responses, Capacity: reportTables(caps, in.ReturnConsumedCapacity)}, nil
}
