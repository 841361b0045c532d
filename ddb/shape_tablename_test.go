package ddb

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
)

// Messages of the table-name constraints, as DynamoDB words them.
func tooShort(path, name string) string {
	return "Value '" + name + "' at '" + path + "' failed to satisfy constraint: Member must have length greater than or equal to 3"
}

func tooLong(path, name string) string {
	return "Value '" + name + "' at '" + path + "' failed to satisfy constraint: Member must have length less than or equal to 255"
}

func badChars(path, name string) string {
	return "Value '" + name + "' at '" + path + "' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
}

func oneViolation(v string) string { return "1 validation error detected: " + v }

func twoViolations(a, b string) string { return "2 validation errors detected: " + a + "; " + b }

// TestTableNameValidated sends a table name no table could have to every
// operation that takes one, over HTTP (the SDK client, JSON on the wire) and
// through the in-process API, and expects DynamoDB's ValidationException
// before any lookup: never ResourceNotFoundException.
func TestTableNameValidated(t *testing.T) {
	long := strings.Repeat("a", 256)
	key := item("PK", s("a"))
	cases := []struct {
		name string
		call func(ctx context.Context, c sdkAPI) error
		want string
	}{
		{"GetItem short", func(ctx context.Context, c sdkAPI) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("ab"), Key: key})
			return err
		}, oneViolation(tooShort("tableName", "ab"))},
		{"GetItem empty", func(ctx context.Context, c sdkAPI) error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(""), Key: key})
			return err
		}, oneViolation("Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1")},
		{"PutItem short and bad characters", func(ctx context.Context, c sdkAPI) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("x!"), Item: key})
			return err
		}, twoViolations(tooShort("tableName", "x!"), badChars("tableName", "x!"))},
		{"UpdateItem short", func(ctx context.Context, c sdkAPI) error {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("ab"), Key: key})
			return err
		}, oneViolation(tooShort("tableName", "ab"))},
		{"DeleteItem long", func(ctx context.Context, c sdkAPI) error {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(long), Key: key})
			return err
		}, oneViolation(tooLong("tableName", long))},
		{"Query bad characters", func(ctx context.Context, c sdkAPI) error {
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("bad table!@#"), KeyConditionExpression: aws.String("PK = :a"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":a": s("a")}})
			return err
		}, oneViolation(badChars("tableName", "bad table!@#"))},
		{"Scan short", func(ctx context.Context, c sdkAPI) error {
			_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("ab")})
			return err
		}, oneViolation(tooShort("tableName", "ab"))},
		{"BatchGetItem short key", func(ctx context.Context, c sdkAPI) error {
			_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"ab": {Keys: []map[string]types.AttributeValue{key}}}})
			return err
		}, oneViolation(`Value '{"ab":{"Keys":[{"PK":{"S":"a"}}]}}' at 'requestItems' failed to satisfy constraint: ` +
			"Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, " +
			"Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]")},
		{"BatchWriteItem bad key", func(ctx context.Context, c sdkAPI) error {
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"tbl": {{PutRequest: &types.PutRequest{Item: key}}},
				"a!b": {{PutRequest: &types.PutRequest{Item: key}}},
			}})
			return err
		}, oneViolation(`Value '{"a!b":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}}],"tbl":[{"PutRequest":{"Item":{"PK":{"S":"a"}}}}]}' at 'requestItems' failed to satisfy constraint: ` +
			"Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, " +
			"Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]")},
		{"TransactWriteItems", func(ctx context.Context, c sdkAPI) error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("tbl"), Item: key}},
				{Delete: &types.Delete{TableName: aws.String("ab"), Key: key}},
				{ConditionCheck: &types.ConditionCheck{TableName: aws.String("a!b"), Key: key, ConditionExpression: aws.String("attribute_exists(PK)")}},
			}})
			return err
		}, twoViolations(tooShort("transactItems.2.member.delete.tableName", "ab"), badChars("transactItems.3.member.conditionCheck.tableName", "a!b"))},
		{"DescribeTable short", func(ctx context.Context, c sdkAPI) error {
			_, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("ab")})
			return err
		}, oneViolation(tooShort("tableName", "ab"))},
		{"DeleteTable empty", func(ctx context.Context, c sdkAPI) error {
			_, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("")})
			return err
		}, twoViolations(tooShort("tableName", ""), badChars("tableName", ""))},
		{"UpdateTable bad characters", func(ctx context.Context, c sdkAPI) error {
			_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("t/b"), BillingMode: types.BillingModePayPerRequest})
			return err
		}, oneViolation(badChars("tableName", "t/b"))},
		{"UpdateTimeToLive short", func(ctx context.Context, c sdkAPI) error {
			_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("ab"),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
			return err
		}, oneViolation(tooShort("tableName", "ab"))},
		{"DescribeTimeToLive long", func(ctx context.Context, c sdkAPI) error {
			_, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(long)})
			return err
		}, oneViolation(tooLong("tableName", long))},
	}
	viaClient, inProcess := mustOpen(t), mustOpen(t)
	viaClient.CreateTable("tbl", false)
	inProcess.CreateTable("tbl", false)
	paths := []struct {
		name string
		env  *testEnv
		api  sdkAPI
	}{{"http", viaClient, viaClient.client}, {"inprocess", inProcess, inProcess.e.API()}}
	for _, c := range cases {
		for _, p := range paths {
			t.Run(c.name+"/"+p.name, func(t *testing.T) {
				wantErr(t, c.call(p.env.ctx, p.api), engine.TypeValidation, c.want)
			})
		}
	}
	// A valid name of no table is still not found, and nothing was written.
	for _, p := range paths {
		_, err := p.api.GetItem(p.env.ctx, &dynamodb.GetItemInput{TableName: aws.String("abc"), Key: key})
		wantErr(t, err, engine.TypeResourceNotFound, "")
		out, err := p.api.Scan(p.env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
		if err != nil || len(out.Items) != 0 {
			t.Errorf("%s: scan of tbl = %v items, %v; want none", p.name, out, err)
		}
	}
}

// TestTableNameValidatedJSONOnly covers the operations only the JSON
// protocol serves, and a TableName left out.
func TestTableNameValidatedJSONOnly(t *testing.T) {
	env := mustOpen(t)
	cases := []struct {
		name, op, body, want string
	}{
		{"TransactGetItems", "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"ab","Key":{"PK":{"S":"a"}}}}]}`,
			oneViolation(tooShort("transactItems.1.member.get.tableName", "ab"))},
		{"TransactGetItems empty", "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"","Key":{"PK":{"S":"a"}}}}]}`,
			oneViolation("Value '' at 'transactItems.1.member.get.tableName' failed to satisfy constraint: Member must have length greater than or equal to 1")},
		{"DescribeTable absent", "DescribeTable", `{}`,
			oneViolation("Value null at 'tableName' failed to satisfy constraint: Member must not be null")},
		{"UpdateTimeToLive absent", "UpdateTimeToLive", `{"TimeToLiveSpecification":{"AttributeName":"exp","Enabled":true}}`,
			oneViolation("Value null at 'tableName' failed to satisfy constraint: Member must not be null")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, env.rawCall(c.op, c.body)(), engine.TypeValidation, c.want)
		})
	}
}

// TestTableNameValidated_ListStreams: ListStreams' optional TableName, when
// given, is held to the table-name rule on both paths; a valid name of no
// table lists nothing.
func TestTableNameValidated_ListStreams(t *testing.T) {
	env := mustOpen(t)
	env.createStreamTable("tbl", types.StreamViewTypeKeysOnly)
	for path, sc := range map[string]streamsAPI{"http": streamsClient(env.e), "inprocess": env.e.StreamsAPI()} {
		t.Run(path, func(t *testing.T) {
			_, err := sc.ListStreams(env.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("ab")})
			wantErr(t, err, engine.TypeValidation, oneViolation(tooShort("tableName", "ab")))
			_, err = sc.ListStreams(env.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("t b")})
			wantErr(t, err, engine.TypeValidation, oneViolation(badChars("tableName", "t b")))
			out, err := sc.ListStreams(env.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("abc")})
			if err != nil || len(out.Streams) != 0 {
				t.Fatalf("ListStreams of no table: %v, %v; want none", out, err)
			}
			out, err = sc.ListStreams(env.ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("tbl")})
			if err != nil || len(out.Streams) != 1 {
				t.Fatalf("ListStreams of tbl: %v, %v; want its stream", out, err)
			}
		})
	}
}
