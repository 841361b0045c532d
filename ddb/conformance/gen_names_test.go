package conformance

import "strings"

func init() { register(namesCase()) }

// namesCase checks the names a request gives where DynamoDB Local and the
// engine can be compared: a table name no table could have (too short, too
// long, characters outside [a-zA-Z0-9_.-]) is a ValidationException before
// any lookup in every operation that names a table, never a
// ResourceNotFoundException; ExpressionAttributeNames values are 1 to 65,535
// bytes and placeholders at most 255; the names of key attributes, of
// attributes projected into an index and of the TTL attribute 1 to 255.
//
// Attribute names over 65,535 bytes in items and legacy parameters are left
// to the engine's own tests: DynamoDB Local fails on them with an
// InternalFailure (HTTP 500), and even on 65,535-byte ones.
// masked compares only the presence of the values at paths (Compare.Mask).
func masked(s Step, paths ...string) Step {
	s.Compare.Mask = append(s.Compare.Mask, paths...)
	return s
}

func namesCase() Case {
	t := "{{t}}"
	k := M{"PK": S("a"), "SK": S("s")}
	long := strings.Repeat("a", 256)
	invalid := func(op string, req M, id string) Step { return withID(failStep(op, "ValidationException", req), id) }
	name := func(n int, c string) string { return strings.Repeat(c, n) }
	keyTable := func(table, hash string, extra M) M {
		return merge(M{"TableName": table, "BillingMode": "PAY_PER_REQUEST",
			"AttributeDefinitions": attrDefs(hash, "S"), "KeySchema": keySchema(hash, "")}, extra)
	}
	return Case{
		Name:   "names",
		Doc:    "Table names no table could have, in every operation that names a table; attribute name and placeholder lengths.",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			withID(step("PutItem", M{"TableName": t, "Item": k}), "put"),
			invalid("GetItem", M{"TableName": "ab", "Key": k}, "get-short"),
			invalid("PutItem", M{"TableName": "x!", "Item": k}, "put-short-chars"),
			invalid("UpdateItem", M{"TableName": long, "Key": k}, "update-long"),
			invalid("DeleteItem", M{"TableName": "bad table!@#", "Key": k}, "delete-chars"),
			invalid("Query", M{"TableName": "ab", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("a")}}, "query-short"),
			invalid("Scan", M{"TableName": "ab"}, "scan-short"),
			invalid("BatchGetItem", M{"RequestItems": M{"ab": M{"Keys": []any{k}}}}, "batch-get-short"),
			invalid("BatchWriteItem", M{"RequestItems": M{t: []any{M{"DeleteRequest": M{"Key": k}}}, "a!b": []any{M{"PutRequest": M{"Item": k}}}}}, "batch-write-chars"),
			invalid("TransactWriteItems", M{"TransactItems": []any{M{"Delete": M{"TableName": t, "Key": k}}, M{"Put": M{"TableName": "ab", "Item": k}}}}, "transact-write-short"),
			invalid("DescribeTable", M{"TableName": "ab"}, "describe-short"),
			invalid("UpdateTable", M{"TableName": "ab", "BillingMode": "PAY_PER_REQUEST"}, "update-table-short"),
			invalid("DeleteTable", M{"TableName": ""}, "delete-table-empty"),
			invalid("DescribeTimeToLive", M{"TableName": "ab"}, "describe-ttl-short"),
			invalid("UpdateTimeToLive", M{"TableName": "ab", "TimeToLiveSpecification": M{"AttributeName": "e", "Enabled": true}}, "update-ttl-short"),
			// A name some table could have is looked up.
			withID(failStep("GetItem", "ResourceNotFoundException", M{"TableName": "abc", "Key": k}), "get-no-such-table"),
			// Nothing above wrote or deleted anything.
			withID(step("GetItem", M{"TableName": t, "Key": k}), "get-after-names"),

			withID(step("GetItem", M{"TableName": t, "Key": k, "ProjectionExpression": "#n", "ExpressionAttributeNames": M{"#n": name(65535, "n")}}), "names-value-65535"),
			invalid("UpdateItem", M{"TableName": t, "Key": k, "UpdateExpression": "SET #n = :v", "ExpressionAttributeNames": M{"#n": name(65536, "n")},
				"ExpressionAttributeValues": M{":v": N("1")}}, "names-value-65536"),
			invalid("GetItem", M{"TableName": t, "Key": k, "ProjectionExpression": "#n, #m", "ExpressionAttributeNames": M{"#n": "a", "#m": name(100_000, "m")}}, "names-value-100000"),
			withID(step("GetItem", M{"TableName": t, "Key": k, "ProjectionExpression": "#" + name(254, "k"), "ExpressionAttributeNames": M{"#" + name(254, "k"): "a"}}), "names-key-255"),
			invalid("GetItem", M{"TableName": t, "Key": k, "ProjectionExpression": "#n", "ExpressionAttributeNames": M{"#n": "a", "#" + name(255, "k"): "b"}}, "names-key-256"),
			invalid("GetItem", M{"TableName": t, "Key": k, "ProjectionExpression": "#n", "ExpressionAttributeNames": M{"#n": "a", "#-" + name(299, "k"): "b"}}, "names-key-301-bad-syntax"),
			invalid("UpdateItem", M{"TableName": t, "Key": k, "UpdateExpression": "SET a = :v", "ExpressionAttributeValues": M{":v": N("1"), ":" + name(255, "k"): N("2")}}, "values-key-256"),
			// The golden file shortens the name, so only its presence is compared there.
			withID(masked(step("CreateTable", keyTable("{{k255}}", name(255, "k"), nil)), "TableDescription.AttributeDefinitions[].AttributeName", "TableDescription.KeySchema[].AttributeName"), "create-key-255"),
			invalid("CreateTable", keyTable("{{k256}}", name(256, "k"), nil), "create-key-256"),
			invalid("CreateTable", keyTable("{{kdef}}", "PK", M{"AttributeDefinitions": attrDefs("PK", "S", name(256, "d"), "S")}), "create-definition-256"),
			invalid("CreateTable", keyTable("{{kproj}}", "PK", M{"AttributeDefinitions": attrDefs("PK", "S", "G", "S"), "GlobalSecondaryIndexes": []any{
				M{"IndexName": "byG", "KeySchema": keySchema("G", ""), "Projection": M{"ProjectionType": "INCLUDE", "NonKeyAttributes": []any{name(256, "p")}}}}}), "create-projected-256"),
			invalid("UpdateTable", M{"TableName": t, "AttributeDefinitions": attrDefs(name(256, "g"), "S"), "GlobalSecondaryIndexUpdates": []any{
				M{"Create": M{"IndexName": "byK", "KeySchema": keySchema(name(256, "g"), ""), "Projection": M{"ProjectionType": "ALL"}}}}}, "update-table-index-key-256"),
			invalid("UpdateTimeToLive", M{"TableName": t, "TimeToLiveSpecification": M{"AttributeName": name(256, "e"), "Enabled": true}}, "ttl-name-256"),
			withID(step("DescribeTimeToLive", M{"TableName": t}), "ttl-unchanged"),
		},
	}
}
