package conformance

import "fmt"

func init() {
	register(transactWriteCase(), transactGetCase(), batchCase(), scanCase())
}

func txKey(pk string) M { return M{"PK": S(pk), "SK": S("s")} }

func transactWriteCase() Case {
	a, b := "{{a}}", "{{b}}"
	put := func(table, pk string, extra M) M {
		return M{"Put": merge(M{"TableName": table, "Item": merge(txKey(pk), M{"n": N("1")})}, extra)}
	}
	upd := func(table, pk, expr string, values M, extra M) M {
		u := M{"TableName": table, "Key": txKey(pk), "UpdateExpression": expr}
		if len(values) > 0 {
			u["ExpressionAttributeValues"] = values
		}
		return M{"Update": merge(u, extra)}
	}
	check := func(table, pk, cond string, extra M) M {
		return M{"ConditionCheck": merge(M{"TableName": table, "Key": txKey(pk), "ConditionExpression": cond}, extra)}
	}
	del := func(table, pk string) M { return M{"Delete": M{"TableName": table, "Key": txKey(pk)}} }
	tx := func(items ...any) M { return M{"TransactItems": items} }
	many := func(n int) []any {
		var out []any
		for i := 0; i < n; i++ {
			out = append(out, put(a, fmt.Sprintf("many%03d", i), nil))
		}
		return out
	}
	one := M{":one": N("1")}
	return Case{
		Name:   "transact-write",
		Doc:    "TransactWriteItems across two tables: success, cancellation with CancellationReasons (and ALL_OLD items), validation, idempotency tokens.",
		Tables: map[string]string{"a": "pksk", "b": "pksk"},
		Steps: []Step{
			withID(step("TransactWriteItems", tx(put(a, "x", nil), put(b, "y", nil), put(a, "z", nil))), "setup"),
			withID(step("TransactWriteItems", merge(tx(
				put(a, "new", M{"ConditionExpression": "attribute_not_exists(PK)"}),
				upd(b, "y", "SET n = n + :one", one, M{"ConditionExpression": "n = :one"}),
				check(a, "x", "attribute_exists(PK)", nil),
				del(a, "z"),
			), nil)), "all-kinds"),
			withID(step("BatchGetItem", M{"RequestItems": M{a: M{"Keys": []any{txKey("new"), txKey("x"), txKey("z")}}, b: M{"Keys": []any{txKey("y")}}}}), "after-success"),
			reasonMessagesTypeOnly(withID(failStep("TransactWriteItems", "TransactionCanceledException", tx(
				put(a, "w", nil),
				check(a, "x", "n = :two", M{"ExpressionAttributeValues": M{":two": N("2")}}),
				upd(b, "y", "SET n = n + :one", one, nil),
			)), "cancel-condition")),
			reasonMessagesTypeOnly(withID(failStep("TransactWriteItems", "TransactionCanceledException", tx(
				check(a, "x", "n = :two", M{"ExpressionAttributeValues": M{":two": N("2")}, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
				put(b, "y", M{"ConditionExpression": "attribute_not_exists(PK)", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
				put(a, "v", nil),
			)), "cancel-two-reasons-all-old")),
			withID(step("BatchGetItem", M{"RequestItems": M{a: M{"Keys": []any{txKey("w"), txKey("v"), txKey("x")}}, b: M{"Keys": []any{txKey("y")}}}}), "after-cancel-unchanged"),
			withID(failStep("TransactWriteItems", "ValidationException", tx(put(a, "x", nil), upd(a, "x", "SET n = :one", one, nil))), "same-item-twice"),
			withID(failStep("TransactWriteItems", "ValidationException", tx()), "empty"),
			withID(step("TransactWriteItems", tx(many(100)...)), "hundred-items"),
			withID(failStep("TransactWriteItems", "ValidationException", tx(many(101)...)), "hundred-and-one-items"),
			withID(failStep("TransactWriteItems", "ResourceNotFoundException", tx(put("{{nope}}", "x", nil))), "missing-table"),
			withID(failStep("TransactWriteItems", "TransactionCanceledException", tx(upd(a, "x", "SET PK = :one", one, nil))), "update-key"),
			withID(failStep("TransactWriteItems", "ValidationException", tx(M{"Put": M{"TableName": a, "Item": M{"PK": S("k")}}})), "missing-sort-key"),
			withID(failStep("TransactWriteItems", "ValidationException", tx(M{"Put": M{"TableName": a, "Item": merge(txKey("k"), M{"n": N("1")})}, "Delete": M{"TableName": a, "Key": txKey("k")}})), "two-actions-in-one"),
			withID(failStep("TransactWriteItems", "ValidationException", tx(upd(a, "x", "SET n = n + :s", M{":s": S("str")}, nil))), "update-static-type-error"),
			withID(step("PutItem", M{"TableName": a, "Item": merge(txKey("str"), M{"n": S("text")})}), "put-string-n"),
			withID(failStep("TransactWriteItems", "ValidationException", tx(put(b, "q", nil), upd(a, "str", "SET n = n + :one", one, nil))), "update-runtime-type-error"),
			withID(expecting(step("GetItem", M{"TableName": b, "Key": txKey("q")}), M{}), "runtime-error-wrote-nothing"),
			withID(step("TransactWriteItems", merge(tx(upd(a, "tok", "ADD n :one", one, nil)), M{"ClientRequestToken": "token-1"})), "token-first"),
			withID(step("TransactWriteItems", merge(tx(upd(a, "tok", "ADD n :one", one, nil)), M{"ClientRequestToken": "token-1"})), "token-replay"),
			withID(expecting(step("GetItem", M{"TableName": a, "Key": txKey("tok"), "ProjectionExpression": "n"}), M{"Item": M{"n": N("1")}}), "token-applied-once"),
			withID(failStep("TransactWriteItems", "IdempotentParameterMismatchException", merge(tx(upd(a, "tok", "ADD n :two", M{":two": N("2")}, nil)), M{"ClientRequestToken": "token-1"})), "token-mismatch"),
		},
	}
}

// reasonMessagesTypeOnly leaves CancellationReasons[].Message out of a
// step's comparison (the top-level message is still compared): DynamoDB
// Local words a failed ConditionCheck "The conditional request failed."
// (with a period) and a failed Put condition "The conditional request
// failed" (without); the engine never writes the period.
func reasonMessagesTypeOnly(s Step) Step {
	s.Compare.Ignore = append(s.Compare.Ignore, "CancellationReasons.[].Message")
	return s
}

func transactGetCase() Case {
	a := "{{a}}"
	get := func(pk string, extra M) M {
		return M{"Get": merge(M{"TableName": a, "Key": txKey(pk)}, extra)}
	}
	return Case{
		Name:   "transact-get",
		Doc:    "TransactGetItems: responses in request order, empty entries for missing items, projections, validation.",
		Tables: map[string]string{"a": "pksk"},
		Steps: []Step{
			step("PutItem", M{"TableName": a, "Item": merge(txKey("x"), M{"n": N("1"), "m": Map(M{"k": S("v")})})}),
			step("PutItem", M{"TableName": a, "Item": merge(txKey("y"), M{"n": N("2")})}),
			withID(step("TransactGetItems", M{"TransactItems": []any{get("y", nil), get("missing", nil), get("x", nil)}}), "order-and-missing"),
			withID(step("TransactGetItems", M{"TransactItems": []any{get("x", M{"ProjectionExpression": "m.k, #n", "ExpressionAttributeNames": M{"#n": "n"}})}, "ReturnConsumedCapacity": "TOTAL"}), "projection"),
			withID(failStep("TransactGetItems", "ValidationException", M{"TransactItems": []any{get("x", nil), get("x", nil)}}), "same-item-twice"),
			withID(failStep("TransactGetItems", "ValidationException", M{"TransactItems": []any{}}), "empty"),
			withID(failStep("TransactGetItems", "ResourceNotFoundException", M{"TransactItems": []any{M{"Get": M{"TableName": "{{nope}}", "Key": txKey("x")}}}}), "missing-table"),
			withID(expecting(failStep("TransactGetItems", "TransactionCanceledException", M{"TransactItems": []any{M{"Get": M{"TableName": a, "Key": M{"PK": S("x")}}}}}),
				M{"__type": "TransactionCanceledException", "CancellationReasons": []any{M{"Code": "ValidationError"}}}), "incomplete-key"),
		},
	}
}

func batchCase() Case {
	a, b := "{{a}}", "{{b}}"
	putReq := func(pk string) M { return M{"PutRequest": M{"Item": merge(txKey(pk), M{"v": S(pk)})}} }
	delReq := func(pk string) M { return M{"DeleteRequest": M{"Key": txKey(pk)}} }
	puts := func(n int) []any {
		var out []any
		for i := 0; i < n; i++ {
			out = append(out, putReq(fmt.Sprintf("k%02d", i)))
		}
		return out
	}
	keys := func(n int) []any {
		var out []any
		for i := 0; i < n; i++ {
			out = append(out, txKey(fmt.Sprintf("k%02d", i)))
		}
		return out
	}
	return Case{
		Name:   "batch",
		Doc:    "BatchWriteItem and BatchGetItem across two tables: puts and deletes, missing keys, projections, limits and duplicate keys.",
		Tables: map[string]string{"a": "pksk", "b": "pksk"},
		Steps: []Step{
			withID(expecting(step("BatchWriteItem", M{"RequestItems": M{a: puts(20), b: []any{putReq("x"), putReq("y")}}}), M{"UnprocessedItems": M{}}), "write-22"),
			withID(step("BatchWriteItem", M{"RequestItems": M{a: []any{delReq("k00"), delReq("k01"), putReq("new")}}, "ReturnConsumedCapacity": "TOTAL"}), "write-mixed"),
			withID(step("BatchGetItem", M{"RequestItems": M{a: M{"Keys": keys(5)}, b: M{"Keys": []any{txKey("x"), txKey("nope")}, "ProjectionExpression": "v"}}}), "get-two-tables"),
			withID(step("BatchGetItem", M{"RequestItems": M{a: M{"Keys": []any{txKey("k05")}, "ConsistentRead": true}}, "ReturnConsumedCapacity": "TOTAL"}), "get-consistent-capacity"),
			withID(step("BatchGetItem", M{"RequestItems": M{a: M{"Keys": keys(20), "AttributesToGet": []any{"v"}}}}), "get-attributes-to-get"),
			withID(step("BatchGetItem", M{"RequestItems": M{a: M{"Keys": keys(100)}}}), "get-100"),
			withID(failStep("BatchGetItem", "ValidationException", M{"RequestItems": M{a: M{"Keys": append(keys(100), txKey("extra"))}}}), "get-101"),
			withID(failStep("BatchGetItem", "ValidationException", M{"RequestItems": M{a: M{"Keys": []any{txKey("k02"), txKey("k02")}}}}), "get-duplicate-keys"),
			withID(failStep("BatchGetItem", "ValidationException", M{"RequestItems": M{}}), "get-empty"),
			withID(failStep("BatchGetItem", "ValidationException", M{"RequestItems": M{a: M{"Keys": []any{}}}}), "get-no-keys"),
			withID(failStep("BatchGetItem", "ResourceNotFoundException", M{"RequestItems": M{"{{nope}}": M{"Keys": []any{txKey("x")}}}}), "get-missing-table"),
			withID(failStep("BatchGetItem", "ValidationException", M{"RequestItems": M{a: M{"Keys": []any{M{"PK": S("x")}}}}}), "get-incomplete-key"),
			withID(failStep("BatchWriteItem", "ValidationException", M{"RequestItems": M{a: puts(26)}}), "write-26"),
			withID(failStep("BatchWriteItem", "ValidationException", M{"RequestItems": M{a: []any{putReq("d"), delReq("d")}}}), "write-duplicate-keys"),
			withID(failStep("BatchWriteItem", "ValidationException", M{"RequestItems": M{}}), "write-empty"),
			withID(failStep("BatchWriteItem", "ResourceNotFoundException", M{"RequestItems": M{"{{nope}}": []any{putReq("x")}}}), "write-missing-table"),
			withID(failStep("BatchWriteItem", "ValidationException", M{"RequestItems": M{a: []any{M{"PutRequest": M{"Item": M{"PK": S("x")}}}}}}), "write-incomplete-key"),
			withID(failStep("BatchWriteItem", "ValidationException", M{"RequestItems": M{a: []any{M{"PutRequest": M{"Item": merge(txKey("z"), M{"s": SS()})}}}}}), "write-empty-set"),
			withID(step("Query", M{"TableName": a, "KeyConditionExpression": "PK = :p", "ExpressionAttributeValues": M{":p": S("k00")}}), "deleted-by-batch"),
		},
	}
}

func scanCase() Case {
	t := "{{t}}"
	var steps []Step
	for i := 0; i < 12; i++ {
		steps = append(steps, step("PutItem", M{"TableName": t, "Item": M{"PK": S(fmt.Sprintf("item%02d", i)), "n": N(fmt.Sprint(i)), "even": BOOL(i%2 == 0)}}))
	}
	segment := func(seg, total int) Step {
		return Step{Op: "Scan", Request: raw(M{"TableName": t, "Segment": seg, "TotalSegments": total}),
			Compare: Compare{Ignore: []string{"Items", "Count", "ScannedCount", "LastEvaluatedKey"}}}
	}
	steps = append(steps,
		withID(step("Scan", M{"TableName": t}), "all"),
		withID(expecting(step("Scan", M{"TableName": t, "Select": "COUNT"}), M{"Count": 12, "ScannedCount": 12}), "count"),
		withID(step("Scan", M{"TableName": t, "FilterExpression": "even = :t AND n > :five", "ExpressionAttributeValues": M{":t": BOOL(true), ":five": N("5")}}), "filter"),
		withID(step("Scan", M{"TableName": t, "ProjectionExpression": "n", "FilterExpression": "n < :three", "ExpressionAttributeValues": M{":three": N("3")}}), "projection"),
		withID(step("Scan", M{"TableName": t, "ConsistentRead": true, "Select": "COUNT", "ReturnConsumedCapacity": "TOTAL"}), "consistent-capacity"),
		withID(segment(0, 1), "segment-0-of-1"),
		withID(segment(0, 3), "segment-0-of-3"),
		withID(segment(1, 3), "segment-1-of-3"),
		withID(segment(2, 3), "segment-2-of-3"),
		withID(failStep("Scan", "ValidationException", M{"TableName": t, "Segment": 3, "TotalSegments": 3}), "segment-out-of-range"),
		withID(failStep("Scan", "ValidationException", M{"TableName": t, "Segment": 0}), "segment-without-total"),
		withID(failStep("Scan", "ValidationException", M{"TableName": t, "TotalSegments": 2}), "total-without-segment"),
		withID(failStep("Scan", "ValidationException", M{"TableName": t, "Segment": 0, "TotalSegments": 1000001}), "too-many-segments"),
		withID(failStep("Scan", "ValidationException", M{"TableName": t, "Limit": 0}), "limit-zero"),
		withID(failStep("Scan", "ResourceNotFoundException", M{"TableName": "{{nope}}"}), "missing-table"),
		withID(failStep("Scan", "ValidationException", M{"TableName": t, "IndexName": "nope"}), "missing-index"),
	)
	return Case{
		Name:   "scan",
		Doc:    "Scan: all items (order not compared: it depends on partition hashing), filters, projections, Select COUNT, segment validation. Segment contents depend on hashing: the scan-segments case checks them per target.",
		Tables: map[string]string{"t": "pk"},
		Steps:  steps,
	}
}
