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
	env.createTable("tbl", false)
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
		{"table name pattern, not looked up", "Query", `{"TableName":"x!","KeyConditionExpression":"PK = :a","ExpressionAttributeValues":{":a":{"S":"a"}}}`,
			"1 validation error detected: Value 'x!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
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
	} {
		t.Run(c.name, func(t *testing.T) { wantErr(t, env.rawCall(c.op, c.body)(), "ValidationException", c.msg) })
	}
}
