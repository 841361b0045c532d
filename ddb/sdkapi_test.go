package ddb

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/sdkapi"
)

// sdkAPI is what both Engine.Client and Engine.API serve (dynamo.API, which
// this package cannot import, and DeleteItem).
type sdkAPI interface {
	GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
	TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error)
	CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	UpdateTable(context.Context, *dynamodb.UpdateTableInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
	DeleteTable(context.Context, *dynamodb.DeleteTableInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error)
	UpdateTimeToLive(context.Context, *dynamodb.UpdateTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
	DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
	ListTables(context.Context, *dynamodb.ListTablesInput, ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error)
	TagResource(context.Context, *dynamodb.TagResourceInput, ...func(*dynamodb.Options)) (*dynamodb.TagResourceOutput, error)
	UntagResource(context.Context, *dynamodb.UntagResourceInput, ...func(*dynamodb.Options)) (*dynamodb.UntagResourceOutput, error)
	ListTagsOfResource(context.Context, *dynamodb.ListTagsOfResourceInput, ...func(*dynamodb.Options)) (*dynamodb.ListTagsOfResourceOutput, error)
	ExecuteStatement(context.Context, *dynamodb.ExecuteStatementInput, ...func(*dynamodb.Options)) (*dynamodb.ExecuteStatementOutput, error)
	BatchExecuteStatement(context.Context, *dynamodb.BatchExecuteStatementInput, ...func(*dynamodb.Options)) (*dynamodb.BatchExecuteStatementOutput, error)
	ExecuteTransaction(context.Context, *dynamodb.ExecuteTransactionInput, ...func(*dynamodb.Options)) (*dynamodb.ExecuteTransactionOutput, error)
}

var (
	_ sdkAPI = (*dynamodb.Client)(nil)
	_ sdkAPI = (*sdkapi.API)(nil)
)

// TestSDKAPIMatchesClient runs the same calls through the SDK client (over
// HTTP, in memory) on one engine and through the in-process API on another,
// and checks that outputs and errors are the same. ddb/conformance compares
// the two paths on every conformance step; this is the quick check beside
// the code.
func TestSDKAPIMatchesClient(t *testing.T) {
	const tableARN = "arn:aws:dynamodb:local:000000000000:table/tbl" // the default Region and AccountID
	key := func(pk, sk string) map[string]types.AttributeValue { return item("PK", s(pk), "SK", s(sk)) }
	calls := []struct {
		name string
		call func(ctx context.Context, c sdkAPI) (any, error)
	}{
		{"create table", func(ctx context.Context, c sdkAPI) (any, error) {
			str := types.ScalarAttributeTypeS
			return c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"),
				KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: str}, {AttributeName: aws.String("SK"), AttributeType: str},
					{AttributeName: aws.String("G"), AttributeType: str}, {AttributeName: aws.String("L"), AttributeType: types.ScalarAttributeTypeN}},
				BillingMode:            types.BillingModePayPerRequest,
				GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("byG", "G", "")},
				LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byL"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("L"), KeyType: types.KeyTypeRange}},
					Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"n"}}}},
				StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
				Tags:                []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
		}},
		{"create table exists", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}}, BillingMode: types.BillingModePayPerRequest})
		}},
		{"create table provisioned", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("prov"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions:  []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
				ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(3)}})
		}},
		{"create table bad type", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("bad"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: "X"}}, BillingMode: types.BillingModePayPerRequest})
		}},
		{"update table", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("prov"), AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("X"), AttributeType: types.ScalarAttributeTypeS}},
				GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String("byX"),
					KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("X"), KeyType: types.KeyTypeHash}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
					ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}}}}})
		}},
		{"update table nothing", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("prov")})
		}},
		{"update table delete index", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("prov"),
				GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byX")}}}})
		}},
		{"update table billing", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("prov"), BillingMode: types.BillingModePayPerRequest, DeletionProtectionEnabled: aws.Bool(false)})
		}},
		{"ttl", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"), TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
		}},
		{"ttl again", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"), TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
		}},
		{"describe ttl", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("tbl")})
		}},
		{"list tables", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ListTables(ctx, &dynamodb.ListTablesInput{})
		}},
		{"list tables page", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)})
		}},
		{"list tables after", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ListTables(ctx, &dynamodb.ListTablesInput{ExclusiveStartTableName: aws.String("tbl")})
		}},
		{"list tables bad limit", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(101)})
		}},
		{"tag", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(tableARN), Tags: []types.Tag{{Key: aws.String("a"), Value: aws.String("b")}}})
		}},
		{"tag bad key", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(tableARN), Tags: []types.Tag{{Key: aws.String("aws:x"), Value: aws.String("b")}}})
		}},
		{"tag no table", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(tableARN + "x"), Tags: []types.Tag{}})
		}},
		{"list tags", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(tableARN)})
		}},
		{"untag", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(tableARN), TagKeys: []string{"a", "k", "none"}})
		}},
		{"list tags none", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(tableARN)})
		}},
		{"list tags bad ARN", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String("arn:x")})
		}},
		{"describe ttl off", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("prov")})
		}},
		{"put", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("1"), "n", n("1.50"), "G", s("g")),
				ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		}},
		{"put ALL_OLD", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("1"), "n", n("2"),
				"l", &types.AttributeValueMemberL{Value: []types.AttributeValue{s("x"), &types.AttributeValueMemberNS{Value: []string{"1", "2.0"}}}},
				"m", &types.AttributeValueMemberM{Value: item("b", &types.AttributeValueMemberB{Value: []byte{1, 2}}, "t", &types.AttributeValueMemberBOOL{Value: true}, "z", &types.AttributeValueMemberNULL{Value: true})}),
				ReturnValues: types.ReturnValueAllOld})
		}},
		{"put condition failed with item", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key("a", "1"),
				ConditionExpression: aws.String("attribute_not_exists(PK)"), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
		}},
		{"put condition failed", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key("a", "1"), ConditionExpression: aws.String("attribute_not_exists(PK)")})
		}},
		{"put bad number", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("2"), "n", n("1e999"))})
		}},
		{"put empty set", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("2"), "ss", &types.AttributeValueMemberSS{})})
		}},
		{"put NULL false", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", s("a"), "SK", s("2"), "z", &types.AttributeValueMemberNULL{})})
		}},
		{"put missing table", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nope"), Item: key("a", "1")})
		}},
		{"put bad enums", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key("a", "1"), ReturnValues: "NOPE", ReturnConsumedCapacity: "X"})
		}},
		{"get", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a", "1"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		}},
		{"get projected", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a", "1"), ProjectionExpression: aws.String("#m.b, l[1]"),
				ExpressionAttributeNames: map[string]string{"#m": "m"}, ConsistentRead: aws.Bool(true)})
		}},
		{"get legacy", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a", "1"), AttributesToGet: []string{"n"}})
		}},
		{"get absent", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a", "9")})
		}},
		{"get bad key", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s("a"))})
		}},
		{"get no key", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl")})
		}},
		{"get after a request without key", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key("a", "1"), ConsistentRead: aws.Bool(true)})
		}},
		{"get empty table name", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(""), Key: key("a", "1")})
		}},
		{"update", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key("a", "1"), UpdateExpression: aws.String("ADD n :one SET G = :g"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": n("1"), ":g": s("h")}, ReturnValues: types.ReturnValueUpdatedNew})
		}},
		{"update legacy", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key("a", "2"),
				AttributeUpdates: map[string]types.AttributeValueUpdate{"x": {Action: types.AttributeActionPut, Value: s("y")}, "G": {Action: types.AttributeActionPut, Value: s("g")}},
				Expected:         map[string]types.ExpectedAttributeValue{"x": {Exists: aws.Bool(false)}}, ReturnValues: types.ReturnValueAllNew})
		}},
		{"update unused value", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key("a", "1"), UpdateExpression: aws.String("SET x = :x"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("1"), ":y": s("2")}})
		}},
		{"update bad placeholder", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key("a", "1"), UpdateExpression: aws.String("SET x = :x"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":x": s("1"), "y": s("2")}})
		}},
		{"query", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), KeyConditionExpression: aws.String("PK = :p"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("a")}, Limit: aws.Int32(1), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		}},
		{"query index filtered", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byG"), KeyConditionExpression: aws.String("G = :g"),
				FilterExpression: aws.String("attribute_exists(x)"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("g")},
				ScanIndexForward: aws.Bool(false), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		}},
		{"query legacy count", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), Select: types.SelectCount,
				KeyConditions: map[string]types.Condition{"PK": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{s("a")}}}})
		}},
		{"query no key condition", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl")})
		}},
		{"scan segment", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(0), TotalSegments: aws.Int32(1), ConsistentRead: aws.Bool(true)})
		}},
		{"scan bad limit", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Limit: aws.Int32(0)})
		}},
		{"batch write", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": {
				{PutRequest: &types.PutRequest{Item: key("b", "1")}}, {DeleteRequest: &types.DeleteRequest{Key: key("a", "2")}}}},
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		}},
		{"batch write duplicate", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": {
				{PutRequest: &types.PutRequest{Item: key("b", "1")}}, {DeleteRequest: &types.DeleteRequest{Key: key("b", "1")}}}}})
		}},
		{"batch get", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {
				Keys: []map[string]types.AttributeValue{key("a", "1"), key("b", "1"), key("c", "1")}, ProjectionExpression: aws.String("PK, n")}},
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		}},
		{"batch get no keys", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {}}})
		}},
		{"transact", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("tok"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
				TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("tbl"), Item: key("t", "1")}},
					{Update: &types.Update{TableName: aws.String("tbl"), Key: key("a", "1"), UpdateExpression: aws.String("REMOVE G")}},
					{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tbl"), Key: key("b", "1"), ConditionExpression: aws.String("attribute_exists(PK)")}},
					{Delete: &types.Delete{TableName: aws.String("tbl"), Key: key("c", "1")}},
				}})
		}},
		{"transact indexes", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("tok-ix"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
				TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("tbl"), Item: item("PK", s("ix"), "SK", s("1"), "G", s("g"))}},
					{Update: &types.Update{TableName: aws.String("tbl"), Key: key("a", "1"), UpdateExpression: aws.String("SET G = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("h")}}},
				}})
		}},
		{"transact indexes replayed", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("tok-ix"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
				TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("tbl"), Item: item("PK", s("ix"), "SK", s("1"), "G", s("g"))}},
					{Update: &types.Update{TableName: aws.String("tbl"), Key: key("a", "1"), UpdateExpression: aws.String("SET G = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("h")}}},
				}})
		}},
		{"transact replayed", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("tok"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
				TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("tbl"), Item: key("t", "1")}},
					{Update: &types.Update{TableName: aws.String("tbl"), Key: key("a", "1"), UpdateExpression: aws.String("REMOVE G")}},
					{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tbl"), Key: key("b", "1"), ConditionExpression: aws.String("attribute_exists(PK)")}},
					{Delete: &types.Delete{TableName: aws.String("tbl"), Key: key("c", "1")}},
				}})
		}},
		{"transact get", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
				TransactItems: []types.TransactGetItem{
					{Get: &types.Get{TableName: aws.String("tbl"), Key: key("t", "1")}},
					{Get: &types.Get{TableName: aws.String("tbl"), Key: key("missing", "1")}},
					{Get: &types.Get{TableName: aws.String("tbl"), Key: key("b", "1"), ProjectionExpression: aws.String("#p, n"), ExpressionAttributeNames: map[string]string{"#p": "PK"}}},
				}})
		}},
		{"transact get refused", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: aws.String("tbl"), Key: key("t", "1")}},
				{Get: &types.Get{TableName: aws.String("tbl"), Key: key("t", "1")}},
			}})
		}},
		{"transact get without a get", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{{}}})
		}},
		{"transact token reused", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("tok"),
				TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String("tbl"), Item: key("t", "2")}}}})
		}},
		{"transact cancelled", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("tbl"), Item: key("t", "3")}},
				{ConditionCheck: &types.ConditionCheck{TableName: aws.String("tbl"), Key: key("a", "1"), ConditionExpression: aws.String("attribute_not_exists(PK)"),
					ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
				{Update: &types.Update{TableName: aws.String("tbl"), Key: key("a", "3"), UpdateExpression: aws.String("SET G = :e"),
					ExpressionAttributeValues: map[string]types.AttributeValue{":e": s("")}}},
			}})
		}},
		{"delete ALL_OLD", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: key("t", "1"), ReturnValues: types.ReturnValueAllOld})
		}},
		{"scan all", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		}},
		{"statement insert", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "tbl" VALUE {'PK': 'q', 'SK': ?, 'n': 2, 'G': 'g'}`),
				Parameters: []types.AttributeValue{s("1")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		}},
		{"statement insert exists", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "tbl" VALUE {'PK': 'q', 'SK': '1'}`)})
		}},
		{"statement insert too deep", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "tbl" VALUE {'PK': 'q', 'SK': '9', 'l': ?}`),
				Parameters: []types.AttributeValue{nestedList(attrMaxDepth)}})
		}},
		{"statement parameter invalid", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "tbl" WHERE PK = ? AND SK = ?`),
				Parameters: []types.AttributeValue{s("q"), &types.AttributeValueMemberNS{Value: []string{}}}})
		}},
		{"statement page", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT PK, n FROM "tbl" WHERE PK = 'q'`), Limit: aws.Int32(1),
				ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		}},
		{"statement update", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "tbl" SET n = n + 1 WHERE PK = 'q' AND SK = '1'`)})
		}},
		{"statement batch", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(`SELECT * FROM "tbl" WHERE PK = 'q' AND SK = '1'`), ConsistentRead: aws.Bool(true)},
				{Statement: aws.String(`SELECT * FROM "tbl" WHERE PK = 'none' AND SK = '1'`)},
				{Statement: aws.String(`SELECT * FROM "tbl" WHERE PK = 'q'`)},
				{Statement: aws.String(`SELECT * FROM "nope" WHERE PK = 'q' AND SK = '1'`)},
			}})
		}},
		{"statement transaction reads", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(`SELECT n FROM "tbl" WHERE PK = 'q' AND SK = '1'`)},
				{Statement: aws.String(`SELECT * FROM "tbl" WHERE PK = 'none' AND SK = '1'`)},
			}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		}},
		{"statement transaction writes", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(`UPDATE "tbl" SET m = ? WHERE PK = 'q' AND SK = '1'`), Parameters: []types.AttributeValue{s("x")}},
				{Statement: aws.String(`DELETE FROM "tbl" WHERE PK = 'q' AND SK = '2'`)},
			}, ClientRequestToken: aws.String("token-1"), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		}},
		{"statement transaction insert exists", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(`INSERT INTO "tbl" VALUE {'PK': 'q', 'SK': '1'}`)},
			}})
		}},
		{"describe table", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
		}},
		{"describe table missing", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("nope")})
		}},
		{"delete table", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("prov")})
		}},
		{"scan filtered", func(ctx context.Context, c sdkAPI) (any, error) {
			return c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), FilterExpression: aws.String("attribute_exists(n)")})
		}},
	}
	viaClient, inProcess := mustOpen(t), mustOpen(t)
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			want, wantErr := c.call(viaClient.ctx, viaClient.client)
			got, gotErr := c.call(inProcess.ctx, inProcess.e.API())
			var invalid smithy.InvalidParamsError
			if errors.As(wantErr, &invalid) {
				// The SDK refuses the input before sending it; the in-process API, which
				// runs none of the SDK's client-side checks, has the engine answer it.
				if code, _ := apiError(gotErr); code != engine.TypeValidation {
					t.Fatalf("error = %v, want a ValidationException from the engine", gotErr)
				}
				return
			}
			if msg := sameError(gotErr, wantErr); msg != "" {
				t.Fatal(msg)
			}
			if wantErr == nil && !reflect.DeepEqual(withoutMetadata(got), withoutMetadata(want)) {
				t.Errorf("output differs:\n got %s\nwant %s", show(got), show(want))
			}
		})
	}
}

// sameError returns what differs between an error of the in-process API and
// the SDK client's, "" when nothing does that a caller can see: the
// operation, the HTTP status, the exception's type and every field of it.
func sameError(got, want error) string {
	if (got == nil) != (want == nil) {
		return fmt.Sprintf("error = %v, want %v", got, want)
	}
	if got == nil {
		return ""
	}
	var gop, wop *smithy.OperationError
	if !errors.As(got, &gop) || !errors.As(want, &wop) || gop.OperationName != wop.OperationName || gop.ServiceID != wop.ServiceID {
		return fmt.Sprintf("operation error = %v, want %v", got, want)
	}
	var gre, wre *awshttp.ResponseError
	if !errors.As(got, &gre) || !errors.As(want, &wre) || gre.HTTPStatusCode() != wre.HTTPStatusCode() {
		return fmt.Sprintf("response error = %v, want %v", got, want)
	}
	gAPI, wAPI := errors.Unwrap(gre.ResponseError), errors.Unwrap(wre.ResponseError)
	if reflect.TypeOf(gAPI) != reflect.TypeOf(wAPI) || !reflect.DeepEqual(gAPI, wAPI) {
		return fmt.Sprintf("exception = %T %s, want %T %s", gAPI, show(gAPI), wAPI, show(wAPI))
	}
	return ""
}

// withoutMetadata is an output with its ResultMetadata cleared (the SDK
// fills it in from the HTTP exchange), and the TableId of a table
// description too (each engine makes up its own).
func withoutMetadata(out any) any {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return out
	}
	c := reflect.New(v.Elem().Type())
	c.Elem().Set(v.Elem())
	if f := c.Elem().FieldByName("ResultMetadata"); f.IsValid() {
		f.Set(reflect.ValueOf(middleware.Metadata{}))
	}
	for _, name := range []string{"Table", "TableDescription"} {
		if f := c.Elem().FieldByName(name); f.IsValid() && !f.IsNil() {
			d := *f.Interface().(*types.TableDescription)
			d.TableId = nil
			f.Set(reflect.ValueOf(&d))
		}
	}
	return c.Interface()
}

// show renders a value with its pointers followed, for failure messages.
func show(v any) string { return deepString(reflect.ValueOf(v)) }

func deepString(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Invalid:
		return "nil"
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return "&" + deepString(v.Elem())
	case reflect.Struct:
		out := v.Type().Name() + "{"
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && !v.Field(i).IsZero() {
				out += v.Type().Field(i).Name + ":" + deepString(v.Field(i)) + " "
			}
		}
		return out + "}"
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return fmt.Sprintf("%q", v.Bytes())
		}
		out := "["
		for i := range v.Len() {
			out += deepString(v.Index(i)) + " "
		}
		return out + "]"
	case reflect.Map:
		out := "map["
		iter := v.MapRange()
		for iter.Next() {
			out += fmt.Sprint(iter.Key()) + ":" + deepString(iter.Value()) + " "
		}
		return out + "]"
	}
	return fmt.Sprintf("%v", v)
}
