package expr_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/expr"
)

const evalItem = `{
	"PK":{"S":"USER#a"}, "s":{"S":"hello"}, "n":{"N":"10"}, "n2":{"N":"9"}, "b":{"B":"AQID"},
	"t":{"BOOL":true}, "z":{"NULL":true}, "ss":{"SS":["x","y"]}, "ns":{"NS":["1","2.5"]},
	"bs":{"BS":["AQ=="]}, "l":{"L":[{"S":"x"},{"N":"3"},{"M":{"k":{"S":"v"}}}]},
	"m":{"M":{"a":{"M":{"b":{"N":"7"}}},"e":{"S":""}}}, "u":{"S":"é€"}, "e":{"S":"é😀"}
}`

func TestCondition_Eval(t *testing.T) {
	vals := `{":s":{"S":"hello"}, ":h":{"S":"he"}, ":x":{"S":"x"}, ":n10":{"N":"10.0"}, ":n9":{"N":"9"},
		":n3":{"N":"3"}, ":n7":{"N":"7"}, ":b":{"B":"AQID"}, ":b1":{"B":"AQ=="}, ":t":{"BOOL":true},
		":one":{"N":"1"}, ":ss":{"SS":["y","x"]}, ":typeS":{"S":"S"}, ":typeN":{"S":"N"}, ":typeM":{"S":"M"},
		":typeNULL":{"S":"NULL"}, ":el":{"M":{"k":{"S":"v"}}}, ":n0":{"N":"0"}, ":n2":{"N":"2"}, ":ll":{"S":"ll"}}`
	tests := []struct {
		expr string
		want bool
	}{
		// comparators
		{"s = :s", true}, {"s = :h", false}, {"n = :n10", true}, {"n <> :n10", false},
		{"n <> :n9", true}, {"n > :n9", true}, {"n >= :n10", true}, {"n < :n9", false},
		{"n <= :n10", true}, {"n2 < n", true}, {"s > :h", true}, {"b = :b", true}, {"b > :b1", true},
		{"t = :t", true}, {"ss = :ss", true}, {"m.a.b = :n7", true}, {"l[1] = :n3", true},
		{"l[2] = :el", true}, {"l[2].k = :s", false}, {"m.e = :s", false},
		// different types: = false, <> true, ordering false
		{"s = :n10", false}, {"s <> :n10", true}, {"s < :n10", false}, {"s > :n10", false},
		// absent attributes
		{"absent = :s", false}, {"absent <> :s", true}, {"absent <> nope", true}, {"absent = nope", false}, {"absent < :s", false},
		{"m.nope = :s", false}, {"l[9] = :x", false}, {"s.x = :s", false}, {"s[0] = :s", false},
		// BETWEEN and IN
		{"n BETWEEN :n9 AND :n10", true}, {"n BETWEEN :one AND :n9", false},
		{"s BETWEEN :h AND :s", true}, {"s BETWEEN :one AND :n10", false}, {"absent BETWEEN :one AND :n9", false},
		{"n IN (:one, :n10)", true}, {"n IN (:one, :n9)", false}, {"s IN (:s)", true}, {"absent IN (:s)", false},
		// functions
		{"attribute_exists(s)", true}, {"attribute_exists(absent)", false}, {"attribute_exists(m.a.b)", true},
		{"attribute_exists(l[5])", false}, {"attribute_not_exists(absent)", true}, {"attribute_not_exists(s)", false},
		{"attribute_type(s, :typeS)", true}, {"attribute_type(n, :typeN)", true}, {"attribute_type(m, :typeM)", true},
		{"attribute_type(z, :typeNULL)", true}, {"attribute_type(s, :typeN)", false}, {"attribute_type(absent, :typeS)", false},
		{"begins_with(s, :h)", true}, {"begins_with(s, :x)", false}, {"begins_with(b, :b1)", true},
		{"begins_with(n, :h)", false}, {"begins_with(absent, :h)", false},
		{"contains(s, :ll)", true}, {"contains(s, :x)", false}, {"contains(ss, :x)", true},
		{"contains(ns, :n2)", false}, {"contains(l, :x)", true}, {"contains(l, :n3)", true}, {"contains(l, :el)", true},
		{"contains(bs, :b1)", true}, {"contains(n, :one)", false}, {"contains(absent, :x)", false},
		{"contains(s, n)", false},
		// size
		{"size(s) = :n10", false}, {"size(s) < :n10", true}, {"size(ss) = :n2", true}, {"size(l) = :n3", true},
		{"size(m) = :n2", true}, {"size(b) = :n3", true}, {"size(u) = :n2", true}, {"size(e) = :n3", true}, {"size(:h) = :n2", true}, {"size(n) >= :n0", false},
		{"size(t) = :one", false}, {"size(absent) >= :n0", false}, {"size(m.a) = :one", true},
		// logic and precedence: NOT > AND > OR
		{"s = :s AND n = :n10", true}, {"s = :s AND n = :n9", false}, {"s = :x OR n = :n10", true},
		{"NOT s = :x", true}, {"NOT s = :s", false}, {"not s = :s or n = :n10", true},
		{"s = :x AND n = :n9 OR n = :n10", true},    // (F AND F) OR T
		{"n = :n10 OR s = :x AND n = :n9", true},    // T OR (F AND F)
		{"(n = :n10 OR s = :x) AND n = :n9", false}, // parentheses
		{"NOT n = :n10 AND s = :x", false},          // (NOT T) AND F
		{"NOT (n = :n9 AND s = :x)", true},          // NOT (F AND F)
		{"NOT NOT s = :s", true},                    // double negation
		{"NOT n = :n9 OR s = :x", true},             // (NOT F) OR F
		{"s = :x OR NOT attribute_exists(absent) AND n = :n10", true},
		{"(s = :s)", true},
		{"#k = :s", true},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			c, err := expr.ParseCondition(tt.expr)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			names := map[string]string{}
			if strings.Contains(tt.expr, "#k") {
				names["#k"] = "s"
			}
			b, err := c.Bind(expr.NewParams(names, values(t, vals)))
			if err != nil {
				t.Fatalf("bind: %v", err)
			}
			if got := b.Eval(item(t, evalItem)); got != tt.want {
				t.Fatalf("Eval = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCondition_EvalNilItem(t *testing.T) {
	c, _ := expr.ParseCondition("attribute_not_exists(PK)")
	b, err := c.Bind(expr.NewParams(nil, nil))
	if err != nil || !b.Eval(nil) {
		t.Fatalf("attribute_not_exists on a absent item: %v %v", err, b)
	}
}

func TestParseCondition_Errors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{"", "Invalid ConditionExpression: The expression can not be empty;"},
		{"   ", "Invalid ConditionExpression: The expression can not be empty;"},
		{"a-b", `Invalid ConditionExpression: Syntax error; token: "-", near: "a-b"`},
		{"a x b", `Invalid ConditionExpression: Syntax error; token: "x", near: "a x b"`},
		{"attribute_exists(a) AND NOT #b", `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "#b"`},
		{"()", `Invalid ConditionExpression: Syntax error; token: ")", near: "()"`},
		{"a = :v AND", `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "AND"`},
		{"a = = :v", `Invalid ConditionExpression: Syntax error; token: "=", near: "= = :v"`},
		{"a = :v b = :w", `Invalid ConditionExpression: Syntax error; token: "b", near: ":v b ="`},
		{"(a = :v", `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ":v"`},
		{"a = :v)", `Invalid ConditionExpression: Syntax error; token: ")", near: ":v)"`},
		{"a BETWEEN :x :y", `Invalid ConditionExpression: Syntax error; token: ":y", near: ":x :y"`},
		{"a IN :x", `Invalid ConditionExpression: Syntax error; token: ":x", near: "IN :x"`},
		{"a = $", `Invalid ConditionExpression: Syntax error; token: "$", near: "= $"`},
		{"a[x] = :v", `Invalid ConditionExpression: Syntax error; token: "x", near: "[x]"`},
		{"a = #", `Invalid ConditionExpression: Syntax error; token: "#", near: "= #"`},
		{"name = :v", "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{"a.Status = :v", "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: Status"},
		{"((a = :v))", "Invalid ConditionExpression: The expression has redundant parentheses;"},
		{"NOT ((a = :v))", "Invalid ConditionExpression: The expression has redundant parentheses;"},
		{"(a = :v) AND ((b = :v))", "Invalid ConditionExpression: The expression has redundant parentheses;"},
		{"name = :w AND ((a = :w))", "Invalid ConditionExpression: The expression has redundant parentheses;"},
		// Syntax errors come first, then unknown functions and reserved
		// words in source order, then function checks.
		{"name x", `Invalid ConditionExpression: Syntax error; token: "x", near: "name x"`},
		{"a = :v AND name = :v x", `Invalid ConditionExpression: Syntax error; token: "x", near: ":v x"`},
		{"a = :w AND foo(b)", "Invalid ConditionExpression: Invalid function name; function: foo"},
		{"name = :w AND foo(b)", "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{"foo(b) AND name = :w", "Invalid ConditionExpression: Invalid function name; function: foo"},
		{"begins_with(a) AND name = :w", "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{"_a = :v", `Invalid ConditionExpression: Syntax error; token: "_", near: "_a"`},
		{"1a = :v", `Invalid ConditionExpression: Syntax error; token: "1", near: "1a"`},
		{"a.1 = :v", `Invalid ConditionExpression: Syntax error; token: "1", near: ".1 ="`},
		{"a[-1] = :v", `Invalid ConditionExpression: Syntax error; token: "-", near: "[-1"`},
		{"a[2147483648] = :v", "Invalid ConditionExpression: List index is not within the allowable range; index: [2147483648]"},
		{"foo(a)", "Invalid ConditionExpression: Invalid function name; function: foo"},
		{"begins_with(a)", "Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"},
		{"attribute_exists(a, b)", "Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"},
		{"attribute_exists(:v)", "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"},
		{"size(a)", "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: size"},
		{"a IN ()", `Invalid ConditionExpression: Syntax error; token: ")", near: "()"`},
		{"ATTRIBUTE_EXISTS(a)", "Invalid ConditionExpression: Invalid function name; function: ATTRIBUTE_EXISTS"},
		{"if_not_exists(a, :v) = :v", "Invalid ConditionExpression: The function is not allowed in a condition expression; function: if_not_exists"},
		{"a = attribute_exists(b)", "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"},
		{"a IN (" + strings.Repeat(":v,", 100) + ":v)", "Invalid ConditionExpression: The expression contains too many operands for the IN operator; maximum: 100, number of operands: 101"},
		{"a = :" + strings.Repeat("v", 4096), "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4101"},
		// At most 300 operators and functions (answers recorded from DynamoDB Local).
		{chain(151, "AND", "a = :v"), "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
		{chain(151, "OR", "attribute_exists(a)"), "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
		{strings.Repeat("NOT ", 300) + "attribute_exists(a)", "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
		{chain(150, "AND", "size(a) > :v"), "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
		{chain(151, "AND", "a = :v") + " AND )", "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
	}
	for _, tt := range tests {
		_, err := expr.ParseCondition(tt.expr)
		if got := message(t, err); got != tt.msg {
			t.Errorf("ParseCondition(%q)\n got: %s\nwant: %s", tt.expr, got, tt.msg)
		}
	}
	if _, err := expr.ParseFilter("a-b"); message(t, err) != `Invalid FilterExpression: Syntax error; token: "-", near: "a-b"` {
		t.Errorf("ParseFilter kind: %v", err)
	}
}

func TestCondition_BindErrors(t *testing.T) {
	vals := `{":s":{"S":"a"}, ":n":{"N":"1"}, ":n5":{"N":"5"}, ":t":{"BOOL":true}, ":l":{"L":[]}, ":bad":{"S":"STRING"}}`
	tests := []struct {
		expr  string
		names map[string]string
		msg   string
	}{
		{"#x = :s", nil, "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #x"},
		{"a = :nope", nil, "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :nope"},
		{"a < :t", nil, "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
		{"a BETWEEN :s AND :l", nil, "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: L"},
		{"a BETWEEN :n5 AND :n", nil, "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}"},
		{"begins_with(a, :n)", nil, "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"attribute_type(a, :n)", nil, "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
		{"attribute_type(a, :bad)", nil, "Invalid ConditionExpression: Invalid attribute type name found; type: STRING, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"},
		{"a BETWEEN :n AND :s", nil, "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}"},
		{"a = a", nil, "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"},
		{"contains(#a, #a)", map[string]string{"#a": "data"}, "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [data]"},
	}
	for _, tt := range tests {
		c, err := expr.ParseCondition(tt.expr)
		if err != nil {
			t.Fatalf("parse %q: %v", tt.expr, err)
		}
		_, err = c.Bind(expr.NewParams(tt.names, values(t, vals)))
		if got := message(t, err); got != tt.msg {
			t.Errorf("Bind(%q)\n got: %s\nwant: %s", tt.expr, got, tt.msg)
		}
	}
}

func TestParams_CheckUnused(t *testing.T) {
	c, _ := expr.ParseCondition("#a = :a")
	u, _ := expr.ParseUpdate("SET #b = :b")
	if got := c.Names(); len(got) != 1 || got[0] != "#a" {
		t.Fatalf("Names = %v", got)
	}
	if got := u.Values(); len(got) != 1 || got[0] != ":b" {
		t.Fatalf("Values = %v", got)
	}
	vals := values(t, `{":a":{"S":"1"}, ":b":{"S":"2"}, ":c":{"S":"3"}, ":d":{"S":"4"}}`)
	p := expr.NewParams(map[string]string{"#a": "a", "#b": "b"}, vals)
	if _, err := c.Bind(p); err != nil {
		t.Fatal(err)
	}
	if got := message(t, p.CheckUnused()); got != "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}" {
		t.Fatalf("names: %s", got)
	}
	if _, err := u.Bind(p); err != nil {
		t.Fatal(err)
	}
	if got := message(t, p.CheckUnused()); got != "Value provided in ExpressionAttributeValues unused in expressions: keys: {:c, :d}" {
		t.Fatalf("values: %s", got)
	}
	delete(vals, ":c")
	delete(vals, ":d")
	if err := p.CheckUnused(); err != nil {
		t.Fatal(err)
	}
}

func TestIsReserved(t *testing.T) {
	for _, w := range []string{"name", "NAME", "Status", "timestamp", "user", "data", "size", "zone", "abort"} {
		if !expr.IsReserved(w) {
			t.Errorf("%s should be reserved", w)
		}
	}
	for _, w := range []string{"username", "PK", "SK", "email", "followers", "reactions", "pinnedImage"} {
		if expr.IsReserved(w) {
			t.Errorf("%s should not be reserved", w)
		}
	}
}

// chain is n copies of term joined by op: n terms and n-1 operators between them.
func chain(n int, op, term string) string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = term
	}
	return strings.Join(terms, " "+op+" ")
}

// TestCondition_BindSharesWhatHasNoPlaceholder checks that binding shares
// the parsed subtrees with nothing to substitute, and that the parsed tree,
// shared by every request through the expression cache, is left as parsed:
// binding it again with other values gives their answer.
func TestCondition_BindSharesWhatHasNoPlaceholder(t *testing.T) {
	plain, _ := expr.ParseCondition("attribute_exists(PK)")
	b, err := plain.Bind(expr.NewParams(nil, nil))
	if err != nil || b.Root != plain.Root {
		t.Fatalf("a condition without placeholders was copied: %v", err)
	}

	c, _ := expr.ParseCondition("attribute_exists(PK) AND n = :v")
	it := item(t, evalItem)
	for _, tt := range []struct {
		v    string
		want bool
	}{{`{":v":{"N":"10"}}`, true}, {`{":v":{"N":"9"}}`, false}, {`{":v":{"N":"10"}}`, true}} {
		b, err := c.Bind(expr.NewParams(nil, values(t, tt.v)))
		if err != nil {
			t.Fatal(err)
		}
		if b.Root == c.Root || b.Root.Left != c.Root.Left {
			t.Errorf("%s: the bound tree should share attribute_exists(PK) and copy the rest", tt.v)
		}
		if got := b.Eval(it); got != tt.want {
			t.Errorf("%s: Eval = %v, want %v", tt.v, got, tt.want)
		}
	}
}
