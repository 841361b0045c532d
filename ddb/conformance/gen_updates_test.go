package conformance

import "fmt"

// updateItem is the item each generated update starts from (under its own
// key).
var updateItem = M{
	"str": S("hello"), "num": N("42"), "ss": SS("a", "b"), "ns": NS("1", "2"), "bs": BS("AQ==", "Ag=="),
	"lst": L(S("x"), N("5"), S("y")),
	"a":   Map(M{"b": L(S("zero"), N("1"), Map(M{"c": S("deep")}))}),
	"m":   Map(M{"x": N("1")}),
}

var updateValues = M{
	":n1": N("1"), ":n5": N("5"), ":n0_5": N("0.5"), ":nneg": N("-50"), ":x": S("x"), ":hello": S("hello"),
	":l2": L(S("p"), S("q")), ":ss_c": SS("c"), ":ss_a": SS("a"), ":ss_ab": SS("a", "b"), ":ns_3": NS("3"),
	":ns_1": NS("1"), ":bs_3": BS("Aw=="), ":m": Map(M{"k": S("v")}), ":emptyL": L(), ":emptyM": Map(M{}),
	":empty": S(""), ":null": NULL(),
}

var updateNames = M{"#s": "str", "#n": "num", "#dn": "dotted.name", "#pk": "PK"}

type updateCase struct {
	id, expr, ret, err string
}

var updateCases = []updateCase{
	// SET
	{"set-num", "SET num = :n1", "ALL_NEW", ""},
	{"set-plus", "SET num = num + :n1", "UPDATED_NEW", ""},
	{"set-minus", "SET num = num - :nneg", "UPDATED_NEW", ""},
	{"set-plus-fraction", "SET num = num + :n0_5", "UPDATED_NEW", ""},
	{"set-new", "SET newattr = :hello", "ALL_NEW", ""},
	{"set-deep", "SET a.b[2].c = :x", "ALL_NEW", ""},
	{"set-list-past-end", "SET a.b[9] = :x", "ALL_NEW", ""},
	{"set-list-index", "SET lst[0] = :hello", "UPDATED_NEW", ""},
	{"set-list-append", "SET lst = list_append(lst, :l2)", "UPDATED_NEW", ""},
	{"set-list-prepend", "SET lst = list_append(:l2, lst)", "UPDATED_NEW", ""},
	{"set-list-append-empty", "SET lst = list_append(lst, :emptyL)", "UPDATED_NEW", ""},
	{"set-if-not-exists-new", "SET num2 = if_not_exists(num2, :n1)", "UPDATED_NEW", ""},
	{"set-if-not-exists-old", "SET num = if_not_exists(num, :n1)", "UPDATED_NEW", ""},
	{"set-if-not-exists-plus", "SET cnt = if_not_exists(cnt, :n1) + :n5", "UPDATED_NEW", ""},
	{"set-names", "SET #s = :x, #n = :n5", "UPDATED_OLD", ""},
	{"set-dotted-name", "SET #dn = :x", "ALL_NEW", ""},
	{"set-map-key", "SET m.newkey = :x", "ALL_NEW", ""},
	{"set-map-value", "SET m2 = :m", "UPDATED_NEW", ""},
	{"set-empty-map", "SET m3 = :emptyM, l3 = :emptyL", "UPDATED_NEW", ""},
	{"set-empty-string", "SET str = :empty", "UPDATED_NEW", ""},
	{"set-null", "SET str = :null", "UPDATED_NEW", ""},
	{"set-copy", "SET cpy = a.b", "UPDATED_NEW", ""},
	{"set-missing-parent", "SET nope.x = :x", "NONE", "ValidationException"},
	{"set-index-on-map", "SET m[0] = :x", "NONE", "ValidationException"},
	{"set-plus-string", "SET num = str + :n1", "NONE", "ValidationException"},
	{"set-plus-missing", "SET num = nope + :n1", "NONE", "ValidationException"},
	{"set-list-append-nonlist", "SET lst = list_append(str, :l2)", "NONE", "ValidationException"},
	{"set-if-not-exists-value", "SET num = if_not_exists(:n1, num)", "NONE", "ValidationException"},
	{"set-twice", "SET num = :n1 SET str = :x", "NONE", "ValidationException"},
	{"set-key", "SET PK = :x", "NONE", "ValidationException"},
	{"set-key-name", "SET #pk = :x", "NONE", "ValidationException"},
	{"set-overlap", "SET num = :n1, num = :n5", "NONE", "ValidationException"},
	{"set-overlap-parent", "SET a.b = :x, a = :m", "NONE", "ValidationException"},
	{"set-function-unknown", "SET num = max(num, :n1)", "NONE", "ValidationException"},
	// REMOVE
	{"remove", "REMOVE str", "ALL_NEW", ""},
	{"remove-list-element", "REMOVE a.b[0]", "ALL_NEW", ""},
	{"remove-list-elements", "REMOVE lst[2], lst[0]", "UPDATED_OLD", ""},
	{"remove-missing", "REMOVE nope, lst[7]", "ALL_NEW", ""},
	{"remove-map-key", "REMOVE m.x", "ALL_NEW", ""},
	{"remove-key", "REMOVE SK", "NONE", "ValidationException"},
	{"remove-overlap", "SET num = :n1 REMOVE num", "NONE", "ValidationException"},
	// ADD
	{"add-num", "ADD num :n5", "UPDATED_NEW", ""},
	{"add-new-num", "ADD newnum :nneg", "UPDATED_NEW", ""},
	{"add-set", "ADD ss :ss_c", "UPDATED_NEW", ""},
	{"add-set-existing-member", "ADD ss :ss_a", "UPDATED_NEW", ""},
	{"add-numset", "ADD ns :ns_3", "UPDATED_NEW", ""},
	{"add-binset", "ADD bs :bs_3", "UPDATED_NEW", ""},
	{"add-new-set", "ADD newss :ss_c", "UPDATED_NEW", ""},
	{"add-to-list", "ADD lst :l2", "NONE", "ValidationException"},
	{"add-string", "ADD str :x", "NONE", "ValidationException"},
	{"add-wrong-set-type", "ADD ss :ns_3", "NONE", "ValidationException"},
	{"add-nested", "ADD m.x :n1", "UPDATED_NEW", ""},
	// DELETE
	{"delete-member", "DELETE ss :ss_a", "UPDATED_NEW", ""},
	{"delete-all-members", "DELETE ss :ss_ab", "ALL_NEW", ""},
	{"delete-numset", "DELETE ns :ns_1", "UPDATED_NEW", ""},
	{"delete-missing-attr", "DELETE nope :ss_a", "ALL_NEW", ""},
	{"delete-absent-member", "DELETE ss :ss_c", "UPDATED_NEW", ""},
	{"delete-from-number", "DELETE num :ss_a", "NONE", "ValidationException"},
	{"delete-number-value", "DELETE ss :n1", "NONE", "ValidationException"},
	// combinations and clause order
	{"all-clauses", "SET x = :x REMOVE str ADD num :n1 DELETE ss :ss_a", "ALL_NEW", ""},
	{"clauses-reordered", "DELETE ss :ss_a ADD num :n1 REMOVE str SET x = :x", "ALL_OLD", ""},
	{"lowercase-keywords", "set num = :n1 remove str", "ALL_NEW", ""},
	{"empty-update", "", "NONE", "ValidationException"},
	{"syntax-error", "SET num :n1", "NONE", "ValidationException"},
	{"undefined-value", "SET num = :undefined", "NONE", "ValidationException"},
	{"reserved-word", "SET name = :x", "NONE", "ValidationException"},
}

// updateExpects are the documented responses of the expr-updates steps
// where DynamoDB Local returns whole top-level attributes for UPDATED_OLD or
// UPDATED_NEW (registered in testdata/divergences.json).
var updateExpects = map[string]M{
	"set-list-index":       {"Attributes": M{"lst": L(S("hello"))}},
	"remove-list-elements": {"Attributes": M{"lst": L(S("x"), S("y"))}},
}

// pathsItem is the item of the update-returnvalues-paths case: every
// attribute an update targets holds more than the targeted path, so that
// returning the whole attribute differs from returning the path.
var pathsItem = M{
	"a":   Map(M{"b": Map(M{"c": S("old"), "d": S("keep")}), "x": N("1"), "y": N("2")}),
	"lst": L(S("x"), N("5"), S("y")),
	"n":   Map(M{"cnt": N("5"), "other": N("1")}),
}

// pathsCases are the updates of nested paths of update-returnvalues-paths,
// with the documented Attributes for UPDATED_OLD and UPDATED_NEW (nil: no
// Attributes).
var pathsCases = []struct {
	id, expr string
	old, nw  M
}{
	{"set-nested", "SET a.b.c = :x", M{"a": Map(M{"b": Map(M{"c": S("old")})})}, M{"a": Map(M{"b": Map(M{"c": S("x")})})}},
	{"set-list-element", "SET lst[1] = :x", M{"lst": L(N("5"))}, M{"lst": L(S("x"))}},
	{"remove-nested", "REMOVE a.x", M{"a": Map(M{"x": N("1")})}, nil},
	{"add-nested", "ADD n.cnt :n1", M{"n": Map(M{"cnt": N("5")})}, M{"n": Map(M{"cnt": N("6")})}},
}

func init() {
	var steps []Step
	for i, uc := range updateCases {
		key := M{"PK": S(fmt.Sprintf("u%02d", i)), "SK": S("s")}
		steps = append(steps, withID(step("PutItem", M{"TableName": "{{t}}", "Item": merge(key, updateItem)}), uc.id+":put"))
		req := M{"TableName": "{{t}}", "Key": key, "UpdateExpression": uc.expr, "ReturnValues": uc.ret}
		if v := usedValues(updateValues, uc.expr); len(v) > 0 {
			req["ExpressionAttributeValues"] = v
		}
		if n := usedValues(updateNames, uc.expr); len(n) > 0 {
			req["ExpressionAttributeNames"] = n
		}
		s := step("UpdateItem", req)
		s.Error = uc.err
		if e, ok := updateExpects[uc.id]; ok {
			s = expecting(s, e)
		}
		steps = append(steps, withID(s, uc.id))
		if uc.err != "" {
			// A failed update must leave the item unchanged.
			steps = append(steps, withID(step("GetItem", M{"TableName": "{{t}}", "Key": key}), uc.id+":unchanged"))
		}
	}
	register(Case{
		Name:   "expr-updates",
		Doc:    "SET (arithmetic, if_not_exists, list_append, nested paths), REMOVE, ADD, DELETE and their validation, each on a fresh item, with every ReturnValues mode.",
		Tables: map[string]string{"t": "pksk"},
		Steps:  steps,
	})
	var paths []Step
	for i, pc := range pathsCases {
		for _, ret := range []string{"UPDATED_OLD", "UPDATED_NEW"} {
			key := M{"PK": S(fmt.Sprintf("p%02d", i)), "SK": S(ret)}
			id := pc.id + "-" + map[string]string{"UPDATED_OLD": "old", "UPDATED_NEW": "new"}[ret]
			paths = append(paths, withID(step("PutItem", M{"TableName": "{{t}}", "Item": merge(key, pathsItem)}), id+":put"))
			req := M{"TableName": "{{t}}", "Key": key, "UpdateExpression": pc.expr, "ReturnValues": ret}
			if v := usedValues(updateValues, pc.expr); len(v) > 0 {
				req["ExpressionAttributeValues"] = v
			}
			want := pc.old
			if ret == "UPDATED_NEW" {
				want = pc.nw
			}
			expect := M{}
			if want != nil {
				expect["Attributes"] = want
			}
			paths = append(paths, withID(expecting(step("UpdateItem", req), expect), id))
		}
	}
	register(Case{
		Name:   "update-returnvalues-paths",
		Doc:    "UPDATED_OLD and UPDATED_NEW after updates of nested paths (SET a.b.c, SET lst[1], REMOVE a.x, ADD n.cnt) return only the targeted paths.",
		Tables: map[string]string{"t": "pksk"},
		Steps:  paths,
	})
	register(Case{
		Name:   "update-upsert-and-conditions",
		Doc:    "UpdateItem creates missing items, honours ConditionExpression and ReturnValuesOnConditionCheckFailure.",
		Tables: map[string]string{"t": "pksk"},
		Steps: []Step{
			step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s")}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("1")}, "ReturnValues": "ALL_NEW"}),
			step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("new2"), "SK": S("s")}, "UpdateExpression": "ADD c :one", "ExpressionAttributeValues": M{":one": N("1")}, "ReturnValues": "ALL_OLD"}),
			failStep("UpdateItem", "ConditionalCheckFailedException", M{"TableName": "{{t}}", "Key": M{"PK": S("missing"), "SK": S("s")}, "UpdateExpression": "SET v = :v", "ConditionExpression": "attribute_exists(PK)", "ExpressionAttributeValues": M{":v": N("1")}}),
			failStep("UpdateItem", "ConditionalCheckFailedException", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s")}, "UpdateExpression": "SET v = :v", "ConditionExpression": "v = :zero", "ExpressionAttributeValues": M{":v": N("2"), ":zero": N("0")}, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
			failStep("UpdateItem", "ConditionalCheckFailedException", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s")}, "UpdateExpression": "SET v = :v", "ConditionExpression": "v = :zero", "ExpressionAttributeValues": M{":v": N("2"), ":zero": N("0")}, "ReturnValuesOnConditionCheckFailure": "NONE"}),
			step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s")}, "UpdateExpression": "SET v = v + :v", "ConditionExpression": "v = :one", "ExpressionAttributeValues": M{":v": N("2"), ":one": N("1")}, "ReturnValues": "UPDATED_OLD"}),
			step("GetItem", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s")}, "ConsistentRead": true}),
			failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s")}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("2")}, "ReturnValues": "ALL"}),
			failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("new")}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("2")}}),
			failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": N("1")}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("2")}}),
			failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s"), "X": S("x")}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("2")}}),
			failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S(""), "SK": S("s")}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("2")}}),
			failStep("UpdateItem", "ResourceNotFoundException", M{"TableName": "{{missing}}", "Key": M{"PK": S("new"), "SK": S("s")}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("2")}}),
			failStep("UpdateItem", "ValidationException", M{"TableName": "{{t}}", "Key": M{"PK": S("new"), "SK": S("s")}, "AttributeUpdates": M{"v": M{"Value": N("3"), "Action": "PUT"}}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": M{":v": N("2")}}),
			step("UpdateItem", M{"TableName": "{{t}}", "Key": M{"PK": S("legacy"), "SK": S("s")}, "AttributeUpdates": M{"v": M{"Value": N("3"), "Action": "PUT"}, "c": M{"Value": N("2"), "Action": "ADD"}}, "ReturnValues": "ALL_NEW"}),
		},
	})
}
