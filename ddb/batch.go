package ddb

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/attr"
	bolt "go.etcd.io/bbolt"
)

// Batch limits of DynamoDB.
const (
	maxBatchGetKeys      = 100
	maxBatchWriteItems   = 25
	maxBatchGetRespBytes = 16 << 20
)

// keysAndAttributes is one table's part of a BatchGetItem request.
type keysAndAttributes struct {
	Keys                     []attr.Item       `json:"Keys"`
	ProjectionExpression     *string           `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames map[string]string `json:"ExpressionAttributeNames,omitempty"`
	ConsistentRead           bool              `json:"ConsistentRead,omitempty"`
	AttributesToGet          []string          `json:"AttributesToGet,omitempty"`
}

// batchGetInput is the BatchGetItem request.
type batchGetInput struct {
	RequestItems           map[string]*keysAndAttributes `json:"RequestItems"`
	ReturnConsumedCapacity string                        `json:"ReturnConsumedCapacity"`
}

// opBatchGetItem decodes a BatchGetItem request and runs it.
func opBatchGetItem(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in batchGetInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.batchGetItem(ctx, &in)
}

// batchGetItem reads up to 100 items from one or more tables in one
// snapshot. Keys whose items would take the response past 16 MB are
// returned in UnprocessedKeys.
func (e *Engine) batchGetItem(_ context.Context, in *batchGetInput) (*batchGetOutput, error) {
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
			return nil, validationf("1 validation error detected: Value '[]' at 'requestItems.%s.member.keys' failed to satisfy constraint: Member must have length greater than or equal to 1", name)
		}
		if len(ka.Keys) > maxBatchGetKeys {
			return nil, validationf("1 validation error detected: Value at 'RequestItems.%s.member.Keys' failed to satisfy constraint: Member must have length less than or equal to %d", name, maxBatchGetKeys)
		}
		total += len(ka.Keys)
		var p exprParams
		p.ExpressionAttributeNames = ka.ExpressionAttributeNames
		proj := ka.ProjectionExpression
		if err := (&legacyParams{AttributesToGet: ka.AttributesToGet}).translate(&p, exprSlots{projection: &proj}); err != nil {
			return nil, err
		}
		env := p.env()
		pr, err := env.projection(proj)
		if err != nil {
			return nil, err
		}
		if err := env.check(); err != nil {
			return nil, err
		}
		projs[name] = pr
	}
	if total > maxBatchGetKeys {
		return nil, validationf("Too many items requested for the BatchGetItem call")
	}
	responses := map[string][]resultItem{}
	unprocessed := map[string]*keysAndAttributes{}
	var caps []capacityReport
	err := e.view(func(tx *bolt.Tx) error {
		size := 0
		for _, name := range names {
			ka := in.RequestItems[name]
			t, err := e.openTable(tx, name)
			if err != nil {
				return err
			}
			seen := map[string]bool{}
			keys := make([][]byte, len(ka.Keys))
			for i, key := range ka.Keys {
				k, err := t.m.keyParam(key)
				if err != nil {
					return err
				}
				if seen[string(k)] {
					return validationf("Provided list of item keys contains duplicates")
				}
				seen[string(k)] = true
				keys[i] = k
			}
			c := newCapacity(t.m)
			got := []resultItem{}
			for i, k := range keys {
				if size >= maxBatchGetRespBytes {
					u := unprocessed[name]
					if u == nil {
						u = &keysAndAttributes{ProjectionExpression: ka.ProjectionExpression, ExpressionAttributeNames: ka.ExpressionAttributeNames, ConsistentRead: ka.ConsistentRead, AttributesToGet: ka.AttributesToGet}
						unprocessed[name] = u
					}
					u.Keys = append(u.Keys, ka.Keys[i])
					continue
				}
				it, raw, itemSize, err := t.getLive(k, projs[name] != nil)
				if err != nil {
					return err
				}
				c.units += readUnits(itemSize, ka.ConsistentRead)
				if raw != nil {
					size += itemSize
					got = append(got, readItem(projs[name], it, raw))
				}
			}
			responses[name] = got
			if cc := (consumedCapacity{c: c, mode: in.ReturnConsumedCapacity}); cc.reported() {
				caps = append(caps, c.report(cc.mode))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &batchGetOutput{responses: responses, unprocessed: unprocessed, capacity: caps}, nil
}

// writeRequest is one element of a BatchWriteItem table list.
type writeRequest struct {
	PutRequest    *putRequest    `json:"PutRequest,omitempty"`
	DeleteRequest *deleteRequest `json:"DeleteRequest,omitempty"`
}

// putRequest is the PutRequest of a writeRequest.
type putRequest struct {
	Item attr.Item `json:"Item"`
}

// deleteRequest is the DeleteRequest of a writeRequest.
type deleteRequest struct {
	Key attr.Item `json:"Key"`
}

// batchWriteInput is the BatchWriteItem request.
type batchWriteInput struct {
	RequestItems                map[string][]writeRequest `json:"RequestItems"`
	ReturnConsumedCapacity      string                    `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics string                    `json:"ReturnItemCollectionMetrics"`
}

// opBatchWriteItem decodes a BatchWriteItem request and runs it.
func opBatchWriteItem(e *Engine, ctx context.Context, body []byte) (any, error) {
	var in batchWriteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.batchWriteItem(ctx, &in)
}

// batchWriteItem puts and deletes up to 25 items. All requests are
// validated first and then applied in one transaction, so UnprocessedItems
// is always empty (DynamoDB applies each request separately).
func (e *Engine) batchWriteItem(_ context.Context, in *batchWriteInput) (*batchWriteOutput, error) {
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
		if len(reqs) == 0 || len(reqs) > maxBatchWriteItems {
			return nil, validationf("1 validation error detected: Value '{%s}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]",
				renderWriteRequests(name, reqs))
		}
	}
	if n > maxBatchWriteItems {
		return nil, validationf("Too many items requested for the BatchWriteItem call")
	}
	var caps []capacityReport
	err := e.updateGrouped(func(tx *bolt.Tx) error {
		caps = nil
		for _, name := range sortedKeys(in.RequestItems) {
			t, err := e.openTable(tx, name)
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
						return validationf("1 validation error detected: Value null at 'requestItems.%s.member.putRequest.item' failed to satisfy constraint: Member must not be null", name)
					}
					k, err = t.checkNewItem(r.PutRequest.Item)
				case r.DeleteRequest != nil && r.PutRequest == nil:
					k, err = t.m.keyParam(r.DeleteRequest.Key)
				default:
					return validationf("Supplied WriteRequest must contain exactly one of PutRequest or DeleteRequest")
				}
				if err != nil {
					return err
				}
				if seen[string(k)] {
					return validationf("Provided list of item keys contains duplicates")
				}
				seen[string(k)] = true
				keys[i] = k
			}
			c := newCapacity(t.m)
			for i, r := range in.RequestItems[name] {
				raw, err := t.getRaw(keys[i])
				if err != nil {
					return err
				}
				var u writeUnits
				if r.PutRequest != nil {
					u, err = t.put(keys[i], raw, r.PutRequest.Item)
				} else {
					u, err = t.remove(keys[i], raw)
				}
				if err != nil {
					return err
				}
				c.addWrite(u, 1)
			}
			if err := t.flush(); err != nil {
				return err
			}
			if cc := (consumedCapacity{c: c, mode: in.ReturnConsumedCapacity}); cc.reported() {
				caps = append(caps, c.report(cc.mode))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &batchWriteOutput{capacity: caps}, nil
}

// checkBatch validates what BatchGetItem and BatchWriteItem (op) share:
// ReturnConsumedCapacity, and RequestItems naming at least one table.
func checkBatch(op, capMode string, tables int) error {
	if err := checkCapacityMode(capMode); err != nil {
		return err
	}
	if tables == 0 {
		return validationf("The requestItems parameter is required for %s", op)
	}
	return nil
}

// renderWriteRequests renders one table's write requests as the model's
// messages show a RequestItems entry: "<table>=[<request>, …]".
func renderWriteRequests(table string, reqs []writeRequest) string {
	return table + "=[" + jsonList(reqs) + "]"
}
