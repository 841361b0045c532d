package conformance

import "strings"

func init() { register(capacityCase()) }

// capacityCase checks ConsumedCapacity against the documented unit rules:
// writes cost one unit per started KB (two in transactions), reads half a
// unit per started 4 KB when eventually consistent, one when strongly
// consistent, two in transactions; index writes are charged per index.
func capacityCase() Case {
	t, g := "{{t}}", "{{g}}"
	k := func(pk string) M { return M{"PK": S(pk), "SK": S("s")} }
	kb := func(n float64) string { return strings.Repeat("x", int(n*1024)) }
	total := M{"ReturnConsumedCapacity": "TOTAL"}
	indexes := M{"ReturnConsumedCapacity": "INDEXES"}
	cc := func(units float64) M { return M{"ConsumedCapacity": M{"TableName": t, "CapacityUnits": units}} }
	return Case{
		Name:   "consumed-capacity",
		Doc:    "ReturnConsumedCapacity TOTAL and INDEXES for every operation, with item sizes around the 1 KB and 4 KB boundaries.",
		Tables: map[string]string{"t": "pksk", "g": "quickphotos"},
		Steps: []Step{
			withID(expecting(step("PutItem", merge(M{"TableName": t, "Item": k("small")}, total)), cc(1)), "put-small"),
			withID(expecting(step("PutItem", merge(M{"TableName": t, "Item": merge(k("1.5kb"), M{"d": S(kb(1.5))})}, total)), cc(2)), "put-1.5kb"),
			withID(expecting(step("PutItem", merge(M{"TableName": t, "Item": merge(k("5kb"), M{"d": S(kb(5))})}, total)), cc(6)), "put-5kb"),
			withID(expecting(step("GetItem", merge(M{"TableName": t, "Key": k("small"), "ProjectionExpression": "PK"}, total)), merge(cc(0.5), M{"Item": M{"PK": S("small")}})), "get-eventual"),
			withID(expecting(step("GetItem", merge(M{"TableName": t, "Key": k("small"), "ConsistentRead": true, "ProjectionExpression": "PK"}, total)), merge(cc(1), M{"Item": M{"PK": S("small")}})), "get-strong"),
			withID(expecting(step("GetItem", merge(M{"TableName": t, "Key": k("5kb"), "ProjectionExpression": "PK"}, total)), merge(cc(1), M{"Item": M{"PK": S("5kb")}})), "get-5kb-eventual"),
			withID(expecting(step("GetItem", merge(M{"TableName": t, "Key": k("missing")}, total)), cc(0.5)), "get-missing"),
			withID(step("Query", merge(M{"TableName": t, "KeyConditionExpression": "PK = :p", "ExpressionAttributeValues": M{":p": S("small")}}, total)), "query"),
			withID(step("Scan", merge(M{"TableName": t, "Select": "COUNT"}, total)), "scan"),
			withID(step("UpdateItem", merge(M{"TableName": t, "Key": k("small"), "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("1")}}, total)), "update"),
			withID(step("DeleteItem", merge(M{"TableName": t, "Key": k("1.5kb")}, total)), "delete-1.5kb"),
			withID(expecting(step("TransactWriteItems", merge(M{"TransactItems": []any{M{"Put": M{"TableName": t, "Item": k("tx1")}}, M{"Put": M{"TableName": t, "Item": k("tx2")}}}}, total)),
				M{"ConsumedCapacity": []any{M{"TableName": t, "CapacityUnits": 4}}}), "transact-write-two"),
			withID(expecting(step("TransactGetItems", merge(M{"TransactItems": []any{M{"Get": M{"TableName": t, "Key": k("tx1")}}, M{"Get": M{"TableName": t, "Key": k("tx2")}}}}, total)),
				M{"ConsumedCapacity": []any{M{"TableName": t, "CapacityUnits": 4}}, "Responses": []any{M{"Item": k("tx1")}, M{"Item": k("tx2")}}}), "transact-get-two"),
			withID(expecting(step("BatchGetItem", merge(M{"RequestItems": M{t: M{"Keys": []any{k("nope")}}}}, total)),
				M{"ConsumedCapacity": []any{M{"TableName": t, "CapacityUnits": 0.5}}, "Responses": M{t: []any{}}, "UnprocessedKeys": M{}}), "batch-get-missing"),
			withID(expecting(step("BatchWriteItem", merge(M{"RequestItems": M{t: []any{M{"DeleteRequest": M{"Key": k("nope")}}}}}, total)),
				M{"ConsumedCapacity": []any{M{"TableName": t, "CapacityUnits": 1}}, "UnprocessedItems": M{}}), "batch-delete-missing"),
			withID(step("BatchWriteItem", merge(M{"RequestItems": M{t: []any{M{"PutRequest": M{"Item": k("b1")}}, M{"PutRequest": M{"Item": k("b2")}}}}}, total)), "batch-write-two"),
			withID(step("PutItem", merge(M{"TableName": g, "Item": M{"PK": S("USER#a"), "SK": S("#METADATA#a")}}, indexes)), "put-with-gsi-indexes"),
			withID(step("PutItem", merge(M{"TableName": g, "Item": M{"PK": S("USER#b"), "SK": S("#METADATA#b")}}, total)), "put-with-gsi-total"),
			withID(step("Query", merge(M{"TableName": g, "IndexName": "InvertedIndex", "KeyConditionExpression": "SK = :s", "ExpressionAttributeValues": M{":s": S("#METADATA#a")}}, indexes)), "query-gsi-indexes"),
			withID(step("DeleteItem", merge(M{"TableName": g, "Key": M{"PK": S("USER#a"), "SK": S("#METADATA#a")}}, indexes)), "delete-with-gsi-indexes"),
		},
	}
}
