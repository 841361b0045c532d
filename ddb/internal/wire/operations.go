package wire

import (
	"context"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/partiqlexec"
)

// opBatchGetItem decodes a BatchGetItem request and runs it.
func opBatchGetItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.BatchGetInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.BatchGetItem(ctx, &in)
}

// opBatchWriteItem decodes a BatchWriteItem request and runs it.
func opBatchWriteItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.BatchWriteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.BatchWriteItem(ctx, &in)
}

// opCreateTable decodes a CreateTable request and runs it.
func opCreateTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.CreateTableInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.CreateTable(ctx, &in)
}

// opDeleteItem decodes a DeleteItem request and runs it.
func opDeleteItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.DeleteItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.DeleteItem(ctx, &in)
}

// opDeleteTable decodes a DeleteTable request and runs it.
func opDeleteTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.DeleteTable(ctx, in)
}

// opDescribeTable decodes a DescribeTable request and runs it.
func opDescribeTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.DescribeTable(ctx, in)
}

// opGetItem decodes a GetItem request and runs it.
func opGetItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.GetItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.GetItem(ctx, &in)
}

// opListTables decodes a ListTables request and runs it.
func opListTables(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.ListTablesInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.ListTables(ctx, &in)
}

// OpExecuteStatement decodes an ExecuteStatement request and runs it.
func OpExecuteStatement(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in partiqlexec.ExecuteStatementInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return partiqlexec.ExecuteStatement(e, ctx, &in)
}

// opBatchExecuteStatement decodes a BatchExecuteStatement request and runs
// it.
func opBatchExecuteStatement(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in partiqlexec.BatchExecuteInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return partiqlexec.BatchExecuteStatement(e, ctx, &in)
}

// opExecuteTransaction decodes an ExecuteTransaction request and runs it.
func opExecuteTransaction(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in partiqlexec.ExecuteTransactionInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return partiqlexec.ExecuteTransaction(e, ctx, &in)
}

// opPutItem decodes a PutItem request and runs it.
func opPutItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.PutItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.PutItem(ctx, &in)
}

// OpQuery decodes a Query request and runs it.
func OpQuery(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.QueryInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.Query(ctx, &in)
}

// OpScan decodes a Scan request and runs it.
func OpScan(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.ScanInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.Scan(ctx, &in)
}

// decodeTableNameInput decodes the request of an operation naming only a
// table.
func decodeTableNameInput(body []byte) (*engine.TableNameInput, error) {
	var in engine.TableNameInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return &in, nil
}

// opTagResource decodes a TagResource request and runs it.
func opTagResource(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.TagResourceInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.TagResource(ctx, &in)
}

// opUntagResource decodes an UntagResource request and runs it.
func opUntagResource(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.UntagResourceInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.UntagResource(ctx, &in)
}

// opListTagsOfResource decodes a ListTagsOfResource request and runs it.
func opListTagsOfResource(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.ListTagsInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.ListTagsOfResource(ctx, &in)
}

// opTransactGetItems decodes a TransactGetItems request and runs it.
func opTransactGetItems(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.TransactGetInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return e.TransactGetItems(ctx, &in)
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

// opUpdateTimeToLive decodes an UpdateTimeToLive request and runs it.
func opUpdateTimeToLive(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.UpdateTTLInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.UpdateTimeToLive(ctx, &in)
}

// opDescribeTimeToLive decodes a DescribeTimeToLive request and runs it.
func opDescribeTimeToLive(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	in, err := decodeTableNameInput(body)
	if err != nil {
		return nil, err
	}
	return e.DescribeTimeToLive(ctx, in)
}

// opUpdateItem decodes an UpdateItem request and runs it.
func opUpdateItem(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.UpdateItemInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.UpdateItem(ctx, &in)
}

// opUpdateTable decodes an UpdateTable request and runs it.
func opUpdateTable(e *engine.Engine, ctx context.Context, body []byte) (any, error) {
	var in engine.UpdateTableInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	in.TableNameAbsent = engine.AbsentTableName(in.TableName, body)
	return e.UpdateTable(ctx, &in)
}
