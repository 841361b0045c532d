package conformance

import "fmt"

// exprItem is the item every generated condition is evaluated against.
var exprItem = M{
	"PK": S("p"), "SK": S("s"),
	"str": S("hello"), "num": N("42"), "neg": N("-3.5"), "bin": B("AQID"),
	"bool": BOOL(true), "nul": NULL(), "emp": S(""),
	"ss": SS("a", "b"), "ns": NS("1", "2"), "bs": BS("AQ==", "Ag=="),
	"lst":         L(S("x"), N("5"), S("y")),
	"a":           Map(M{"b": L(S("zero"), N("1"), Map(M{"c": S("deep")}))}),
	"m":           Map(M{"x": N("1")}),
	"dotted.name": S("dotted"), "Year": N("2020"),
	"big": N("12345678901234567890123456789012345678"),
}

// exprValues are the placeholders conditions may use; each request carries
// only those it uses.
var exprValues = M{
	":pk": S("p"), ":n1": N("1"), ":n2": N("2"), ":n3": N("3"), ":n5": N("5"),
	":n40": N("40"), ":n41": N("41"), ":n42": N("42"), ":n43": N("43"), ":n50": N("50"),
	":n42f": N("42.000"), ":nneg": N("-3.50"), ":n4": N("4"),
	":hello": S("hello"), ":he": S("he"), ":ell": S("ell"), ":s_a": S("a"), ":s_i": S("i"),
	":s_z": S("z"), ":nope": S("nope"), ":deep": S("deep"), ":zero": S("zero"), ":x": S("x"),
	":true": BOOL(true), ":false": BOOL(false), ":null": NULL(), ":empty": S(""), ":dv": S("dotted"),
	":b123": B("AQID"), ":b1": B("AQ=="), ":b2": B("Ag=="),
	":typeN": S("N"), ":typeS": S("S"), ":typeNULL": S("NULL"), ":typeSS": S("SS"),
	":typeL": S("L"), ":typeM": S("M"), ":typeBOOL": S("BOOL"), ":typeB": S("B"), ":bad": S("X"),
	":ss_ba": SS("b", "a"), ":ns21": NS("2", "1"), ":ss_a": SS("a"),
	":list": L(S("x"), N("5"), S("y")), ":m": Map(M{"x": N("1")}),
	":big": N("12345678901234567890123456789012345678"), ":big1": N("12345678901234567890123456789012345679"),
}

// exprNames are the name placeholders conditions may use.
var exprNames = M{"#dn": "dotted.name", "#m": "m", "#x": "x", "#yr": "Year", "#num": "num", "#s": "str", "#a": "a", "#b": "b"}

// conditionCase is one FilterExpression and whether it holds for exprItem
// ("" error means it must be valid).
type conditionCase struct {
	expr string
	want bool
	err  string
}

var conditionCases = []conditionCase{
	// comparators on numbers
	{"num = :n42", true, ""}, {"num = :n42f", true, ""}, {"num <> :n42", false, ""}, {"num <> :n41", true, ""},
	{"num < :n50", true, ""}, {"num < :n42", false, ""}, {"num <= :n42", true, ""}, {"num > :n41", true, ""},
	{"num > :n42", false, ""}, {"num >= :n43", false, ""}, {"num >= :n42", true, ""}, {"neg = :nneg", true, ""},
	{"neg < :n1", true, ""}, {"big < :big1", true, ""}, {"big = :big", true, ""},
	// strings and binary
	{"str = :hello", true, ""}, {"str < :s_i", true, ""}, {"str > :s_a", true, ""}, {"str >= :s_z", false, ""},
	{"bin = :b123", true, ""}, {"bin < :b2", true, ""}, {"bin > :b1", true, ""},
	// different types never compare
	{"num = :hello", false, ""}, {"num < :hello", false, ""}, {"num <> :hello", true, ""}, {"str > :n1", false, ""},
	// BETWEEN and IN
	{"num BETWEEN :n40 AND :n50", true, ""}, {"num BETWEEN :n42 AND :n42", true, ""}, {"num BETWEEN :n43 AND :n50", false, ""},
	{"str BETWEEN :s_a AND :s_z", true, ""}, {"num BETWEEN :n50 AND :n40", false, "ValidationException"},
	{"num IN (:n1, :n42)", true, ""}, {"str IN (:s_a)", false, ""}, {"str IN (:s_a, :hello, :x)", true, ""},
	// functions
	{"attribute_exists(str)", true, ""}, {"attribute_exists(nope)", false, ""}, {"attribute_not_exists(nope)", true, ""},
	{"attribute_not_exists(str)", false, ""}, {"attribute_exists(nul)", true, ""},
	{"attribute_type(num, :typeN)", true, ""}, {"attribute_type(num, :typeS)", false, ""}, {"attribute_type(nul, :typeNULL)", true, ""},
	{"attribute_type(ss, :typeSS)", true, ""}, {"attribute_type(lst, :typeL)", true, ""}, {"attribute_type(m, :typeM)", true, ""},
	{"attribute_type(bool, :typeBOOL)", true, ""}, {"attribute_type(bin, :typeB)", true, ""}, {"attribute_type(num, :bad)", false, "ValidationException"},
	{"begins_with(str, :he)", true, ""}, {"begins_with(str, :ell)", false, ""}, {"begins_with(bin, :b1)", true, ""},
	{"begins_with(num, :n4)", false, "ValidationException"}, {"begins_with(str, :empty)", true, ""},
	{"contains(str, :ell)", true, ""}, {"contains(str, :nope)", false, ""}, {"contains(ss, :s_a)", true, ""},
	{"contains(ns, :n1)", true, ""}, {"contains(ns, :n5)", false, ""}, {"contains(lst, :x)", true, ""}, {"contains(lst, :n5)", true, ""},
	{"contains(bs, :b1)", true, ""}, {"contains(num, :n4)", false, ""}, {"contains(bin, :b2)", true, ""},
	{"size(str) = :n5", true, ""}, {"size(ss) = :n2", true, ""}, {"size(lst) = :n3", true, ""}, {"size(m) = :n1", true, ""},
	{"size(bin) = :n3", true, ""}, {"size(a.b) > :n2", true, ""}, {"size(nope) = :n1", false, ""}, {"size(num) = :n2", false, ""},
	{"size(emp) = :n1", false, ""},
	// logic and precedence
	{"num = :n42 AND str = :hello", true, ""}, {"num = :n1 OR str = :hello", true, ""}, {"NOT num = :n1", true, ""},
	{"NOT num = :n1 AND str = :nope", false, ""}, {"num = :n1 OR num = :n42 AND str = :nope", false, ""},
	{"(num = :n1 OR num = :n42) AND str = :hello", true, ""}, {"NOT (num = :n42 AND str = :hello)", false, ""},
	{"NOT attribute_exists(nope) AND NOT NOT bool = :true", true, ""}, {"num = :n1 OR num = :n2 OR num = :n42", true, ""},
	{"((num = :n42))", false, "ValidationException"}, {"(num = :n42)", true, ""},
	// document paths
	{"a.b[2].c = :deep", true, ""}, {"a.b[0] = :zero", true, ""}, {"a.b[5] = :zero", false, ""}, {"attribute_exists(a.b[2].c)", true, ""},
	{"attribute_not_exists(a.b[2].d)", true, ""}, {"#a.#b[1] = :n1", true, ""}, {"#dn = :dv", true, ""}, {"attribute_exists(dotted.x)", false, ""}, {"attribute_exists(dotted.name)", false, "ValidationException"},
	{"#m.#x = :n1", true, ""}, {"m.x = :n1", true, ""}, {"lst[1] = :n5", true, ""}, {"str[0] = :hello", false, ""},
	// scalars, sets, documents
	{"bool = :true", true, ""}, {"bool = :false", false, ""}, {"nul = :null", true, ""}, {"emp = :empty", true, ""},
	{"ss = :ss_ba", true, ""}, {"ns = :ns21", true, ""}, {"ss = :ss_a", false, ""}, {"lst = :list", true, ""}, {"m = :m", true, ""},
	{"#yr = :n3", false, ""}, {"#num = :n42", true, ""},
	// invalid expressions
	{"num = :undefined", false, "ValidationException"}, {"#undefined = :n1", false, "ValidationException"},
	{"year = :n1", false, "ValidationException"}, {"list = :list", false, "ValidationException"}, {"size(empty) = :n1", false, "ValidationException"}, {"num = = :n1", false, "ValidationException"},
	{"foo(num)", false, "ValidationException"}, {"attribute_exists(:n1)", false, "ValidationException"},
	{"num", false, "ValidationException"}, {"size(str)", false, "ValidationException"}, {"num = :n1 AND", false, "ValidationException"},
	{"PK = :pk", false, "ValidationException"}, {"SK = :pk", false, "ValidationException"},
	{"a.b[-1] = :n1", false, "ValidationException"}, {"begins_with(str)", false, "ValidationException"},
	{"contains(str, :ell, :he)", false, "ValidationException"}, {"num IN ()", false, "ValidationException"},
	{"num BETWEEN :n1", false, "ValidationException"}, {"attribute_exists(str) = :true", false, "ValidationException"},
}

func init() {
	var steps []Step
	steps = append(steps, step("PutItem", M{"TableName": "{{t}}", "Item": exprItem}))
	for i, cc := range conditionCases {
		values := usedValues(exprValues, cc.expr, ":pk")
		req := M{
			"TableName":                 "{{t}}",
			"KeyConditionExpression":    "PK = :pk",
			"FilterExpression":          cc.expr,
			"Select":                    "COUNT",
			"ExpressionAttributeValues": values,
		}
		if names := usedValues(exprNames, cc.expr); len(names) > 0 {
			req["ExpressionAttributeNames"] = names
		}
		var s Step
		if cc.err != "" {
			s = failStep("Query", cc.err, req)
		} else {
			count := 0
			if cc.want {
				count = 1
			}
			s = expecting(step("Query", req), M{"Count": count, "ScannedCount": 1})
		}
		steps = append(steps, withID(s, fmt.Sprintf("filter-%02d", i)))
	}
	// Request-level validation of names and values.
	bad := []struct {
		id  string
		req M
	}{
		{"unused-value", M{"FilterExpression": "num = :n42", "ExpressionAttributeValues": M{":pk": S("p"), ":n42": N("42"), ":unused": S("u")}}},
		{"unused-name", M{"FilterExpression": "num = :n42", "ExpressionAttributeValues": M{":pk": S("p"), ":n42": N("42")}, "ExpressionAttributeNames": M{"#unused": "x"}}},
		{"empty-values", M{"KeyConditionExpression": "PK = p", "ExpressionAttributeValues": M{}}},
		{"empty-filter", M{"FilterExpression": "", "ExpressionAttributeValues": M{":pk": S("p")}}},
		{"two-types", M{"FilterExpression": "num = :v", "ExpressionAttributeValues": M{":pk": S("p"), ":v": M{"S": "a", "N": "1"}}}},
		{"no-type", M{"FilterExpression": "num = :v", "ExpressionAttributeValues": M{":pk": S("p"), ":v": M{}}}},
		{"empty-set", M{"FilterExpression": "ss = :v", "ExpressionAttributeValues": M{":pk": S("p"), ":v": SS()}}},
		{"dup-set", M{"FilterExpression": "ss = :v", "ExpressionAttributeValues": M{":pk": S("p"), ":v": SS("a", "a")}}},
		{"dup-numset", M{"FilterExpression": "ns = :v", "ExpressionAttributeValues": M{":pk": S("p"), ":v": NS("1", "1.0")}}},
		{"bad-number", M{"FilterExpression": "num = :v", "ExpressionAttributeValues": M{":pk": S("p"), ":v": N("forty")}}},
		{"value-name-syntax", M{"FilterExpression": "num = :v", "ExpressionAttributeValues": M{":pk": S("p"), "v": N("1"), ":v": N("1")}}},
	}
	for _, b := range bad {
		req := merge(M{"TableName": "{{t}}", "KeyConditionExpression": "PK = :pk"}, b.req)
		steps = append(steps, withID(failStep("Query", "ValidationException", req), b.id))
	}
	register(Case{
		Name:   "expr-conditions",
		Doc:    "Every comparator, function, precedence rule and document path of the condition language, as a Query FilterExpression with Select COUNT over one item.",
		Tables: map[string]string{"t": "pksk"},
		Steps:  steps,
	})
}
