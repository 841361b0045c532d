package expr_test

import (
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
)

var quickPhotos = expr.KeySchema{HashKey: "PK", HashType: attr.TypeS, RangeKey: "SK", RangeType: attr.TypeS}

const keyVals = `{":pk":{"S":"USER#a"}, ":a":{"S":"#FRIEND#"}, ":b":{"S":"#METADATA#a"}, ":n":{"N":"1"}, ":p":{"S":"PHOTO#"}}`

func TestKeyCondition_Bind(t *testing.T) {
	tests := []struct {
		expr   string
		op     expr.SortOp
		lo, hi string
	}{
		{"PK = :pk", 0, "", ""},
		{"#pk = :pk", 0, "", ""},
		{"PK = :pk AND SK = :a", expr.SortEQ, "#FRIEND#", ""},
		{"PK = :pk AND SK < :a", expr.SortLT, "#FRIEND#", ""},
		{"PK = :pk AND SK <= :a", expr.SortLE, "#FRIEND#", ""},
		{"PK = :pk AND SK > :a", expr.SortGT, "#FRIEND#", ""},
		{"PK = :pk AND SK >= :a", expr.SortGE, "#FRIEND#", ""},
		{":a < SK AND PK = :pk", expr.SortGT, "#FRIEND#", ""},
		{"PK = :pk AND SK BETWEEN :a AND :b", expr.SortBetween, "#FRIEND#", "#METADATA#a"},
		{"PK = :pk AND begins_with(SK, :p)", expr.SortBeginsWith, "PHOTO#", ""},
		{"(PK = :pk) AND (begins_with(SK, :p))", expr.SortBeginsWith, "PHOTO#", ""},
	}
	for _, tt := range tests {
		k, err := expr.ParseKeyCondition(tt.expr)
		if err != nil {
			t.Fatalf("parse %q: %v", tt.expr, err)
		}
		r, err := k.Bind(expr.NewParams(map[string]string{"#pk": "PK"}, values(t, keyVals)), quickPhotos)
		if err != nil {
			t.Fatalf("bind %q: %v", tt.expr, err)
		}
		if r.Partition.S != "USER#a" {
			t.Errorf("%q: partition %v", tt.expr, r.Partition)
		}
		if tt.op == 0 {
			if r.Sort != nil {
				t.Errorf("%q: unexpected sort condition %+v", tt.expr, r.Sort)
			}
			continue
		}
		if r.Sort == nil || r.Sort.Op != tt.op || r.Sort.Value.S != tt.lo || r.Sort.Hi.S != tt.hi {
			t.Errorf("%q: sort %+v", tt.expr, r.Sort)
		}
	}
}

func TestSortCondition_Match(t *testing.T) {
	s := func(op expr.SortOp, lo, hi string) *expr.SortCondition {
		return &expr.SortCondition{Op: op, Value: attr.S(lo), Hi: attr.S(hi)}
	}
	tests := []struct {
		c    *expr.SortCondition
		v    string
		want bool
	}{
		{nil, "x", true},
		{s(expr.SortEQ, "b", ""), "b", true}, {s(expr.SortEQ, "b", ""), "c", false},
		{s(expr.SortLT, "b", ""), "a", true}, {s(expr.SortLT, "b", ""), "b", false},
		{s(expr.SortLE, "b", ""), "b", true}, {s(expr.SortGT, "b", ""), "c", true},
		{s(expr.SortGE, "b", ""), "a", false},
		{s(expr.SortBetween, "#FRIEND#", "#METADATA#u"), "#FRIEND#x", true},
		{s(expr.SortBetween, "#FRIEND#", "#METADATA#u"), "#METADATA#u", true},
		{s(expr.SortBetween, "#FRIEND#", "#METADATA#u"), "PHOTO#u#1", false},
		{s(expr.SortBeginsWith, "PHOTO#", ""), "PHOTO#u#1", true},
		{s(expr.SortBeginsWith, "PHOTO#", ""), "#METADATA#u", false},
	}
	for _, tt := range tests {
		if got := tt.c.Match(attr.S(tt.v)); got != tt.want {
			t.Errorf("%+v Match(%q) = %v", tt.c, tt.v, got)
		}
	}
	n := &expr.SortCondition{Op: expr.SortGT, Value: attr.N("9")}
	if !n.Match(attr.N("10")) || n.Match(attr.S("10")) {
		t.Error("numeric sort match")
	}
}

func TestKeyCondition_Errors(t *testing.T) {
	numeric := expr.KeySchema{HashKey: "PK", HashType: attr.TypeS, RangeKey: "SK", RangeType: attr.TypeN}
	hashOnly := expr.KeySchema{HashKey: "PK", HashType: attr.TypeS}
	tests := []struct {
		expr   string
		schema expr.KeySchema
		msg    string
	}{
		{"PK = :pk OR SK = :a", quickPhotos, "Invalid operator used in KeyConditionExpression: OR"},
		{"PK = :pk AND NOT SK = :a", quickPhotos, "Invalid operator used in KeyConditionExpression: NOT"},
		{"PK IN (:pk)", quickPhotos, "Invalid operator used in KeyConditionExpression: IN"},
		{"PK <> :pk", quickPhotos, "Invalid operator used in KeyConditionExpression: <>"},
		{"PK = :pk AND attribute_exists(SK)", quickPhotos, "Invalid operator used in KeyConditionExpression: attribute_exists"},
		{"PK = :pk AND size(SK) > :n", quickPhotos, "KeyConditionExpressions cannot contain nested operations"},
		{"SK = :a", quickPhotos, "Query condition missed key schema element: PK"},
		{"PK > :pk", quickPhotos, "Query key condition not supported"},
		{"begins_with(PK, :pk)", quickPhotos, "Query key condition not supported"},
		{"PK = :pk AND x = :a", quickPhotos, "Query condition missed key schema element: SK"},
		{"PK = :pk AND x = :a", hashOnly, "Query key condition not supported"},
		{"PK = :pk AND PK = :pk", quickPhotos, "KeyConditionExpressions must only contain one condition per key"},
		{"PK = :pk AND SK = :a AND SK = :b", quickPhotos, "KeyConditionExpressions must only contain one condition per key"},
		{"PK = :pk AND SK = :a AND x = :b", quickPhotos, "Conditions can be of length 1 or 2 only"},
		{"PK = :pk AND contains(SK, :a)", quickPhotos, "Invalid operator used in KeyConditionExpression: contains"},
		{"PK = :pk AND SK.x = :a", quickPhotos, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: SK"},
		{"PK = PK", quickPhotos, "Invalid KeyConditionExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [PK]"},
		{"PK = :n", quickPhotos, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"PK = :pk AND SK = :n", quickPhotos, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"PK = :pk AND begins_with(SK, :n)", quickPhotos, "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"PK = :pk AND begins_with(SK, :p)", numeric, "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"PK = :pk AND SK BETWEEN :b AND :a", quickPhotos, "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:#METADATA#a}, upper bound operand: AttributeValue: {S:#FRIEND#}"},
		{"PK = :pk AND", quickPhotos, `Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "AND"`},
		{chain(151, "AND", "PK = :pk"), quickPhotos, "Invalid KeyConditionExpression: The expression contains too many operators; operator count: 301"},
	}
	for _, tt := range tests {
		k, err := expr.ParseKeyCondition(tt.expr)
		if err == nil {
			_, err = k.Bind(expr.NewParams(nil, values(t, keyVals)), tt.schema)
		}
		if got := message(t, err); got != tt.msg {
			t.Errorf("%q\n got: %s\nwant: %s", tt.expr, got, tt.msg)
		}
	}
}
