package ddb

// What the reads share (GetItem, Query, Scan, BatchGetItem, TransactGetItems):
// their common parameters. The form of an item read is readItem (output.go).

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
