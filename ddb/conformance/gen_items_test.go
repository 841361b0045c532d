package conformance

import "strings"

func init() {
	register(itemsCase(), itemLimitsCase())
}

func itemsCase() Case {
	t := "{{t}}"
	k := func(pk string) M { return M{"PK": S(pk), "SK": S("s")} }
	item := merge(k("a"), M{"v": N("1"), "doc": Map(M{"lst": L(S("x"), Map(M{"deep": S("y")})), "n": N("2")}), "tags": SS("red", "blue")})
	return Case{
		Name:   "items-put-get-delete",
		Doc:    "PutItem/GetItem/DeleteItem with ReturnValues, conditions, ReturnValuesOnConditionCheckFailure, projections and legacy parameters.",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			withID(expecting(step("PutItem", M{"TableName": t, "Item": item, "ReturnValues": "ALL_OLD"}), M{}), "put-new-all-old"),
			withID(step("PutItem", M{"TableName": t, "Item": merge(item, M{"v": N("2")}), "ReturnValues": "ALL_OLD"}), "put-replace-all-old"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": item, "ReturnValues": "ALL_NEW"}), "put-all-new-invalid"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": item, "ReturnValues": "UPDATED_OLD"}), "put-updated-old-invalid"),
			withID(failStep("PutItem", "ConditionalCheckFailedException", M{"TableName": t, "Item": item, "ConditionExpression": "attribute_not_exists(PK)"}), "put-exists"),
			withID(failStep("PutItem", "ConditionalCheckFailedException", M{"TableName": t, "Item": item, "ConditionExpression": "v = :one", "ExpressionAttributeValues": M{":one": N("1")}, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}), "put-condition-all-old"),
			withID(step("PutItem", M{"TableName": t, "Item": item, "ConditionExpression": "v = :two AND contains(tags, :red)", "ExpressionAttributeValues": M{":two": N("2"), ":red": S("red")}}), "put-condition-ok"),
			withID(step("GetItem", M{"TableName": t, "Key": k("a")}), "get"),
			withID(step("GetItem", M{"TableName": t, "Key": k("a"), "ProjectionExpression": "doc.lst[1].deep, doc.n, tags"}), "get-projection-paths"),
			withID(step("GetItem", M{"TableName": t, "Key": k("a"), "ProjectionExpression": "doc.lst[5], nope"}), "get-projection-missing"),
			withID(step("GetItem", M{"TableName": t, "Key": k("a"), "ProjectionExpression": "#d.#l[0]", "ExpressionAttributeNames": M{"#d": "doc", "#l": "lst"}}), "get-projection-names"),
			withID(failStep("GetItem", "ValidationException", M{"TableName": t, "Key": k("a"), "ProjectionExpression": "doc, doc.n"}), "get-projection-overlap"),
			withID(failStep("GetItem", "ValidationException", M{"TableName": t, "Key": k("a"), "ProjectionExpression": "v, v"}), "get-projection-duplicate"),
			withID(step("GetItem", M{"TableName": t, "Key": k("a"), "AttributesToGet": []any{"v", "tags"}}), "get-attributes-to-get"),
			withID(failStep("GetItem", "ValidationException", M{"TableName": t, "Key": k("a"), "AttributesToGet": []any{"v"}, "ProjectionExpression": "v"}), "get-legacy-and-expression"),
			withID(step("GetItem", M{"TableName": t, "Key": k("a"), "ConsistentRead": true, "ReturnConsumedCapacity": "TOTAL"}), "get-consistent"),
			withID(expecting(step("GetItem", M{"TableName": t, "Key": k("missing")}), M{}), "get-missing"),
			withID(failStep("GetItem", "ValidationException", M{"TableName": t, "Key": merge(k("a"), M{"v": N("1")})}), "get-extra-key"),
			withID(failStep("GetItem", "ValidationException", M{"TableName": t, "Key": M{"PK": N("1"), "SK": S("s")}}), "get-wrong-key-type"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": M{"PK": S("a")}}), "put-missing-sort-key"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": M{"PK": S(""), "SK": S("s")}}), "put-empty-hash-key"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": M{"PK": S("a"), "SK": S("")}}), "put-empty-sort-key"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k("b"), M{"s": SS()})}), "put-empty-set"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k("b"), M{"s": SS("x", "x")})}), "put-duplicate-set"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k("b"), M{"s": NS("1", "1.0")})}), "put-duplicate-numeric-set"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k("b"), M{"n": M{"NULL": false}})}), "put-null-false"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k("b"), M{"x": M{"S": "a", "N": "1"}})}), "put-two-types"),
			withID(step("PutItem", M{"TableName": t, "Item": merge(k("b"), M{"e": S(""), "l": L(), "m": Map(M{}), "nested": Map(M{"e": S(""), "s": SS("z")})})}), "put-empty-values"),
			withID(step("GetItem", M{"TableName": t, "Key": k("b")}), "get-empty-values"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": item, "ConditionExpression": "v = :unused", "ExpressionAttributeValues": M{":unused": N("1"), ":extra": N("2")}}), "put-unused-value"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": item, "Expected": M{"v": M{"Value": N("2")}}, "ConditionExpression": "v = :v", "ExpressionAttributeValues": M{":v": N("2")}}), "put-legacy-and-expression"),
			withID(step("PutItem", M{"TableName": t, "Item": item, "Expected": M{"v": M{"Value": N("1")}}}), "put-legacy-expected"),
			withID(failStep("PutItem", "ConditionalCheckFailedException", M{"TableName": t, "Item": item, "Expected": M{"v": M{"Exists": false}}}), "put-legacy-expected-fails"),
			withID(failStep("DeleteItem", "ConditionalCheckFailedException", M{"TableName": t, "Key": k("a"), "ConditionExpression": "attribute_not_exists(v)", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}), "delete-condition-all-old"),
			withID(step("DeleteItem", M{"TableName": t, "Key": k("a"), "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"}), "delete-all-old"),
			withID(expecting(step("DeleteItem", M{"TableName": t, "Key": k("a"), "ReturnValues": "ALL_OLD"}), M{}), "delete-missing"),
			withID(expecting(step("DeleteItem", M{"TableName": t, "Key": k("never")}), M{}), "delete-never-existed"),
			withID(failStep("DeleteItem", "ValidationException", M{"TableName": t, "Key": k("a"), "ReturnValues": "ALL_NEW"}), "delete-all-new-invalid"),
			withID(failStep("DeleteItem", "ConditionalCheckFailedException", M{"TableName": t, "Key": k("a"), "ConditionExpression": "attribute_exists(PK)"}), "delete-missing-condition"),
			withID(failStep("PutItem", "ResourceNotFoundException", M{"TableName": "{{nope}}", "Item": item}), "put-no-table"),
			withID(failStep("PutItem", "ValidationException", M{"Item": item}), "put-no-table-name"),
		},
	}
}

func itemLimitsCase() Case {
	t := "{{t}}"
	// Item size: attribute name lengths plus value sizes: "PK" "p" (3
	// bytes), "SK" "s" (3 bytes), "d" (1 byte) plus its value.
	const maxItem = 400 * 1024
	fill := func(n int) string { return strings.Repeat("x", n) }
	return Case{
		Name:   "item-limits",
		Doc:    "The 400 KB item size limit, key size limits (2048-byte partition keys, 1024-byte sort keys) and nesting depth.",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			withID(step("PutItem", M{"TableName": t, "Item": M{"PK": S("p"), "SK": S("s"), "d": S(fill(maxItem - 7))}}), "item-400kb"),
			withID(step("GetItem", M{"TableName": t, "Key": M{"PK": S("p"), "SK": S("s")}, "ProjectionExpression": "PK", "ReturnConsumedCapacity": "TOTAL"}), "item-400kb-read-capacity"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": M{"PK": S("p"), "SK": S("s"), "d": S(fill(maxItem - 6))}}), "item-400kb-plus-1"),
			withID(failStep("UpdateItem", "ValidationException", M{"TableName": t, "Key": M{"PK": S("p"), "SK": S("s")}, "UpdateExpression": "SET e = :x", "ExpressionAttributeValues": M{":x": S("y")}}), "update-past-400kb"),
			withID(step("PutItem", M{"TableName": t, "Item": M{"PK": S(fill(2048)), "SK": S("s")}}), "hash-key-2048"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": M{"PK": S(fill(2049)), "SK": S("s")}}), "hash-key-2049"),
			withID(step("PutItem", M{"TableName": t, "Item": M{"PK": S("k"), "SK": S(fill(1024))}}), "sort-key-1024"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": M{"PK": S("k"), "SK": S(fill(1025))}}), "sort-key-1025"),
			withID(step("PutItem", M{"TableName": t, "Item": M{"PK": S("deep"), "SK": S("s"), "d": nested(31)}}), "depth-32"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": M{"PK": S("deep"), "SK": S("s"), "d": nested(32)}}), "depth-33"),
			withID(step("PutItem", M{"TableName": t, "Item": M{"PK": S("multi"), "SK": S("s"), "é": S("ü€")}, "ReturnConsumedCapacity": "TOTAL"}), "utf8-sizes"),
		},
	}
}

// nested returns a map nested depth levels below a top-level attribute.
func nested(depth int) M {
	v := S("leaf")
	for i := 0; i < depth; i++ {
		v = Map(M{"n": v})
	}
	return v
}
