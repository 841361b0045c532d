package conformance

import (
	"fmt"
	"strings"
)

func keySchema(hash, rng string) []any {
	ks := []any{M{"AttributeName": hash, "KeyType": "HASH"}}
	if rng != "" {
		ks = append(ks, M{"AttributeName": rng, "KeyType": "RANGE"})
	}
	return ks
}

func attrDefs(pairs ...string) []any {
	var out []any
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, M{"AttributeName": pairs[i], "AttributeType": pairs[i+1]})
	}
	return out
}

func createTable(name string, extra M) M {
	return merge(M{
		"TableName":            name,
		"AttributeDefinitions": attrDefs("PK", "S"),
		"KeySchema":            keySchema("PK", ""),
		"BillingMode":          "PAY_PER_REQUEST",
	}, extra)
}

func init() {
	register(tableLifecycleCase(), listTablesCase(), createTableValidationCase(), gsiBackfillCase(), ttlCase(), updateTableNoOpCase())
}

func tableLifecycleCase() Case {
	return Case{
		Name: "table-lifecycle",
		Doc:  "CreateTable (on-demand and provisioned), DescribeTable, duplicate names, DeleteTable and operations on deleted tables.",
		Steps: []Step{
			step("CreateTable", createTable("{{a}}", nil)),
			step("CreateTable", createTable("{{b}}", M{
				"AttributeDefinitions":  attrDefs("PK", "S", "SK", "N"),
				"KeySchema":             keySchema("PK", "SK"),
				"BillingMode":           "PROVISIONED",
				"ProvisionedThroughput": M{"ReadCapacityUnits": 5, "WriteCapacityUnits": 3},
			})),
			step("CreateTable", createTable("{{c}}", M{"BillingMode": nil, "ProvisionedThroughput": M{"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}})),
			step("DescribeTable", M{"TableName": "{{a}}"}),
			step("DescribeTable", M{"TableName": "{{b}}"}),
			step("DescribeTable", M{"TableName": "{{c}}"}),
			failStep("CreateTable", "ResourceInUseException", createTable("{{a}}", nil)),
			step("ListTables", M{}),
			step("PutItem", M{"TableName": "{{a}}", "Item": M{"PK": S("x")}}),
			withID(expecting(step("DeleteTable", M{"TableName": "{{a}}"}), M{"TableDescription": M{
				"TableName": "{{a}}", "TableStatus": "DELETING", "AttributeDefinitions": attrDefs("PK", "S"), "KeySchema": keySchema("PK", ""),
				"BillingModeSummary": M{"BillingMode": "PAY_PER_REQUEST"}, "DeletionProtectionEnabled": false,
				"ProvisionedThroughput": M{"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}}}), "delete-table"),
			failStep("DescribeTable", "ResourceNotFoundException", M{"TableName": "{{a}}"}),
			failStep("GetItem", "ResourceNotFoundException", M{"TableName": "{{a}}", "Key": M{"PK": S("x")}}),
			failStep("DeleteTable", "ResourceNotFoundException", M{"TableName": "{{a}}"}),
			step("CreateTable", createTable("{{a}}", nil)),
			withID(expecting(step("GetItem", M{"TableName": "{{a}}", "Key": M{"PK": S("x")}}), M{}), "recreated-is-empty"),
			step("ListTables", M{}),
			step("UpdateTable", M{"TableName": "{{b}}", "ProvisionedThroughput": M{"ReadCapacityUnits": 7, "WriteCapacityUnits": 3}}),
			step("UpdateTable", M{"TableName": "{{c}}", "BillingMode": "PAY_PER_REQUEST"}),
			step("DescribeTable", M{"TableName": "{{c}}"}),
			step("CreateTable", createTable("{{d}}", M{"DeletionProtectionEnabled": true})),
			failStep("DeleteTable", "ValidationException", M{"TableName": "{{d}}"}),
			step("UpdateTable", M{"TableName": "{{d}}", "DeletionProtectionEnabled": false}),
			withID(expecting(step("DeleteTable", M{"TableName": "{{d}}"}), M{"TableDescription": M{
				"TableName": "{{d}}", "TableStatus": "DELETING", "AttributeDefinitions": attrDefs("PK", "S"), "KeySchema": keySchema("PK", ""),
				"BillingModeSummary": M{"BillingMode": "PAY_PER_REQUEST"}, "DeletionProtectionEnabled": false,
				"ProvisionedThroughput": M{"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}}}), "delete-unprotected"),
			failStep("DescribeTable", "ResourceNotFoundException", M{"TableName": "{{d}}"}),
		},
	}
}

func listTablesCase() Case {
	var steps []Step
	for i := 0; i < 7; i++ {
		steps = append(steps, step("CreateTable", createTable(fmt.Sprintf("{{t%d}}", i), nil)))
	}
	steps = append(steps,
		withID(step("ListTables", M{}), "all"),
		withID(step("ListTables", M{"Limit": 3}), "page-0"),
		withID(step("ListTables", M{"Limit": 3, "ExclusiveStartTableName": "$prev.LastEvaluatedTableName"}), "page-1"),
		withID(step("ListTables", M{"Limit": 3, "ExclusiveStartTableName": "$prev.LastEvaluatedTableName"}), "page-2"),
		withID(step("ListTables", M{"Limit": 7}), "limit-exact"),
		withID(step("ListTables", M{"ExclusiveStartTableName": "{{t3}}"}), "start-name"),
		withID(step("ListTables", M{"ExclusiveStartTableName": "{{t3x}}"}), "start-name-absent"),
		withID(failStep("ListTables", "ValidationException", M{"Limit": 0}), "limit-zero"),
		withID(failStep("ListTables", "ValidationException", M{"Limit": 101}), "limit-101"),
		withID(step("ListTables", M{"Limit": 100}), "limit-100"),
	)
	return Case{Name: "list-tables", Doc: "ListTables order (by name), paging with Limit and ExclusiveStartTableName, limits.", Steps: steps}
}

func createTableValidationCase() Case {
	bad := []struct {
		id, err string
		req     M
	}{
		{"name-short", "ValidationException", createTable("ab", nil)},
		{"name-chars", "ValidationException", createTable("bad name!", nil)},
		{"name-long", "ValidationException", createTable(strings.Repeat("x", 256), nil)},
		{"no-key-schema", "ValidationException", createTable("{{x}}", M{"KeySchema": []any{}})},
		{"two-hash", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "Q", "S"), "KeySchema": []any{M{"AttributeName": "PK", "KeyType": "HASH"}, M{"AttributeName": "Q", "KeyType": "HASH"}}})},
		{"range-first", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "Q", "S"), "KeySchema": []any{M{"AttributeName": "Q", "KeyType": "RANGE"}, M{"AttributeName": "PK", "KeyType": "HASH"}}})},
		{"undefined-key-attr", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("Other", "S")})},
		{"unused-definition", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "Extra", "S")})},
		{"bool-key", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "BOOL")})},
		{"provisioned-no-throughput", "ValidationException", createTable("{{x}}", M{"BillingMode": "PROVISIONED"})},
		{"on-demand-with-throughput", "ValidationException", createTable("{{x}}", M{"ProvisionedThroughput": M{"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}})},
		{"zero-throughput", "ValidationException", createTable("{{x}}", M{"BillingMode": "PROVISIONED", "ProvisionedThroughput": M{"ReadCapacityUnits": 0, "WriteCapacityUnits": 1}})},
		{"lsi-without-range", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "L", "S"), "LocalSecondaryIndexes": []any{M{"IndexName": "lsi", "KeySchema": keySchema("PK", "L"), "Projection": M{"ProjectionType": "ALL"}}}})},
		{"lsi-other-hash", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "SK", "S", "L", "S"), "KeySchema": keySchema("PK", "SK"), "LocalSecondaryIndexes": []any{M{"IndexName": "lsi", "KeySchema": keySchema("L", "SK"), "Projection": M{"ProjectionType": "ALL"}}}})},
		{"gsi-duplicate-name", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "G", "S"), "GlobalSecondaryIndexes": []any{
			M{"IndexName": "g", "KeySchema": keySchema("G", ""), "Projection": M{"ProjectionType": "ALL"}},
			M{"IndexName": "g", "KeySchema": keySchema("G", ""), "Projection": M{"ProjectionType": "KEYS_ONLY"}}}})},
		{"gsi-include-without-attrs", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "G", "S"), "GlobalSecondaryIndexes": []any{
			M{"IndexName": "g", "KeySchema": keySchema("G", ""), "Projection": M{"ProjectionType": "INCLUDE"}}}})},
		{"gsi-keys-only-with-attrs", "ValidationException", createTable("{{x}}", M{"AttributeDefinitions": attrDefs("PK", "S", "G", "S"), "GlobalSecondaryIndexes": []any{
			M{"IndexName": "g", "KeySchema": keySchema("G", ""), "Projection": M{"ProjectionType": "KEYS_ONLY", "NonKeyAttributes": []any{"a"}}}}})},
		{"bad-billing-mode", "ValidationException", createTable("{{x}}", M{"BillingMode": "FREE"})},
	}
	var steps []Step
	for _, b := range bad {
		steps = append(steps, withID(expecting(failStep("CreateTable", b.err, b.req), M{"__type": b.err}), b.id))
	}
	steps = append(steps,
		withID(step("CreateTable", createTable("{{ok}}", M{"AttributeDefinitions": attrDefs("PK", "S", "SK", "S", "L", "N", "G", "B"), "KeySchema": keySchema("PK", "SK"),
			"LocalSecondaryIndexes":  []any{M{"IndexName": "lsi", "KeySchema": keySchema("PK", "L"), "Projection": M{"ProjectionType": "INCLUDE", "NonKeyAttributes": []any{"x", "y"}}}},
			"GlobalSecondaryIndexes": []any{M{"IndexName": "gsi", "KeySchema": keySchema("G", "SK"), "Projection": M{"ProjectionType": "KEYS_ONLY"}}}})), "with-indexes"),
		withID(step("DescribeTable", M{"TableName": "{{ok}}"}), "with-indexes-described"),
		withID(failStep("PutItem", "ValidationException", M{"TableName": "{{ok}}", "Item": M{"PK": S("a"), "SK": S("b"), "L": S("not a number")}}), "index-key-wrong-type"),
		withID(failStep("PutItem", "ValidationException", M{"TableName": "{{ok}}", "Item": M{"PK": S("a"), "SK": S("b"), "G": M{"B": ""}}}), "index-key-empty"),
		withID(step("PutItem", M{"TableName": "{{ok}}", "Item": M{"PK": S("a"), "SK": S("b"), "x": S("1")}}), "sparse-index-item"),
		withID(step("Query", M{"TableName": "{{ok}}", "IndexName": "lsi", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("a")}}), "sparse-lsi-empty"),
	)
	return Case{Name: "create-table-validation", Doc: "CreateTable parameter validation: names, key schemas, attribute definitions, billing, index definitions and index key types on write.", Steps: steps}
}

func gsiBackfillCase() Case {
	steps := []Step{step("CreateTable", createTable("{{t}}", M{"AttributeDefinitions": attrDefs("PK", "S", "SK", "S"), "KeySchema": keySchema("PK", "SK")}))}
	for i := 0; i < 6; i++ {
		item := M{"PK": S(fmt.Sprintf("p%d", i%2)), "SK": S(fmt.Sprintf("s%d", i))}
		if i != 3 {
			item["G"] = S(fmt.Sprintf("g%d", i%3))
		}
		steps = append(steps, step("PutItem", M{"TableName": "{{t}}", "Item": item}))
	}
	gsiQuery := func(g string) M {
		return M{"TableName": "{{t}}", "IndexName": "byG", "KeyConditionExpression": "G = :g", "ExpressionAttributeValues": M{":g": S(g)}}
	}
	steps = append(steps,
		// TableStatus: DynamoDB Local answers ACTIVE while the index is
		// CREATING (or DELETING), DynamoDB UPDATING (see
		// docs/dynamodb-local-divergences.md; ddb/updatetable_test.go checks it).
		withID(ignoring(step("UpdateTable", M{"TableName": "{{t}}", "AttributeDefinitions": attrDefs("G", "S", "SK", "S"),
			"GlobalSecondaryIndexUpdates": []any{M{"Create": M{"IndexName": "byG", "KeySchema": keySchema("G", "SK"), "Projection": M{"ProjectionType": "ALL"}}}}}), "TableDescription.TableStatus"), "create-gsi"),
		withID(Step{Op: "DescribeTable", Request: raw(M{"TableName": "{{t}}"}), Wait: true}, "wait-active"),
		withID(step("Query", gsiQuery("g0")), "query-g0"),
		withID(step("Query", gsiQuery("g1")), "query-g1"),
		withID(step("Scan", M{"TableName": "{{t}}", "IndexName": "byG"}), "scan-sparse"),
		step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("p9"), "SK": S("s9"), "G": S("g0")}}),
		step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("p0"), "SK": S("s0")}, "UpdateExpression": "REMOVE G"}),
		withID(step("Query", gsiQuery("g0")), "query-g0-after-writes"),
		withID(failStep("UpdateTable", "ValidationException", M{"TableName": "{{t}}", "AttributeDefinitions": attrDefs("G", "S", "SK", "S"),
			"GlobalSecondaryIndexUpdates": []any{M{"Create": M{"IndexName": "byG", "KeySchema": keySchema("G", "SK"), "Projection": M{"ProjectionType": "ALL"}}}}}), "create-duplicate"),
		withID(failStep("UpdateTable", "ResourceNotFoundException", M{"TableName": "{{t}}", "GlobalSecondaryIndexUpdates": []any{M{"Delete": M{"IndexName": "nope"}}}}), "delete-missing"),
		withID(ignoring(step("UpdateTable", M{"TableName": "{{t}}", "GlobalSecondaryIndexUpdates": []any{M{"Delete": M{"IndexName": "byG"}}}}), "TableDescription.TableStatus"), "delete-gsi"),
		withID(Step{Op: "DescribeTable", Request: raw(M{"TableName": "{{t}}"}), Wait: true}, "wait-deleted"),
		withID(failStep("Query", "ValidationException", gsiQuery("g0")), "query-deleted-index"),
	)
	return Case{Name: "gsi-create-backfill", Doc: "UpdateTable creates a GSI that is backfilled from existing items (sparse: items without the key are left out), then kept up to date, then deleted.", Steps: steps}
}

func ttlCase() Case {
	return Case{
		Name:   "ttl",
		Doc:    "UpdateTimeToLive/DescribeTimeToLive. Expired items may be returned until the background sweep deletes them in DynamoDB, so reads of expired items are not compared.",
		Tables: map[string]string{"t": "pk"},
		Steps: []Step{
			withID(step("DescribeTimeToLive", M{"TableName": "{{t}}"}), "disabled"),
			withID(step("UpdateTimeToLive", M{"TableName": "{{t}}", "TimeToLiveSpecification": M{"AttributeName": "expires", "Enabled": true}}), "enable"),
			withID(step("DescribeTimeToLive", M{"TableName": "{{t}}"}), "enabled"),
			withID(failStep("UpdateTimeToLive", "ValidationException", M{"TableName": "{{t}}", "TimeToLiveSpecification": M{"AttributeName": "expires", "Enabled": true}}), "enable-again"),
			withID(failStep("UpdateTimeToLive", "ValidationException", M{"TableName": "{{t}}", "TimeToLiveSpecification": M{"AttributeName": "other", "Enabled": false}}), "disable-wrong-attr"),
			withID(step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("future"), "expires": N("99999999999")}}), "put-future"),
			withID(step("GetItem", M{"TableName": "{{t}}", "Key": M{"PK": S("future")}}), "get-future"),
			withID(step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("not-a-number"), "expires": S("soon")}}), "put-string-expiry"),
			withID(step("GetItem", M{"TableName": "{{t}}", "Key": M{"PK": S("not-a-number")}}), "get-string-expiry"),
			withID(failStep("DescribeTimeToLive", "ResourceNotFoundException", M{"TableName": "{{nope}}"}), "missing-table"),
		},
	}
}

// updateTableNoOpCase checks which UpdateTable requests that change
// nothing are refused: none at all, and provisioned throughput set to what
// it is; switching an on-demand table to on-demand is accepted.
func updateTableNoOpCase() Case {
	provisioned := M{"ProvisionedThroughput": M{"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}
	return Case{
		Name: "update-table-no-op",
		Doc:  "UpdateTable requests that change nothing",
		Steps: []Step{
			step("CreateTable", createTable("{{p}}", merge(M{"BillingMode": "PROVISIONED"}, provisioned))),
			step("CreateTable", createTable("{{o}}", nil)),
			withID(failStep("UpdateTable", "ValidationException", M{"TableName": "{{p}}"}), "nothing"),
			withID(failStep("UpdateTable", "ValidationException", merge(M{"TableName": "{{p}}", "BillingMode": "PROVISIONED"}, provisioned)), "same-throughput"),
			withID(failStep("UpdateTable", "ValidationException", merge(M{"TableName": "{{p}}"}, provisioned)), "same-throughput-no-mode"),
			withID(step("UpdateTable", M{"TableName": "{{p}}", "ProvisionedThroughput": M{"ReadCapacityUnits": 6, "WriteCapacityUnits": 5}}), "one-changed"),
			withID(step("UpdateTable", M{"TableName": "{{o}}", "BillingMode": "PAY_PER_REQUEST"}), "on-demand-again"),
		},
	}
}
