package engine

// What the reads share (GetItem, Query, Scan, BatchGetItem, TransactGetItems):
// their common parameters. The form of an item read is readItem (output.go).

// ReadParams are the parameters shared by GetItem, Query and Scan.
type ReadParams struct {
	TableName              string  `json:"TableName"`
	ProjectionExpression   *string `json:"ProjectionExpression"`
	ConsistentRead         bool    `json:"ConsistentRead"`
	ReturnConsumedCapacity string  `json:"ReturnConsumedCapacity"`
	ExprParams
	LegacyParams
	// TableNameAbsent is whether the request left TableName out (shape.go).
	TableNameAbsent bool `json:"-"`
}

// shape checks the table name and ReturnConsumedCapacity (shape.go),
// returning the violations for the caller to add its own to.
func (p *ReadParams) shape() Violations {
	var v Violations
	v.tableName(p.TableName, p.TableNameAbsent)
	v.Enum("returnConsumedCapacity", p.ReturnConsumedCapacity, ReturnConsumedCapacitySet...)
	return v
}
