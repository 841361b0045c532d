package conformance

import "fmt"

// sortKeys are string sort keys chosen to exercise byte ordering: '#' < '$'
// < digits < upper case < lower case, and prefixes before their extensions.
var sortKeys = []string{"#FRIEND#b", "#METADATA#u", "$", "0", "A", "PHOTO#u#1", "PHOTO#u#2", "Z", "a", "ab", "abc", "b", "ba", "é"}

// keyConditions are the sort key conditions tried in both directions.
var keyConditions = []struct {
	id, expr string
	values   M
}{
	{"eq", "SK = :a", M{":a": S("ab")}},
	{"lt", "SK < :a", M{":a": S("ab")}},
	{"le", "SK <= :a", M{":a": S("ab")}},
	{"gt", "SK > :a", M{":a": S("ab")}},
	{"ge", "SK >= :a", M{":a": S("ab")}},
	{"between", "SK BETWEEN :a AND :b", M{":a": S("#METADATA#u"), ":b": S("PHOTO$")}},
	{"between-equal", "SK BETWEEN :a AND :a", M{":a": S("a")}},
	{"begins-with", "begins_with(SK, :a)", M{":a": S("a")}},
	{"begins-with-hash", "begins_with(SK, :a)", M{":a": S("PHOTO#")}},
	{"hash-only", "", M{}},
	{"reversed-operands", ":a > SK", M{":a": S("b")}},
	{"parenthesised", "(PK = :pk) AND (SK > :a)", M{":a": S("b")}},
}

func queryRequest(kc string, values M, extra M) M {
	expr := "PK = :pk"
	if kc != "" {
		expr += " AND " + kc
	}
	if kc != "" && kc[0] == '(' {
		expr = kc
	}
	return merge(M{
		"TableName":                 "{{t}}",
		"KeyConditionExpression":    expr,
		"ExpressionAttributeValues": merge(M{":pk": S("p")}, values),
	}, extra)
}

func init() {
	var steps []Step
	for i, sk := range sortKeys {
		steps = append(steps, step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("p"), "SK": S(sk), "n": N(fmt.Sprint(i)), "odd": BOOL(i%2 == 1)}}))
	}
	steps = append(steps, step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("other"), "SK": S("a")}}))
	for _, kc := range keyConditions {
		for _, fwd := range []bool{true, false} {
			id := kc.id + map[bool]string{true: ":fwd", false: ":back"}[fwd]
			steps = append(steps, withID(step("Query", queryRequest(kc.expr, kc.values, M{"ScanIndexForward": fwd})), id))
		}
	}
	// Paging with Limit, both directions, following LastEvaluatedKey.
	for _, fwd := range []bool{true, false} {
		dir := map[bool]string{true: "fwd", false: "back"}[fwd]
		for page := 0; page < 6; page++ {
			extra := M{"Limit": 3, "ScanIndexForward": fwd, "ReturnConsumedCapacity": "TOTAL"}
			if page > 0 {
				extra["ExclusiveStartKey"] = "$prev.LastEvaluatedKey"
			}
			steps = append(steps, withID(step("Query", queryRequest("", nil, extra)), fmt.Sprintf("page-%s-%d", dir, page)))
		}
	}
	// Limit counts items read before the filter.
	steps = append(steps,
		withID(step("Query", queryRequest("", M{":t": BOOL(true)}, M{"Limit": 5, "FilterExpression": "odd = :t"})), "limit-before-filter"),
		withID(step("Query", queryRequest("", M{":t": BOOL(true)}, M{"Limit": 5, "FilterExpression": "odd = :t", "ExclusiveStartKey": "$prev.LastEvaluatedKey"})), "limit-before-filter-2"),
		withID(step("Query", queryRequest("SK > :a", M{":a": S("a")}, M{"Select": "COUNT"})), "select-count"),
		withID(step("Query", queryRequest("SK > :a", M{":a": S("a")}, M{"ProjectionExpression": "n, SK"})), "projection"),
		withID(step("Query", queryRequest("SK > :a", M{":a": S("a")}, M{"ProjectionExpression": "#n", "ExpressionAttributeNames": M{"#n": "n"}})), "projection-names"),
		withID(step("Query", queryRequest("SK > :a", M{":a": S("a")}, M{"Select": "SPECIFIC_ATTRIBUTES", "ProjectionExpression": "odd"})), "select-specific"),
		withID(step("Query", queryRequest("SK = :a", M{":a": S("zzz")}, nil)), "no-match"),
		withID(step("Query", queryRequest("", nil, M{"ConsistentRead": true, "Limit": 1, "ReturnConsumedCapacity": "TOTAL"})), "consistent-limit-1"),
		withID(step("Query", queryRequest("", nil, M{"Limit": 14})), "limit-exactly-all"),
		withID(step("Query", queryRequest("", nil, M{"ExclusiveStartKey": M{"PK": S("p"), "SK": S("b")}})), "start-key-written"),
		withID(step("Query", queryRequest("", nil, M{"ExclusiveStartKey": M{"PK": S("p"), "SK": S("absent")}, "ScanIndexForward": false})), "start-key-absent-item"),
	)
	// Invalid key conditions and query parameters.
	bad := []struct {
		id  string
		req M
	}{
		{"no-hash", M{"TableName": "{{t}}", "KeyConditionExpression": "SK = :a", "ExpressionAttributeValues": M{":a": S("a")}}},
		{"hash-lt", M{"TableName": "{{t}}", "KeyConditionExpression": "PK < :a", "ExpressionAttributeValues": M{":a": S("a")}}},
		{"non-key", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a AND n = :b", "ExpressionAttributeValues": M{":a": S("a"), ":b": N("1")}}},
		{"or", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a OR SK = :b", "ExpressionAttributeValues": M{":a": S("a"), ":b": S("b")}}},
		{"two-sk", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a AND SK > :b AND SK < :c", "ExpressionAttributeValues": M{":a": S("a"), ":b": S("b"), ":c": S("c")}}},
		{"not-equal", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a AND SK <> :b", "ExpressionAttributeValues": M{":a": S("a"), ":b": S("b")}}},
		{"in", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a AND SK IN (:b)", "ExpressionAttributeValues": M{":a": S("a"), ":b": S("b")}}},
		{"contains", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a AND contains(SK, :b)", "ExpressionAttributeValues": M{":a": S("a"), ":b": S("b")}}},
		{"wrong-type", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": N("1")}}},
		{"between-reversed", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a AND SK BETWEEN :c AND :b", "ExpressionAttributeValues": M{":a": S("a"), ":b": S("b"), ":c": S("c")}}},
		{"limit-zero", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("a")}, "Limit": 0}},
		{"missing-condition", M{"TableName": "{{t}}"}},
		{"unknown-index", M{"TableName": "{{t}}", "IndexName": "Nope", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("a")}}},
		{"count-with-projection", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("a")}, "Select": "COUNT", "ProjectionExpression": "n"}},
		{"start-key-other-partition", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("p")}, "ExclusiveStartKey": M{"PK": S("other"), "SK": S("a")}}},
		{"start-key-incomplete", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("p")}, "ExclusiveStartKey": M{"PK": S("p")}}},
		{"hash-twice", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a AND PK = :a", "ExpressionAttributeValues": M{":a": S("p")}}},
		{"bad-select", M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("p")}, "Select": "EVERYTHING"}},
	}
	for _, b := range bad {
		steps = append(steps, withID(failStep("Query", "ValidationException", b.req), b.id))
	}
	steps = append(steps, withID(failStep("Query", "ResourceNotFoundException", M{"TableName": "{{nope}}", "KeyConditionExpression": "PK = :a", "ExpressionAttributeValues": M{":a": S("p")}}), "no-table"))
	register(Case{
		Name:   "query-key-conditions",
		Doc:    "Every key condition operator in both directions over string sort keys that exercise byte order, paging with Limit and ExclusiveStartKey, Select, projections, and key condition validation.",
		Tables: map[string]string{"t": "pksk"},
		Steps:  steps,
	})
	register(numberCase(), binaryCase())
}

// numbers are N sort keys in assorted spellings, in numeric order.
var numbers = []string{
	"-9.9999999999999999999999999999999999999E+125", "-1e3", "-100", "-10.5", "-1", "-0.5", "-1E-130",
	"0", "1E-130", "0.0001", "0.5", "1", "1.5", "2", "10", "1e2", "123.456", "1000",
	"99999999999999999999999999999999999999", "1E+100", "9.9999999999999999999999999999999999999E+125",
}

func numberCase() Case {
	var steps []Step
	for i, n := range numbers {
		steps = append(steps, step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("p"), "SK": N(n), "i": N(fmt.Sprint(i)), "v": N(n)}}))
	}
	exact := func(s Step) Step { s.Compare.ExactNumbers = true; return s }
	steps = append(steps,
		withID(exact(step("Query", queryRequest("", nil, nil))), "ascending-exact"),
		withID(exact(step("Query", queryRequest("", nil, M{"ScanIndexForward": false}))), "descending-exact"),
		withID(step("Query", queryRequest("SK BETWEEN :a AND :b", M{":a": N("-1"), ":b": N("10")}, nil)), "between"),
		withID(step("Query", queryRequest("SK < :a", M{":a": N("0")}, nil)), "negative"),
		withID(step("Query", queryRequest("SK = :a", M{":a": N("100.000")}, nil)), "equal-other-spelling"),
		withID(step("Query", queryRequest("SK > :a", M{":a": N("1E+99")}, M{"Select": "COUNT"})), "huge"),
	)
	spellings := []string{"001.500", "1.50E1", "-0", "0.000", "5e-3", "1E+2", "12345678901234567890123456789012345678", "0.12345678901234567890123456789012345678", "123456789012345678901234567890123456780000", "1.", ".5", "+1"}
	for i, n := range spellings {
		key := M{"PK": S("spell"), "SK": N(fmt.Sprint(i))}
		steps = append(steps,
			step("PutItem", M{"TableName": "{{t}}", "Item": merge(key, M{"v": N(n), "ns": NS(n, "7")})}),
			withID(exact(step("GetItem", M{"TableName": "{{t}}", "Key": key})), fmt.Sprintf("spelling-%d", i)),
		)
	}
	invalid := []string{"1E+126", "1E-131", "-1E+126", "123456789012345678901234567890123456789", "abc", "", " 1", "0x10", "1e", "Infinity", "NaN", "1,5"}
	for i, n := range invalid {
		s := step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("bad"), "SK": N("1"), "v": N(n)}})
		s.Error = "ValidationException"
		s.ID = fmt.Sprintf("invalid-%d", i)
		steps = append(steps, s)
	}
	steps = append(steps,
		withID(step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("arith"), "SK": N("1")}, "UpdateExpression": "SET v = :a + :b", "ExpressionAttributeValues": M{":a": N("0.1"), ":b": N("0.2")}, "ReturnValues": "ALL_NEW"}), "add-decimals"),
		withID(failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("arith"), "SK": N("1")}, "UpdateExpression": "ADD v :a", "ExpressionAttributeValues": M{":a": N("99999999999999999999999999999999999999")}, "ReturnValues": "UPDATED_NEW"}), "add-39-digits"),
		withID(failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("arith"), "SK": N("1")}, "UpdateExpression": "SET v = :a + :b", "ExpressionAttributeValues": M{":a": N("9.9999999999999999999999999999999999999E+125"), ":b": N("9.9999999999999999999999999999999999999E+125")}}), "overflow"),
		withID(step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("arith"), "SK": N("2")}, "UpdateExpression": "SET v = :a - :b", "ExpressionAttributeValues": M{":a": N("1"), ":b": N("1.0000000000000000000000000000000000001")}, "ReturnValues": "ALL_NEW"}), "subtract-tiny"),
		withID(failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("arith"), "SK": N("3")}, "UpdateExpression": "SET v = :a + :b", "ExpressionAttributeValues": M{":a": N("12345678901234567890123456789012345678"), ":b": N("0.5")}, "ReturnValues": "ALL_NEW"}), "no-rounding-39th-digit"),
		withID(step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("arith"), "SK": N("4")}, "UpdateExpression": "SET v = :a + :b", "ExpressionAttributeValues": M{":a": N("12345678901234567890123456789012345670"), ":b": N("8")}, "ReturnValues": "ALL_NEW"}), "sum-38-digits"),
	)
	for i := range steps {
		if steps[i].Op == "UpdateItem" {
			steps[i].Compare.ExactNumbers = true
		}
	}
	return Case{
		Name:   "numbers",
		Doc:    "Number semantics: numeric order of N sort keys (negative, tiny, huge, exponents), normalised spellings, the 38-digit and exponent limits, arithmetic precision.",
		Tables: map[string]string{"t": "pkskn"},
		Steps:  steps,
	}
}

// binaries are base64 B sort keys; DynamoDB orders them as unsigned bytes.
var binaries = []string{"AA==", "AAA=", "AQ==", "AQI=", "fw==", "gA==", "gAE=", "/w==", "//8="}

func binaryCase() Case {
	var steps []Step
	for i, b := range binaries {
		steps = append(steps, step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("p"), "SK": B(b), "i": N(fmt.Sprint(i))}}))
	}
	steps = append(steps,
		withID(step("Query", queryRequest("", nil, nil)), "ascending"),
		withID(step("Query", queryRequest("", nil, M{"ScanIndexForward": false})), "descending"),
		withID(step("Query", queryRequest("SK > :a", M{":a": B("fw==")}, nil)), "gt-7f"),
		withID(step("Query", queryRequest("begins_with(SK, :a)", M{":a": B("gA==")}, nil)), "begins-with"),
		withID(step("Query", queryRequest("SK BETWEEN :a AND :b", M{":a": B("AQ==")}, M{"ExpressionAttributeValues": M{":pk": S("p"), ":a": B("AQ=="), ":b": B("gA==")}})), "between"),
		withID(failStep("PutItem", "ValidationException", M{"TableName": "{{t}}", "Item": M{"PK": S("p"), "SK": B("")}}), "empty-binary-key"),
		withID(step("PutItem", M{"TableName": "{{t}}", "Item": M{"PK": S("q"), "SK": B("AQ=="), "empty": M{"B": ""}}}), "empty-binary-attr"),
		withID(step("GetItem", M{"TableName": "{{t}}", "Key": M{"PK": S("q"), "SK": B("AQ==")}}), "empty-binary-attr-get"),
	)
	return Case{
		Name:   "binary-order",
		Doc:    "B sort keys compare as unsigned bytes, shorter prefixes first; base64 validation.",
		Tables: map[string]string{"t": "pkskb"},
		Steps:  steps,
	}
}
