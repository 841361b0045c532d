package conformance

import (
	"encoding/json"
	"fmt"
	"strings"
)

func init() { register(requestLimitsPlacesCase()) }

// requestLimitsPlacesCase checks the limits of requestLimitsCase in the other places a request
// can break them: 300 operators in update and key condition expressions (a projection has no
// operators, so none bound it); an empty attribute name in a key, an ExclusiveStartKey, the
// values of ExpressionAttributeNames and ExpressionAttributeValues, batch and transaction items,
// and every legacy parameter (whose names the engine turns into placeholders); text that is not
// UTF-8 in names and expressions.
func requestLimitsPlacesCase() Case {
	t := "{{t}}"
	k := M{"PK": S("a"), "SK": S("s")}
	one := M{":v": N("1")}
	// list is n items from format, given their index, joined by commas: distinct paths.
	list := func(n int, format string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(format, i)
		}
		return strings.Join(parts, ",")
	}
	chain := func(n int, op, term string) string {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = term
		}
		return strings.Join(terms, " "+op+" ")
	}
	eq := M{"ComparisonOperator": "EQ", "AttributeValueList": []any{S("a")}}
	notNull := M{"ComparisonOperator": "NOT_NULL"}
	invalid := func(op string, req M, id string) Step { return withID(failStep(op, "ValidationException", req), id) }
	serialization := M{"__type": "SerializationException"}
	// rawStep is a request whose text is given as is, for text json.Marshal cannot write.
	rawStep := func(op, text, id string) Step {
		return withID(expecting(Step{Op: op, Request: json.RawMessage(text), Error: "SerializationException"}, serialization), id)
	}
	return Case{
		Name:   "request-limits-places",
		Doc:    "The request limits in every kind of expression and every place a request names an attribute.",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			withID(step("PutItem", M{"TableName": t, "Item": merge(k, M{"v": N("1")})}), "put"),
			withID(step("UpdateItem", M{"TableName": t, "Key": k, "UpdateExpression": "SET " + list(300, "a%d=:v+:v"), "ExpressionAttributeValues": one}), "update-plus-300"),
			invalid("UpdateItem", M{"TableName": t, "Key": k, "UpdateExpression": "SET " + list(301, "a%d=:v-:v"), "ExpressionAttributeValues": one}, "update-minus-301"),
			invalid("Query", M{"TableName": t, "KeyConditionExpression": chain(151, "AND", "PK = :v"), "ExpressionAttributeValues": one}, "keycond-301"),
			withID(step("GetItem", M{"TableName": t, "Key": k, "ProjectionExpression": list(301, "a%d")}), "projection-301-paths"),
			invalid("UpdateItem", M{"TableName": t, "Key": k, "UpdateExpression": "SET w = :v", "ConditionExpression": strings.Repeat("(", 1500) + "v = :v" + strings.Repeat(")", 1500), "ExpressionAttributeValues": one}, "parens-1500"),
			invalid("GetItem", M{"TableName": t, "Key": merge(k, M{"": S("x")})}, "key-extra-empty"),
			invalid("GetItem", M{"TableName": t, "Key": M{"PK": S("a"), "": S("s")}}, "key-empty-for-sk"),
			invalid("DeleteItem", M{"TableName": t, "Key": M{"": S("a")}}, "delete-key-empty"),
			invalid("Scan", M{"TableName": t, "ExclusiveStartKey": merge(k, M{"": S("x")})}, "start-key-empty"),
			invalid("UpdateItem", M{"TableName": t, "Key": k, "UpdateExpression": "SET #n = :v", "ExpressionAttributeNames": M{"#n": ""}, "ExpressionAttributeValues": one}, "names-value-empty"),
			invalid("UpdateItem", M{"TableName": t, "Key": k, "UpdateExpression": "SET m = :m", "ExpressionAttributeValues": M{":m": Map(M{"": S("x")})}}, "values-map-empty-name"),
			invalid("BatchWriteItem", M{"RequestItems": M{t: []any{M{"PutRequest": M{"Item": merge(k, M{"": S("x")})}}}}}, "batch-empty-name"),
			invalid("TransactWriteItems", M{"TransactItems": []any{M{"Put": M{"TableName": t, "Item": merge(k, M{"": S("x")})}}}}, "transact-empty-name"),
			invalid("GetItem", M{"TableName": t, "Key": k, "AttributesToGet": []any{"v", ""}}, "attributes-to-get-empty"),
			invalid("PutItem", M{"TableName": t, "Item": k, "Expected": M{"": M{"Exists": false}}}, "expected-empty"),
			invalid("UpdateItem", M{"TableName": t, "Key": k, "AttributeUpdates": M{"": M{"Action": "PUT", "Value": N("1")}}}, "attribute-updates-empty"),
			invalid("Query", M{"TableName": t, "KeyConditions": M{"": eq}}, "key-conditions-empty"),
			invalid("Query", M{"TableName": t, "KeyConditions": M{"PK": eq}, "QueryFilter": M{"": notNull}}, "query-filter-empty"),
			invalid("Scan", M{"TableName": t, "ScanFilter": M{"": notNull}}, "scan-filter-empty"),
			// Which error comes first: mixing legacy and expression parameters, then the name.
			invalid("PutItem", M{"TableName": t, "Item": k, "Expected": M{"": M{"Exists": false}}, "ConditionExpression": "attribute_exists(v)"}, "expected-empty-mixed"),
			invalid("PutItem", M{"TableName": t, "Item": k, "Expected": M{"": M{"Exists": false}}, "ExpressionAttributeNames": M{"#a": "a"}}, "expected-empty-with-names"),
			rawStep("UpdateItem", `{"TableName":"{{t}}","Key":{"PK":{"S":"u"},"SK":{"S":"s"}},"UpdateExpression":"SET #n = :v","ExpressionAttributeNames":{"#n":"n\udc00"},"ExpressionAttributeValues":{":v":{"N":"1"}}}`, "lone-surrogate-in-name"),
			rawStep("UpdateItem", "{\"TableName\":\"{{t}}\",\"Key\":{\"PK\":{\"S\":\"u\"},\"SK\":{\"S\":\"s\"}},\"UpdateExpression\":\"SET w = :v\",\"ConditionExpression\":\"attribute_not_exists(n\xc3)\",\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1\"}}}", "invalid-utf8-in-expression"),
			withID(step("GetItem", M{"TableName": t, "Key": k}), "get"),
		},
	}
}
