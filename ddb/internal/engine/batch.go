package engine

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Batch limits of DynamoDB.
const (
	maxBatchGetKeys      = 100
	MaxBatchWriteItems   = 25
	maxBatchGetRespBytes = 16 << 20
)

// KeysAndAttributes is one table's part of a BatchGetItem request.
type KeysAndAttributes struct {
	Keys                     []attr.Item       `json:"Keys"`
	ProjectionExpression     *string           `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames,omitempty"`
	ConsistentRead           bool              `json:"ConsistentRead,omitempty"`
	AttributesToGet          []string          `json:"AttributesToGet,omitempty"`
}

// BatchGetInput is the BatchGetItem request.
type BatchGetInput struct {
	RequestItems           map[string]*KeysAndAttributes `json:"RequestItems"`
	ReturnConsumedCapacity string                        `json:"ReturnConsumedCapacity"`
}

// BatchGetItem reads up to 100 items from one or more tables in one
// snapshot. Keys whose items would take the response past 16 MB are
// returned in UnprocessedKeys.
func (e *Engine) BatchGetItem(_ context.Context, in *BatchGetInput) (*BatchGetOutput, error) {
	if err := checkBatch("BatchGetItem", in.ReturnConsumedCapacity, len(in.RequestItems)); err != nil {
		return nil, err
	}
	if err := requestItemsKeys(in.RequestItems); err != nil {
		return nil, err
	}
	names := sortedKeys(in.RequestItems)
	total := 0
	projs := map[string]projector{}
	for _, name := range names {
		ka := in.RequestItems[name]
		if ka == nil || len(ka.Keys) == 0 {
			return nil, Validationf("1 validation error detected: Value '[]' at 'requestItems.%s.member.keys' failed to satisfy constraint: Member must have length greater than or equal to 1", name)
		}
		if len(ka.Keys) > maxBatchGetKeys {
			return nil, Validationf("1 validation error detected: Value at 'RequestItems.%s.member.Keys' failed to satisfy constraint: Member must have length less than or equal to %d", name, maxBatchGetKeys)
		}
		total += len(ka.Keys)
		var p ExprParams
		p.ExpressionAttributeNames = ka.ExpressionAttributeNames
		proj := ka.ProjectionExpression
		if err := (&LegacyParams{AttributesToGet: ka.AttributesToGet}).translate(&p, exprSlots{projection: &proj}); err != nil {
			return nil, err
		}
		env := p.env()
		pr, err := env.Projection(proj)
		if err != nil {
			return nil, err
		}
		if err := env.Check(); err != nil {
			return nil, err
		}
		projs[name] = pr
	}
	if total > maxBatchGetKeys {
		return nil, Validationf("Too many items requested for the BatchGetItem call")
	}
	responses := map[string][]ResultItem{}
	unprocessed := map[string]*KeysAndAttributes{}
	var caps []CapacityReport
	err := e.View(func(tx *bolt.Tx) error {
		size := 0
		for _, name := range names {
			ka := in.RequestItems[name]
			t, err := e.OpenTable(tx, name)
			if err != nil {
				return err
			}
			seen := map[string]bool{}
			keys := make([][]byte, len(ka.Keys))
			for i, key := range ka.Keys {
				k, err := keyParam(t.M, key)
				if err != nil {
					return err
				}
				if seen[string(k)] {
					return Validationf("Provided list of item keys contains duplicates")
				}
				seen[string(k)] = true
				keys[i] = k
			}
			c := newCapacity(t.M)
			got := []ResultItem{}
			for i, k := range keys {
				if size >= maxBatchGetRespBytes {
					u := unprocessed[name]
					if u == nil {
						u = &KeysAndAttributes{ProjectionExpression: ka.ProjectionExpression, ExpressionAttributeNames: ka.ExpressionAttributeNames, ConsistentRead: ka.ConsistentRead, AttributesToGet: ka.AttributesToGet}
						unprocessed[name] = u
					}
					u.Keys = append(u.Keys, ka.Keys[i])
					continue
				}
				it, raw, itemSize, err := t.GetLive(k, projs[name] != nil)
				if err != nil {
					return err
				}
				c.Units += ReadUnits(itemSize, ka.ConsistentRead)
				if raw != nil {
					size += itemSize
					got = append(got, readItem(projs[name], it, raw))
				}
			}
			responses[name] = got
			if cc := (ConsumedCapacity{C: c, Mode: in.ReturnConsumedCapacity}); cc.Reported() {
				caps = append(caps, c.report(cc.Mode))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &BatchGetOutput{Responses: responses, Unprocessed: unprocessed, Capacity: caps}, nil
}

// WriteRequest is one element of a BatchWriteItem table list.
type WriteRequest struct {
	PutRequest    *PutRequest    `json:"PutRequest,omitempty"`
	DeleteRequest *DeleteRequest `json:"DeleteRequest,omitempty"`
}

// PutRequest is the PutRequest of a writeRequest.
type PutRequest struct {
	Item attr.Item `json:"Item"`
}

// DeleteRequest is the DeleteRequest of a writeRequest.
type DeleteRequest struct {
	Key attr.Item `json:"Key"`
}

// BatchWriteInput is the BatchWriteItem request.
type BatchWriteInput struct {
	RequestItems                map[string][]WriteRequest `json:"RequestItems"`
	ReturnConsumedCapacity      string                    `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics string                    `json:"ReturnItemCollectionMetrics"`
}

// BatchWriteItem puts and deletes up to 25 items. All requests are
// validated first and then applied in one transaction, so UnprocessedItems
// is always empty (DynamoDB applies each request separately).
func (e *Engine) BatchWriteItem(_ context.Context, in *BatchWriteInput) (*BatchWriteOutput, error) {
	if err := checkBatch("BatchWriteItem", in.ReturnConsumedCapacity, len(in.RequestItems)); err != nil {
		return nil, err
	}
	if err := requestItemsKeys(in.RequestItems); err != nil {
		return nil, err
	}
	n := 0
	for _, name := range sortedKeys(in.RequestItems) {
		reqs := in.RequestItems[name]
		n += len(reqs)
		if len(reqs) == 0 || len(reqs) > MaxBatchWriteItems {
			return nil, Validationf("1 validation error detected: Value '{%s}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]",
				renderWriteRequests(name, reqs))
		}
	}
	if n > MaxBatchWriteItems {
		return nil, Validationf("Too many items requested for the BatchWriteItem call")
	}
	var caps []CapacityReport
	err := e.UpdateGrouped(func(tx *bolt.Tx) error {
		caps = nil
		for _, name := range sortedKeys(in.RequestItems) {
			t, err := e.OpenTable(tx, name)
			if err != nil {
				return err
			}
			keys := make([][]byte, len(in.RequestItems[name]))
			seen := map[string]bool{}
			for i, r := range in.RequestItems[name] {
				var k []byte
				switch {
				case r.PutRequest != nil && r.DeleteRequest == nil:
					if r.PutRequest.Item == nil {
						return Validationf("1 validation error detected: Value null at 'requestItems.%s.member.putRequest.item' failed to satisfy constraint: Member must not be null", name)
					}
					k, err = checkNewItem(t, r.PutRequest.Item)
				case r.DeleteRequest != nil && r.PutRequest == nil:
					k, err = keyParam(t.M, r.DeleteRequest.Key)
				default:
					return Validationf("Supplied WriteRequest must contain exactly one of PutRequest or DeleteRequest")
				}
				if err != nil {
					return err
				}
				if seen[string(k)] {
					return Validationf("Provided list of item keys contains duplicates")
				}
				seen[string(k)] = true
				keys[i] = k
			}
			c := newCapacity(t.M)
			for i, r := range in.RequestItems[name] {
				raw, rawSize, err := t.GetSized(keys[i])
				if err != nil {
					return err
				}
				var u storage.WriteUnits
				if r.PutRequest != nil {
					u, err = t.PutSized(keys[i], raw, rawSize, r.PutRequest.Item, attr.Size(r.PutRequest.Item))
				} else {
					u, err = t.Remove(keys[i], raw)
				}
				if err != nil {
					return err
				}
				c.addWrite(u, 1)
			}
			if err := t.Flush(); err != nil {
				return err
			}
			if cc := (ConsumedCapacity{C: c, Mode: in.ReturnConsumedCapacity}); cc.Reported() {
				caps = append(caps, c.report(cc.Mode))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &BatchWriteOutput{Capacity: caps}, nil
}

// checkBatch validates what BatchGetItem and BatchWriteItem (op) share:
// ReturnConsumedCapacity, and RequestItems naming at least one table.
func checkBatch(op, capMode string, tables int) error {
	if err := checkCapacityMode(capMode); err != nil {
		return err
	}
	if tables == 0 {
		return Validationf("The requestItems parameter is required for %s", op)
	}
	return nil
}

// renderWriteRequests renders one table's write requests as the model's
// messages show a RequestItems entry: "<table>=[<request>, …]".
func renderWriteRequests(table string, reqs []WriteRequest) string {
	return table + "=[" + jsonList(reqs) + "]"
}
