package ddb

import (
	"strings"
	"testing"
)

// TestShape_ViolationsReportedTogether: the request shape's violations
// are listed in one message, in the order found, each in the model's
// words; a table name that breaks the model is refused before the table
// is looked up.
func TestShape_ViolationsReportedTogether(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	long := strings.Repeat("a", 256)
	for _, c := range []struct {
		name, op, body, msg string
	}{
		{"absent table name", "PutItem", `{"Item":{"PK":{"S":"a"}}}`,
			"1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"empty table name", "PutItem", `{"TableName":"","Item":{"PK":{"S":"a"}}}`,
			"1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"null table name", "GetItem", `{"TableName":null,"Key":{"PK":{"S":"a"}}}`,
			"1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"table name too long, not looked up", "DeleteItem", `{"TableName":"` + long + `","Key":{"PK":{"S":"a"}}}`,
			"1 validation error detected: Value '" + long + "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255"},
		{"table name pattern, not looked up", "Query", `{"TableName":"bad!","KeyConditionExpression":"PK = :a","ExpressionAttributeValues":{":a":{"S":"a"}}}`,
			"1 validation error detected: Value 'bad!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"table name too short and pattern, length first", "UpdateItem", `{"TableName":"x!","Key":{"PK":{"S":"a"}}}`,
			"2 validation errors detected: Value 'x!' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value 'x!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"three enums together", "PutItem", `{"TableName":"tbl","Item":{"PK":{"S":"a"}},"ReturnValues":"X","ReturnConsumedCapacity":"Y","ReturnItemCollectionMetrics":"Z"}`,
			"3 validation errors detected: Value 'X' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; " +
				"Value 'Y' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; " +
				"Value 'Z' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]"},
		{"a table name and an enum", "UpdateItem", `{"TableName":"","Key":{"PK":{"S":"a"}},"ReturnValues":"X"}`,
			"2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1; " +
				"Value 'X' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"},
		{"an allowed enum value the operation does not take", "PutItem", `{"TableName":"tbl","Item":{"PK":{"S":"a"}},"ReturnValues":"ALL_NEW"}`,
			"Return values set to invalid value"},
		{"Scan limit in the model's words", "Scan", `{"TableName":"tbl","Limit":0,"Select":"SOME"}`,
			"2 validation errors detected: Value 'SOME' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]; " +
				"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"Query limit in its own words", "Query", `{"TableName":"tbl","Limit":0,"KeyConditionExpression":"PK = :a","ExpressionAttributeValues":{":a":{"S":"a"}}}`,
			"1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"BatchGetItem without RequestItems", "BatchGetItem", `{}`, "The requestItems parameter is required for BatchGetItem"},
		{"BatchWriteItem without RequestItems", "BatchWriteItem", `{"RequestItems":{}}`, "The requestItems parameter is required for BatchWriteItem"},
		{"no transaction actions", "TransactWriteItems", `{"TransactItems":[]}`,
			"1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"CreateTable without a name", "CreateTable", `{"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`,
			"The parameter 'TableName' is required but was not present in the request"},
		// An empty name breaks the length and the pattern, listed in that order, as DynamoDB
		// answers DescribeTable with an empty name.
		{"CreateTable with an empty name", "CreateTable", `{"TableName":"","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`,
			"2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value '' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"CreateTable with a two-letter name", "CreateTable", `{"TableName":"ab","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`,
			"1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"an unknown key type", "CreateTable", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"PRIMARY"}],"BillingMode":"PAY_PER_REQUEST"}`,
			"1 validation error detected: Value 'PRIMARY' at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]"},
		{"an unknown attribute type", "CreateTable", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"X"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`,
			"1 validation error detected: Value 'X' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"},
		{"three key elements", "CreateTable", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"a","KeyType":"RANGE"},{"AttributeName":"b","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"}`,
			"1 validation error detected: Value '[KeySchemaElement(attributeName=PK, keyType=HASH), KeySchemaElement(attributeName=a, keyType=RANGE), KeySchemaElement(attributeName=b, keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2"},
		{"values without a condition", "PutItem", `{"TableName":"tbl","Item":{"PK":{"S":"a"}},"ExpressionAttributeValues":{":v":{"S":"x"}}}`,
			"ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"},
		{"names without an update or condition", "UpdateItem", `{"TableName":"tbl","Key":{"PK":{"S":"a"}},"ExpressionAttributeNames":{"#n":"x"}}`,
			"ExpressionAttributeNames can only be specified when using expressions: UpdateExpression and ConditionExpression are null"},
	} {
		t.Run(c.name, func(t *testing.T) { wantErr(t, env.rawCall(c.op, c.body)(), "ValidationException", c.msg) })
	}
	t.Run("a transaction action's key error cancels it", func(t *testing.T) {
		wantErr(t, env.rawCall("TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"tbl","Key":{"PK":{"S":"a"}}}},{"Get":{"TableName":"tbl","Key":{}}}]}`)(),
			"TransactionCanceledException", "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]")
	})
}
