package ddb

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// nestedList is a value holding levels lists, one in the other, around a
// string: at depth d it reaches depth d+levels.
func nestedList(levels int) types.AttributeValue {
	v := s("x")
	for range levels {
		v = &types.AttributeValueMemberL{Value: []types.AttributeValue{v}}
	}
	return v
}

// emptyNamed is a map with an attribute of no name.
func emptyNamed() types.AttributeValue {
	return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"": n("1")}}
}

// TestPartiQL_ValuesCheckedAsTheirRequests: a statement runs as the
// DynamoDB request it translates into, and its values are checked as that
// request's would be when it arrives as JSON: where the request refuses
// them, the statement is refused with the same exception and message, and
// nothing is written; where the request takes them, so does the
// statement. (A value is checked by where it lands: an item's attributes
// start a level deeper than a parameter or an expression's value.)
func TestPartiQL_ValuesCheckedAsTheirRequests(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	env.execute(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '1', 'v': 1}`)
	key := item("PK", s("p"), "SK", s("1"))
	statement := func(st string, params ...types.AttributeValue) func() error {
		return func() error {
			_, err := env.client.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(st), Parameters: params})
			return err
		}
	}
	transaction := func(st string, params ...types.AttributeValue) func() error {
		return func() error {
			_, err := env.client.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(`UPDATE "tbl" SET w = 1 WHERE PK = 'p' AND SK = '1'`)},
				{Statement: aws.String(st), Parameters: params},
			}})
			return err
		}
	}
	batch := func(st string, params ...types.AttributeValue) func() error {
		return func() error {
			out, err := env.client.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(st), Parameters: params},
			}})
			if err != nil {
				return err
			}
			if e := out.Responses[0].Error; e != nil {
				return &batchError{code: string(e.Code) + "Exception", msg: aws.ToString(e.Message)}
			}
			return nil
		}
	}
	put := func(it map[string]types.AttributeValue) func() error {
		return func() error {
			_, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it,
				ConditionExpression: aws.String("attribute_not_exists(#n0)"), ExpressionAttributeNames: map[string]string{"#n0": "PK"}})
			return err
		}
	}
	for _, c := range []struct {
		name      string
		statement func() error
		request   func() error
		refused   bool
	}{
		{"an inserted item with an attribute of no name",
			statement(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '2', 'm': {'': 1}}`),
			put(item("PK", s("p"), "SK", s("2"), "m", emptyNamed())), true},
		{"an inserted item nested too deep by its parameter",
			statement(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '2', 'l': ?}`, nestedList(attrMaxDepth)),
			put(item("PK", s("p"), "SK", s("2"), "l", nestedList(attrMaxDepth))), true},
		{"an inserted item as deep as an item may be",
			statement(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '3', 'l': ?}`, nestedList(attrMaxDepth-1)),
			put(item("PK", s("p"), "SK", s("4"), "l", nestedList(attrMaxDepth-1))), false},
		{"an assigned value with an attribute of no name",
			statement(`UPDATE "tbl" SET m = {'': 1} WHERE PK = 'p' AND SK = '1'`),
			func() error {
				_, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
					UpdateExpression: aws.String("SET #n0 = :v0"), ConditionExpression: aws.String("attribute_exists(#n1)"),
					ExpressionAttributeNames:  map[string]string{"#n0": "m", "#n1": "PK"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":v0": emptyNamed()}})
				return err
			}, true},
		{"a key with an attribute of no name",
			statement(`DELETE FROM "tbl" WHERE PK = {'': 1} AND SK = '1'`),
			func() error {
				_, err := env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"),
					Key: item("PK", emptyNamed(), "SK", s("1"))})
				return err
			}, true},
		{"a read key with an attribute of no name",
			statement(`SELECT * FROM "tbl" WHERE PK = {'': 1} AND SK = '1'`),
			func() error {
				_, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", emptyNamed(), "SK", s("1"))})
				return err
			}, true},
		{"a filter's value as deep as a standalone value may be",
			statement(`SELECT * FROM "tbl" WHERE PK = 'p' AND v = ?`, nestedList(attrMaxDepth)),
			func() error {
				_, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"),
					KeyConditionExpression: aws.String("#n0 = :v0"), FilterExpression: aws.String("(#n1 = :v1)"),
					ExpressionAttributeNames:  map[string]string{"#n0": "PK", "#n1": "v"},
					ExpressionAttributeValues: map[string]types.AttributeValue{":v0": s("p"), ":v1": nestedList(attrMaxDepth)}})
				return err
			}, false},
		{"a transaction's inserted item with an attribute of no name",
			transaction(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '5', 'm': {'': 1}}`),
			func() error {
				_, err := env.client.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Update: &types.Update{TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String("SET #n0 = :v0"),
						ConditionExpression:       aws.String("attribute_exists(#n1)"),
						ExpressionAttributeNames:  map[string]string{"#n0": "w", "#n1": "PK"},
						ExpressionAttributeValues: map[string]types.AttributeValue{":v0": n("1")}}},
					{Put: &types.Put{TableName: aws.String("tbl"), Item: item("PK", s("p"), "SK", s("5"), "m", emptyNamed()),
						ConditionExpression: aws.String("attribute_not_exists(#n0)"), ExpressionAttributeNames: map[string]string{"#n0": "PK"}}},
				}})
				return err
			}, true},
		{"a transaction's read key with an attribute of no name",
			func() error {
				_, err := env.client.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
					{Statement: aws.String(`SELECT * FROM "tbl" WHERE PK = {'': 1} AND SK = '1'`)},
				}})
				return err
			},
			func() error {
				_, err := env.client.TransactGetItems(env.ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
					{Get: &types.Get{TableName: aws.String("tbl"), Key: item("PK", emptyNamed(), "SK", s("1"))}},
				}})
				return err
			}, true},
		{"a batch's inserted item nested too deep",
			batch(`INSERT INTO "tbl" VALUE {'PK': 'p', 'SK': '6', 'l': ?}`, nestedList(attrMaxDepth)),
			put(item("PK", s("p"), "SK", s("6"), "l", nestedList(attrMaxDepth))), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			stErr, reqErr := c.statement(), c.request()
			if (stErr != nil) != c.refused || (reqErr != nil) != c.refused {
				t.Fatalf("statement: %v; request: %v; want refused %v", stErr, reqErr, c.refused)
			}
			if !c.refused {
				return
			}
			sc, sm := apiError(stErr)
			rc, rm := apiError(reqErr)
			if sc != rc || sm != rm {
				t.Errorf("statement refused with %s %q, request with %s %q", sc, sm, rc, rm)
			}
		})
	}
	out := env.execute(`SELECT * FROM "tbl" WHERE PK = 'p'`)
	var sks []string
	for _, it := range out.Items {
		sks = append(sks, it["SK"].(*types.AttributeValueMemberS).Value)
		if it["SK"].(*types.AttributeValueMemberS).Value == "1" && (len(it) != 3 || it["w"] != nil) {
			t.Errorf("the refused statements changed the item: %v", it)
		}
	}
	if got := strings.Join(sks, ","); got != "1,3,4" {
		t.Errorf("items %s, want 1 and the two accepted inserts 3,4", got)
	}
}

// attrMaxDepth is the deepest nesting DynamoDB takes.
const attrMaxDepth = attr.MaxDepth

// batchError is the error in place of a statement of a batch, as an
// error apiError reads.
type batchError struct{ code, msg string }

func (e *batchError) Error() string                 { return e.code + ": " + e.msg }
func (e *batchError) ErrorCode() string             { return e.code }
func (e *batchError) ErrorMessage() string          { return e.msg }
func (e *batchError) ErrorFault() smithy.ErrorFault { return smithy.FaultUnknown }
