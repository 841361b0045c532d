package expr_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

const updateVals = `{":s":{"S":"new"}, ":one":{"N":"1"}, ":half":{"N":"0.5"}, ":l":{"L":[{"S":"z"}]},
	":ss":{"SS":["b","c"]}, ":ns":{"NS":["2","3"]}, ":bs":{"BS":["AQ=="]}, ":ssa":{"SS":["a"]},
	":m":{"M":{"k":{"N":"1"}}}, ":big":{"N":"99999999999999999999999999999999999999"}}`

const updateItem = `{"PK":{"S":"p"}, "n":{"N":"10"}, "s":{"S":"old"}, "l":{"L":[{"S":"a"},{"S":"b"},{"S":"c"},{"S":"d"}]},
	"ss":{"SS":["a","b"]}, "ns":{"NS":["1","2"]}, "m":{"M":{"x":{"N":"1"},"deep":{"M":{}}}}, "bs":{"BS":["AQ==","Ag=="]}}`

func TestUpdate_Apply(t *testing.T) {
	tests := []struct {
		name, expr string
		item       string // "" means no item
		want       string // the changed attributes only, merged over item
		removed    []string
	}{
		{"set value", "SET s = :s", updateItem, `{"s":{"S":"new"}}`, nil},
		{"set new attr", "SET x = :s", updateItem, `{"x":{"S":"new"}}`, nil},
		{"set on no item", "SET x = :s", "", `{"x":{"S":"new"}}`, nil},
		{"set from path", "SET x = s", updateItem, `{"x":{"S":"old"}}`, nil},
		{"set plus", "SET n = n + :one", updateItem, `{"n":{"N":"11"}}`, nil},
		{"set minus", "SET n = n - :half", updateItem, `{"n":{"N":"9.5"}}`, nil},
		{"set value minus path", "SET n = :one - n", updateItem, `{"n":{"N":"-9"}}`, nil},
		{"set exact decimal", "SET n = :big + :one", updateItem, `{"n":{"N":"100000000000000000000000000000000000000"}}`, nil},
		{"if_not_exists absent", "SET x = if_not_exists(x, :one)", updateItem, `{"x":{"N":"1"}}`, nil},
		{"if_not_exists present", "SET n = if_not_exists(n, :one)", updateItem, `{"n":{"N":"10"}}`, nil},
		{"append idiom", "SET x = list_append(if_not_exists(x, :l), :l)", updateItem, `{"x":{"L":[{"S":"z"},{"S":"z"}]}}`, nil},
		{"counter idiom", "SET c = if_not_exists(c, :one) + :one", updateItem, `{"c":{"N":"2"}}`, nil},
		{"list_append", "SET l = list_append(l, :l)", updateItem, `{"l":{"L":[{"S":"a"},{"S":"b"},{"S":"c"},{"S":"d"},{"S":"z"}]}}`, nil},
		{"list_append prepend", "SET l = list_append(:l, l)", updateItem, `{"l":{"L":[{"S":"z"},{"S":"a"},{"S":"b"},{"S":"c"},{"S":"d"}]}}`, nil},
		{"set list element", "SET l[1] = :s", updateItem, `{"l":{"L":[{"S":"a"},{"S":"new"},{"S":"c"},{"S":"d"}]}}`, nil},
		{"set list past end appends", "SET l[10] = :s", updateItem, `{"l":{"L":[{"S":"a"},{"S":"b"},{"S":"c"},{"S":"d"},{"S":"new"}]}}`, nil},
		{"set nested map", "SET m.y = :s, m.deep.z = :one", updateItem, `{"m":{"M":{"x":{"N":"1"},"y":{"S":"new"},"deep":{"M":{"z":{"N":"1"}}}}}}`, nil},
		{"set swaps use old values", "SET s = n, n = s", updateItem, `{"s":{"N":"10"},"n":{"S":"old"}}`, nil},
		{"set map value", "SET #r = :m", updateItem, `{"reactions":{"M":{"k":{"N":"1"}}}}`, nil},
		{"remove", "REMOVE s, absent", updateItem, `{}`, []string{"s"}},
		{"remove nested", "REMOVE m.x", updateItem, `{"m":{"M":{"deep":{"M":{}}}}}`, nil},
		{"remove list elements use original indexes", "REMOVE l[0], l[2]", updateItem, `{"l":{"L":[{"S":"b"},{"S":"d"}]}}`, nil},
		{"remove list element past end", "REMOVE l[9]", updateItem, `{}`, nil},
		{"remove absent key of map", "REMOVE m.absent", updateItem, `{}`, nil},
		{"delete absent key of map", "DELETE m.absent :ss", updateItem, `{}`, nil},
		{"add to nested map", "ADD m.y :one", updateItem, `{"m":{"M":{"x":{"N":"1"},"y":{"N":"1"},"deep":{"M":{}}}}}`, nil},
		{"set then remove other list element", "SET l[0] = :s REMOVE l[1]", updateItem, `{"l":{"L":[{"S":"new"},{"S":"c"},{"S":"d"}]}}`, nil},
		{"add number", "ADD n :one", updateItem, `{"n":{"N":"11"}}`, nil},
		{"add number creates", "ADD c :one", updateItem, `{"c":{"N":"1"}}`, nil},
		{"add set", "ADD ss :ss", updateItem, `{"ss":{"SS":["a","b","c"]}}`, nil},
		{"add number set", "ADD ns :ns", updateItem, `{"ns":{"NS":["1","2","3"]}}`, nil},
		{"add set creates", "ADD x :ss", "", `{"x":{"SS":["b","c"]}}`, nil},
		{"delete set members", "DELETE ss :ssa", updateItem, `{"ss":{"SS":["b"]}}`, nil},
		{"delete empties set", "DELETE ss :ss, ns :ns", updateItem + ``, `{"ss":{"SS":["a"]},"ns":{"NS":["1"]}}`, nil},
		{"delete last removes attr", "DELETE bs :bs", `{"bs":{"BS":["AQ=="]}}`, `{}`, []string{"bs"}},
		{"delete absent", "DELETE x :ss", updateItem, `{}`, nil},
		{"all clauses", "SET s = :s REMOVE n ADD c :one DELETE ss :ssa", updateItem, `{"s":{"S":"new"},"c":{"N":"1"},"ss":{"SS":["b"]}}`, []string{"n"}},
		{"lowercase keywords", "set s = :s remove n", updateItem, `{"s":{"S":"new"}}`, []string{"n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := expr.ParseUpdate(tt.expr)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			names := map[string]string{}
			if tt.name == "set map value" {
				names["#r"] = "reactions"
			}
			b, err := u.Bind(expr.NewParams(names, values(t, updateVals)), "PK")
			if err != nil {
				t.Fatalf("bind: %v", err)
			}
			orig := item(t, tt.item)
			before := itemJSON(orig)
			got, err := b.Apply(orig)
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			if itemJSON(orig) != before {
				t.Fatalf("Apply modified its input")
			}
			want := orig.ShallowClone()
			if want == nil {
				want = attr.Item{}
			}
			for k, v := range item(t, tt.want) {
				want[k] = v
			}
			for _, k := range tt.removed {
				delete(want, k)
			}
			if !attr.EqualItems(got, want) {
				t.Fatalf("got  %s\nwant %s", itemJSON(got), itemJSON(want))
			}

			// ApplyInPlace gives the same item, made of its input's top
			// level; values nested in it, which src shares, stay as they
			// were.
			src := item(t, tt.item)
			own := src.ShallowClone()
			got, err = b.ApplyInPlace(own)
			if err != nil {
				t.Fatalf("apply in place: %v", err)
			}
			if !attr.EqualItems(got, want) {
				t.Fatalf("in place: got  %s\nwant %s", itemJSON(got), itemJSON(want))
			}
			if own != nil && itemJSON(own) != itemJSON(got) {
				t.Fatalf("ApplyInPlace left its input %s, want it changed to %s", itemJSON(own), itemJSON(got))
			}
			if itemJSON(src) != before {
				t.Fatalf("ApplyInPlace changed a value nested in its input")
			}
		})
	}
}

func TestUpdate_ApplyErrors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{"SET x = absent + :one", "The provided expression refers to an attribute that does not exist in the item"},
		{"SET x = absent", "The provided expression refers to an attribute that does not exist in the item"},
		{"SET x = s + :one", "An operand in the update expression has an incorrect data type"},
		{"SET x = list_append(s, :l)", "An operand in the update expression has an incorrect data type"},
		{"SET a.b = :s", "The document path provided in the update expression is invalid for update"},
		{"SET s.b = :s", "The document path provided in the update expression is invalid for update"},
		{"SET s[0] = :s", "The document path provided in the update expression is invalid for update"},
		{"SET l[9].x = :s", "The document path provided in the update expression is invalid for update"},
		{"SET n = n + n", "Attempting to store more than 38 significant digits in a Number"},
		{"REMOVE absent.x", "The document path provided in the update expression is invalid for update"},
		{"REMOVE l[3].x", "The document path provided in the update expression is invalid for update"},
		{"DELETE absent.x :ss", "The document path provided in the update expression is invalid for update"},
		{"ADD absent.x :one", "The document path provided in the update expression is invalid for update"},
		{"ADD s :one", "An operand in the update expression has an incorrect data type"},
		{"ADD ss :ns", "An operand in the update expression has an incorrect data type"},
		{"DELETE n :ns", "An operand in the update expression has an incorrect data type"},
		{"REMOVE s.x", "The document path provided in the update expression is invalid for update"},
	}
	big := `{"n":{"N":"9.9999999999999999999999999999999999999E+125"}, "s":{"S":"x"}, "ss":{"SS":["a"]}, "l":{"L":[]}}`
	for _, tt := range tests {
		u, err := expr.ParseUpdate(tt.expr)
		if err != nil {
			t.Fatalf("parse %q: %v", tt.expr, err)
		}
		b, err := u.Bind(expr.NewParams(nil, values(t, updateVals)))
		if err != nil {
			t.Fatalf("bind %q: %v", tt.expr, err)
		}
		_, err = b.Apply(item(t, big))
		if got := message(t, err); got != tt.msg {
			t.Errorf("Apply(%q)\n got: %s\nwant: %s", tt.expr, got, tt.msg)
		}
	}
}

func TestParseUpdate_Errors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{"", "Invalid UpdateExpression: The expression can not be empty;"},
		{"INVALID SYNTAX HERE", `Invalid UpdateExpression: Syntax error; token: "INVALID", near: "INVALID SYNTAX"`},
		{"SET a = :v SET b = :w", `Invalid UpdateExpression: The "SET" section can only be used once in an update expression;`},
		{"SET a = :v, REMOVE b", `Invalid UpdateExpression: Syntax error; token: "REMOVE", near: ", REMOVE b"`},
		{"SET a :v", `Invalid UpdateExpression: Syntax error; token: ":v", near: "a :v"`},
		{"SET a = :v + :w + :x", `Invalid UpdateExpression: Syntax error; token: "+", near: ":w + :x"`},
		{"ADD a b", `Invalid UpdateExpression: Syntax error; token: "b", near: "a b"`},
		{"REMOVE", `Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "REMOVE"`},
		{"SET a = size(b)", "Invalid UpdateExpression: The function is not allowed in an update expression; function: size"},
		{"SET a = if_not_exists(:v, :w)", "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"},
		{"SET a = list_append(b)", "Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1"},
		{"SET name = :v", "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: name"},
		{"SET a = :v REMOVE b, c ADD d :n DELETE e :s", ""},
		// + and - count towards the 300 operators (answers recorded from DynamoDB Local).
		{"SET " + assignments(300, "a%d=:v+:v"), ""},
		{"SET " + assignments(301, "a%d=:v-:v"), "Invalid UpdateExpression: The expression contains too many operators; operator count: 301"},
	}
	for _, tt := range tests {
		_, err := expr.ParseUpdate(tt.expr)
		if got := message(t, err); got != tt.msg {
			t.Errorf("ParseUpdate(%q)\n got: %s\nwant: %s", tt.expr, got, tt.msg)
		}
	}
}

func TestUpdate_BindErrors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{"SET a = :s, a = :one", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"SET a = :s REMOVE a.b", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{"SET a.b[1].c = :s REMOVE a.b[1]", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b, [1], c], path two: [a, b, [1]]"},
		{"SET a[0] = :s REMOVE a.b", "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]"},
		{"SET #a = :s ADD a :one", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"SET PK = :s", "One or more parameter values were invalid: Cannot update attribute PK. This attribute is part of the key"},
		{"REMOVE SK", "One or more parameter values were invalid: Cannot update attribute SK. This attribute is part of the key"},
		{"ADD a :s", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"},
		{"ADD a :l", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND"},
		{"DELETE a :one", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND"},
		{"SET a = list_append(a, :m)", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: M"},
		{"SET a = a + :s", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"},
		{"SET a = :nope", "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :nope"},
		{"SET #nope = :s", "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #nope"},
		{"SET a.b = :s, a.c = :s, a[1] = :s", "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, c], path two: [a, [1]]"},
		{"SET a.b = :s, a.c = :s, d[1] = :s, d[2] = :s", ""},
	}
	for _, tt := range tests {
		u, err := expr.ParseUpdate(tt.expr)
		if err != nil {
			t.Fatalf("parse %q: %v", tt.expr, err)
		}
		_, err = u.Bind(expr.NewParams(map[string]string{"#a": "a"}, values(t, updateVals)), "PK", "SK")
		if got := message(t, err); got != tt.msg {
			t.Errorf("Bind(%q)\n got: %s\nwant: %s", tt.expr, got, tt.msg)
		}
	}
}

// assignments is n update actions from format, given their index: distinct paths, as an update
// expression's must be.
func assignments(n int, format string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(format, i)
	}
	return strings.Join(parts, ",")
}
