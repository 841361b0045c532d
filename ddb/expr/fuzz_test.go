package expr_test

import (
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

// FuzzParse checks that no input makes a parser, binder or evaluator panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a = :v", "#n.b[1] <> :v AND NOT (c BETWEEN :a AND :b) OR d IN (:a, :b)",
		"attribute_exists(a) AND begins_with(b, :v) AND contains(c, :v) AND size(d) > :v",
		"attribute_type(a, :t)", "SET a = if_not_exists(a, :v) + :w, b = list_append(b, :l) REMOVE c[0] ADD d :n DELETE e :s",
		"a.b[2].c, #n", "PK = :v AND SK BETWEEN :a AND :b", "((a = :v))", "a-b", "[", "a[99999999999999999999]",
	} {
		f.Add(s)
	}
	vals := map[string]attr.Value{":v": attr.S("x"), ":w": attr.Int(1), ":a": attr.S("a"), ":b": attr.S("b"),
		":t": attr.S("S"), ":l": attr.L(attr.S("x")), ":n": attr.Int(2), ":s": attr.SS("x")}
	names := map[string]string{"#n": "a"}
	it := attr.Item{"a": attr.M(map[string]attr.Value{"b": attr.L(attr.S("x"))}), "c": attr.L(attr.Int(1)),
		"d": attr.Int(3), "e": attr.SS("x", "y"), "PK": attr.S("a"), "SK": attr.S("b")}
	schema := expr.KeySchema{HashKey: "PK", HashType: attr.TypeS, RangeKey: "SK", RangeType: attr.TypeS}
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := expr.ParseCondition(s); err == nil {
			if b, err := c.Bind(expr.NewParams(names, vals)); err == nil {
				b.Eval(it)
				b.Eval(nil)
			}
		}
		if p, err := expr.ParseProjection(s); err == nil {
			if b, err := p.Bind(expr.NewParams(names, vals)); err == nil {
				b.Apply(it)
			}
		}
		if u, err := expr.ParseUpdate(s); err == nil {
			if b, err := u.Bind(expr.NewParams(names, vals), "PK"); err == nil {
				_, _ = b.Apply(it)
				_, _ = b.Apply(nil)
			}
		}
		if k, err := expr.ParseKeyCondition(s); err == nil {
			_, _ = k.Bind(expr.NewParams(names, vals), schema)
		}
	})
}
