package conformance

import (
	"encoding/json"
	"strings"
)

func init() { register(requestLimitsCase()) }

// requestLimitsCase checks DynamoDB's limits on what a request may hold: at most 300
// operators and functions in an expression (comparators, AND, OR, NOT, BETWEEN, IN, function
// calls), no empty attribute names at any depth, and UTF-8 text only.
func requestLimitsCase() Case {
	t := "{{t}}"
	k := M{"PK": S("a"), "SK": S("s")}
	one := M{":v": N("1")}
	update := func(cond string) M {
		return M{"TableName": t, "Key": k, "UpdateExpression": "SET w = :v", "ConditionExpression": cond, "ExpressionAttributeValues": one}
	}
	chain := func(n int, op, term string) string {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = term
		}
		return strings.Join(terms, " "+op+" ")
	}
	// rawPut is a PutItem whose request text is given as is, for text json.Marshal cannot
	// write: a lone surrogate escape, bytes that are not UTF-8.
	rawPut := func(value string) json.RawMessage {
		return json.RawMessage(`{"TableName":"{{t}}","Item":{"PK":{"S":"u"},"SK":{"S":"s"},"x":{"S":"` + value + `"}}}`)
	}
	serialization := M{"__type": "SerializationException"}
	return Case{
		Name:   "request-limits",
		Doc:    "At most 300 operators and functions per expression, no empty attribute names, UTF-8 text only.",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			withID(step("PutItem", M{"TableName": t, "Item": merge(k, M{"v": N("1")})}), "put"),
			withID(step("UpdateItem", update(chain(150, "AND", "v = :v"))), "operators-299"),
			withID(failStep("UpdateItem", "ValidationException", update(chain(151, "AND", "v = :v"))), "operators-301"),
			withID(failStep("UpdateItem", "ValidationException", update(chain(151, "OR", "attribute_exists(v)"))), "functions-301"),
			withID(failStep("UpdateItem", "ConditionalCheckFailedException", update(strings.Repeat("NOT ", 299)+"v = :v")), "nested-not-300"),
			withID(failStep("UpdateItem", "ValidationException", update(strings.Repeat("NOT ", 300)+"attribute_exists(v)")), "nested-not-301"),
			withID(failStep("UpdateItem", "ValidationException", update(chain(150, "AND", "size(v) > :v"))), "size-and-comparators"),
			withID(step("UpdateItem", update(chain(101, "AND", "v BETWEEN :v AND :v"))), "between-201"),
			withID(failStep("Scan", "ValidationException", M{"TableName": t, "FilterExpression": chain(151, "OR", "v = :v"), "ExpressionAttributeValues": one}), "filter-301"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k, M{"": S("x")})}), "empty-name"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k, M{"m": Map(M{"": S("x")})})}), "empty-name-in-map"),
			withID(failStep("PutItem", "ValidationException", M{"TableName": t, "Item": merge(k, M{"l": L(Map(M{"ok": Map(M{"": N("1")})}))})}), "empty-name-deep"),
			withID(expecting(Step{Op: "PutItem", Request: rawPut(`a\ud800`), Error: "SerializationException"}, serialization), "lone-surrogate"),
			withID(expecting(Step{Op: "PutItem", Request: rawPut("a\xff"), Error: "SerializationException"}, serialization), "invalid-utf8"),
			withID(expecting(step("GetItem", M{"TableName": t, "Key": M{"PK": S("u"), "SK": S("s")}}), M{}), "nothing-stored"),
			withID(step("GetItem", M{"TableName": t, "Key": k}), "get"),
		},
	}
}
