package wire

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/partiqlexec"
)

// operations maps X-Amz-Target operation names to handlers.
var operations = map[string]Operation{
	"CreateTable":           op((*engine.Engine).CreateTable),
	"DescribeTable":         op((*engine.Engine).DescribeTable),
	"ListTables":            op((*engine.Engine).ListTables),
	"DeleteTable":           op((*engine.Engine).DeleteTable),
	"UpdateTable":           op((*engine.Engine).UpdateTable),
	"UpdateTimeToLive":      op((*engine.Engine).UpdateTimeToLive),
	"DescribeTimeToLive":    op((*engine.Engine).DescribeTimeToLive),
	"GetItem":               op((*engine.Engine).GetItem),
	"PutItem":               op((*engine.Engine).PutItem),
	"UpdateItem":            op((*engine.Engine).UpdateItem),
	"DeleteItem":            op((*engine.Engine).DeleteItem),
	"Query":                 OpQuery,
	"Scan":                  OpScan,
	"BatchGetItem":          op((*engine.Engine).BatchGetItem),
	"BatchWriteItem":        op((*engine.Engine).BatchWriteItem),
	"TransactWriteItems":    opTransactWriteItems,
	"TransactGetItems":      op((*engine.Engine).TransactGetItems),
	"TagResource":           op((*engine.Engine).TagResource),
	"UntagResource":         op((*engine.Engine).UntagResource),
	"ListTagsOfResource":    op((*engine.Engine).ListTagsOfResource),
	"ExecuteStatement":      OpExecuteStatement,
	"BatchExecuteStatement": op(partiqlexec.BatchExecuteStatement),
	"ExecuteTransaction":    op(partiqlexec.ExecuteTransaction),
}

// The operations that benchmarks and tests outside the package call
// directly.
var (
	OpQuery            = op((*engine.Engine).Query)
	OpScan             = op((*engine.Engine).Scan)
	OpExecuteStatement = op(partiqlexec.ExecuteStatement)
)

// absentTableName is a request that tells a TableName left out of its body
// from an empty one, as DynamoDB's messages do
// (engine.AbsentTableName).
type absentTableName interface {
	NoteAbsentTableName(body []byte)
}

// op is the Operation that decodes its request into an In and runs it with
// run: every operation but TransactWriteItems.
func op[In, Out any](run func(*engine.Engine, context.Context, *In) (Out, error)) Operation {
	return func(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
		var in In
		if err := decode(body, &in); err != nil {
			return nil, err
		}
		if a, ok := any(&in).(absentTableName); ok {
			a.NoteAbsentTableName(body)
		}
		out, err := run(e, ctx, &in)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// opTransactWriteItems decodes a TransactWriteItems request and runs it
// (engine.Engine.TransactWriteItems), with the hash earlier versions stored
// its ClientRequestToken with.
func opTransactWriteItems(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.TransactWriteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.TransactWriteItems(ctx, &in, func() []byte { return engine.RequestHash(body) })
}
