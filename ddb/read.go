package ddb

// What the reads share (GetItem, Query, Scan, BatchGetItem, TransactGetItems):
// their common parameters and the response form of an item read.

import "github.com/quickphotos/quickphotos/ddb/attr"

// readParams are the parameters shared by GetItem, Query and Scan.
type readParams struct {
	TableName              string  `json:"TableName"`
	ProjectionExpression   *string `json:"ProjectionExpression"`
	ConsistentRead         bool    `json:"ConsistentRead"`
	ReturnConsumedCapacity string  `json:"ReturnConsumedCapacity"`
	exprParams
	legacyParams
	// tableNameAbsent is whether the request left TableName out (shape.go).
	tableNameAbsent bool
}

// shape checks the table name and ReturnConsumedCapacity (shape.go),
// returning the violations for the caller to add its own to.
func (p *readParams) shape() violations {
	var v violations
	v.tableName(p.TableName, p.tableNameAbsent)
	v.enum("returnConsumedCapacity", p.ReturnConsumedCapacity, returnConsumedCapacitySet...)
	return v
}

// projectedOrRaw is the response form of a read item: its response JSON
// (raw) when there is no projection, or the item itself when it was read
// decoded (raw nil); else the projected item.
func projectedOrRaw(p projector, it attr.Item, raw *storedItem) any {
	switch {
	case p != nil:
		return p(it)
	case raw == nil:
		return it
	}
	return raw
}
