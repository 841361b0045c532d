// Package carriers makes the DynamoDB calls whose IAM actions travel inside them, one function
// each, for deploy's TestActionsReached_Carried: the module itself uses no PartiQL and no
// TransactGetItems, and the walk must still read them right when it does.
package carriers

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TransactGet(ctx context.Context, c *dynamodb.Client) {
	_, _ = c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{
		TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: aws.String("t")}}},
	})
}

func TransactWrite(ctx context.Context, c *dynamodb.Client) {
	_, _ = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("t")}},
			{ConditionCheck: &types.ConditionCheck{TableName: aws.String("t")}},
		},
	})
}

func Statement(ctx context.Context, c *dynamodb.Client) {
	_, _ = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`DELETE FROM "t" WHERE PK = ?`)})
}

const selectOne = `SELECT * FROM "t" WHERE PK = ?`

func BatchStatements(ctx context.Context, c *dynamodb.Client) {
	_, _ = c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{
		Statements: []types.BatchStatementRequest{
			{Statement: aws.String(selectOne)},
			{Statement: aws.String(`INSERT INTO "t" VALUE {'PK': ?}`)},
		},
	})
}

func Transaction(ctx context.Context, c *dynamodb.Client) {
	_, _ = c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{
		TransactStatements: []types.ParameterizedStatement{{Statement: aws.String(`UPDATE "t" SET a = 1 WHERE PK = ?`)}},
	})
}

func BatchWrite(ctx context.Context, c *dynamodb.Client) {
	_, _ = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
		RequestItems: map[string][]types.WriteRequest{"t": {
			{PutRequest: &types.PutRequest{}},
			{DeleteRequest: &types.DeleteRequest{}},
		}},
	})
}
