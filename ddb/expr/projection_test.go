package expr_test

import (
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

func TestProjection_Apply(t *testing.T) {
	src := `{"PK":{"S":"p"}, "a":{"M":{"b":{"L":[{"S":"x"},{"M":{"c":{"N":"1"},"d":{"N":"2"}}},{"S":"z"}]},"e":{"S":"e"}}},
		"c":{"S":"c"}, "l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"}]}, "s":{"S":"str"}}`
	tests := []struct{ expr, want string }{
		{"PK", `{"PK":{"S":"p"}}`},
		{"PK, c, absent", `{"PK":{"S":"p"},"c":{"S":"c"}}`},
		{"a.b[1], c", `{"a":{"M":{"b":{"L":[{"M":{"c":{"N":"1"},"d":{"N":"2"}}}]}}},"c":{"S":"c"}}`},
		{"a.b[1].d", `{"a":{"M":{"b":{"L":[{"M":{"d":{"N":"2"}}}]}}}}`},
		{"l[3], l[1]", `{"l":{"L":[{"N":"1"},{"N":"3"}]}}`},
		{"l[9]", `{}`},
		{"a.e, a.b[2]", `{"a":{"M":{"b":{"L":[{"S":"z"}]},"e":{"S":"e"}}}}`},
		{"s.x, a.nope", `{}`}, {"s[0]", `{}`},
		{"#k", `{"PK":{"S":"p"}}`},
	}
	for _, tt := range tests {
		pr, err := expr.ParseProjection(tt.expr)
		if err != nil {
			t.Fatalf("parse %q: %v", tt.expr, err)
		}
		b, err := pr.Bind(expr.NewParams(map[string]string{"#k": "PK"}, nil))
		if err != nil {
			t.Fatalf("bind %q: %v", tt.expr, err)
		}
		got := b.Apply(item(t, src))
		if want := item(t, tt.want); !attr.EqualItems(got, want) {
			t.Errorf("%q: got %s, want %s", tt.expr, itemJSON(got), tt.want)
		}
	}
}

func TestProjection_Errors(t *testing.T) {
	tests := []struct{ expr, msg string }{
		{"", "Invalid ProjectionExpression: The expression can not be empty;"},
		{"a, a", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"a.b, a", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]"},
		{"a[0], a.b", "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]"},
		{"a,", `Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ","`},
		{"a b", `Invalid ProjectionExpression: Syntax error; token: "b", near: "a b"`},
		{"a = :v", `Invalid ProjectionExpression: Syntax error; token: "=", near: "a = :v"`},
		{"date", "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: date"},
		{"#x", "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #x"},
		// A projection has no operators: the 300-operator limit does not bound its paths.
		{assignments(301, "a%d"), ""},
	}
	for _, tt := range tests {
		pr, err := expr.ParseProjection(tt.expr)
		if err == nil {
			_, err = pr.Bind(expr.NewParams(nil, nil))
		}
		if got := message(t, err); got != tt.msg {
			t.Errorf("%q\n got: %s\nwant: %s", tt.expr, got, tt.msg)
		}
	}
}

func TestUpdate_Targets(t *testing.T) {
	src := `{"a":{"M":{"b":{"M":{"c":{"S":"old"},"d":{"S":"keep"}}},"x":{"N":"1"},"y":{"N":"2"}}},
		"l":{"L":[{"S":"p"},{"S":"q"},{"S":"r"}]}, "n":{"M":{"cnt":{"N":"5"},"other":{"N":"1"}}}, "ss":{"SS":["a","b"]}, "s":{"S":"s"}}`
	tests := []struct{ expr, want string }{
		{"SET a.b.c = :v", `{"a":{"M":{"b":{"M":{"c":{"S":"old"}}}}}}`},
		{"SET l[1] = :v", `{"l":{"L":[{"S":"q"}]}}`},
		{"REMOVE a.x", `{"a":{"M":{"x":{"N":"1"}}}}`},
		{"ADD n.cnt :one", `{"n":{"M":{"cnt":{"N":"5"}}}}`},
		{"DELETE ss :set", `{"ss":{"SS":["a","b"]}}`},
		{"SET s = :v, a.b.d = :v REMOVE l[2], l[0] ADD n.cnt :one", `{"s":{"S":"s"},"a":{"M":{"b":{"M":{"d":{"S":"keep"}}}}},"l":{"L":[{"S":"p"},{"S":"r"}]},"n":{"M":{"cnt":{"N":"5"}}}}`},
		{"SET a.z = :v, l[7] = :v REMOVE nope", `{}`},
		{"SET #k = :v", `{"s":{"S":"s"}}`},
	}
	vals := values(t, `{":v":{"S":"v"},":one":{"N":"1"},":set":{"SS":["a"]}}`)
	for _, tt := range tests {
		u, err := expr.ParseUpdate(tt.expr)
		if err != nil {
			t.Fatalf("parse %q: %v", tt.expr, err)
		}
		b, err := u.Bind(expr.NewParams(map[string]string{"#k": "s"}, vals))
		if err != nil {
			t.Fatalf("bind %q: %v", tt.expr, err)
		}
		got := b.Targets().Apply(item(t, src))
		if want := item(t, tt.want); !attr.EqualItems(got, want) {
			t.Errorf("%q: got %s, want %s", tt.expr, itemJSON(got), tt.want)
		}
	}
}
