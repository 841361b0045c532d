package ddb

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// execute runs a PartiQL statement, failing the test on error.
func (env *testEnv) execute(statement string, params ...types.AttributeValue) *dynamodb.ExecuteStatementOutput {
	env.t.Helper()
	out, err := env.client.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(statement), Parameters: params})
	if err != nil {
		env.t.Fatalf("%s: %v", statement, err)
	}
	return out
}

// TestPartiQL_PagesFollowNextToken: a SELECT over a partition pages with
// Limit and NextToken, the pages adding up to every item once.
func TestPartiQL_PagesFollowNextToken(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	for _, sk := range []string{"1", "2", "3", "4", "5"} {
		env.execute(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': ?}`, s(sk))
	}
	var got []string
	var token *string
	for pages := 0; ; pages++ {
		out, err := env.client.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{
			Statement: aws.String(`SELECT SK FROM "tbl" WHERE PK = 'p'`), Limit: aws.Int32(2), NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			got = append(got, it["SK"].(*types.AttributeValueMemberS).Value)
		}
		if token = out.NextToken; token == nil || pages > 5 {
			break
		}
	}
	if want := "12345"; len(got) != 5 || got[0]+got[1]+got[2]+got[3]+got[4] != want {
		t.Fatalf("pages gave %v, want the five items in order", got)
	}
}

// TestPartiQL_Errors: statements DynamoDB refuses, refused with its
// exceptions; nothing is written.
func TestPartiQL_Errors(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	env.execute(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '1'}`)
	for _, c := range []struct {
		name, statement string
		params          []types.AttributeValue
		code, msg       string
	}{
		{"a parameter missing", `SELECT * FROM "tbl" WHERE PK = ?`, nil, "ValidationException", "Number of parameters in request and statement don't match."},
		{"a parameter too many", `SELECT * FROM "tbl" WHERE PK = 'p'`, []types.AttributeValue{s("x")}, "ValidationException", "Number of parameters in request and statement don't match."},
		{"an UPDATE without the whole key", `UPDATE "tbl" SET v = 1 WHERE PK = 'p'`, nil, "ValidationException", "Where clause does not contain a mandatory equality on all key attributes"},
		{"a DELETE without the whole key", `DELETE FROM "tbl" WHERE SK = '1'`, nil, "ValidationException", "Where clause does not contain a mandatory equality on all key attributes"},
		{"an UPDATE of no item", `UPDATE "tbl" SET v = 1 WHERE PK = 'q' AND SK = '1'`, nil, "ConditionalCheckFailedException", "The conditional request failed"},
		{"an INSERT of an existing key", `INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '1', 'v': 2}`, nil, "DuplicateItemException", "Duplicate primary key exists in table"},
		{"an INSERT of no item", `INSERT INTO "tbl" VALUE 'p'`, nil, "ValidationException", ""},
		{"an empty set", `INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '2', 's': <<>>}`, nil, "ValidationException", ""},
		{"a missing index", `SELECT * FROM "tbl"."nope" WHERE PK = 'p'`, nil, "ValidationException", "The table does not have the specified index: nope"},
		{"a missing table", `SELECT * FROM "nope" WHERE PK = 'p'`, nil, "ResourceNotFoundException", "Requested resource not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := env.client.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(c.statement), Parameters: c.params})
			wantErr(t, err, c.code, c.msg)
		})
	}
	if out := env.execute(`SELECT * FROM "tbl" WHERE PK = 'p'`); len(out.Items) != 1 || len(out.Items[0]) != 2 {
		t.Fatalf("after the refused statements: %v", out.Items)
	}
}

// TestPartiQL_TransactionIsAllOrNothing: a transaction whose INSERT finds
// its key writes nothing, and says which statement failed.
func TestPartiQL_TransactionIsAllOrNothing(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	env.execute(`INSERT INTO "tbl" VALUE {'PK': 'a'}`)
	_, err := env.client.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`INSERT INTO "tbl" VALUE {'PK': 'b'}`)},
		{Statement: aws.String(`INSERT INTO "tbl" VALUE {'PK': 'a'}`)},
	}})
	wantErr(t, err, "TransactionCanceledException", "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]")
	if out := env.execute(`SELECT * FROM "tbl" WHERE PK = 'b'`); len(out.Items) != 0 {
		t.Fatalf("the rolled-back INSERT is there: %v", out.Items)
	}
	_, err = env.client.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`SELECT * FROM "tbl" WHERE PK = 'a'`)},
		{Statement: aws.String(`DELETE FROM "tbl" WHERE PK = 'a'`)},
	}})
	wantErr(t, err, "ValidationException", "Batch statements can be either all reads or all writes, not a mix")
}

// TestPartiQL_SelectFromAnIndex: "table"."index" reads the index, by its
// own key or by a scan of it.
func TestPartiQL_SelectFromAnIndex(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false, gsi("byG", "G", ""))
	env.execute(`INSERT INTO "tbl" VALUE {'PK': 'a', 'G': 'x'}`)
	env.execute(`INSERT INTO "tbl" VALUE {'PK': 'b', 'G': 'y'}`)
	env.execute(`INSERT INTO "tbl" VALUE {'PK': 'c'}`)
	for statement, want := range map[string]int{
		`SELECT * FROM "tbl"."byG" WHERE G = 'x'`: 1,
		`SELECT * FROM "tbl"."byG"`:               2,
		`SELECT * FROM "tbl"`:                     3,
	} {
		if out := env.execute(statement); len(out.Items) != want {
			t.Errorf("%s: %d items, want %d", statement, len(out.Items), want)
		}
	}
}
