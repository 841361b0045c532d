package partiql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

func path(names ...string) Path {
	p := Path{}
	for _, n := range names {
		p.Steps = append(p.Steps, PathStep{Name: n})
	}
	return p
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		src    string
		want   Statement
		params int
	}{
		{`SELECT * FROM "t" WHERE pk = 'a'`,
			&Select{Table: "t", Where: &Binary{"=", path("pk"), Literal{attr.S("a")}}}, 0},
		{`select a.b, c[2] from "t"."gsi"`,
			&Select{Projection: []Path{path("a", "b"), {Steps: []PathStep{{Name: "c"}, {Index: 2, IsIndex: true}}}}, Table: "t", Index: "gsi"}, 0},
		{`SELECT * FROM t WHERE pk = ? AND (n > -1.5 OR NOT n BETWEEN 1 AND 2) AND s IN ['x', ?]`,
			&Select{Table: "t", Where: &Binary{"AND",
				&Binary{"AND", &Binary{"=", path("pk"), Param{0}},
					&Binary{"OR", &Binary{">", path("n"), Literal{attr.N("-1.5")}}, &Not{&Between{path("n"), Literal{attr.N("1")}, Literal{attr.N("2")}}}}},
				&In{path("s"), []Expr{Literal{attr.S("x")}, Param{1}}}}}, 2},
		{`SELECT * FROM t WHERE begins_with("sk", 'p') AND a IS NOT MISSING AND b IS NULL AND c != d`,
			&Select{Table: "t", Where: &Binary{"AND", &Binary{"AND", &Binary{"AND",
				&Call{"begins_with", []Expr{path("sk"), Literal{attr.S("p")}}},
				&Is{X: path("a"), Missing: true, Negated: true}},
				&Is{X: path("b")}},
				&Binary{"<>", path("c"), path("d")}}}, 0},
		{`INSERT INTO "t" VALUE {'pk': 'a', 'n': 1, 'ok': TRUE, 'none': null, 'l': [1, 'x'], 'set': <<'a', 'b'>>, 'm': {'it''s': ?}}`,
			&Insert{Table: "t", Value: &Tuple{
				Keys:   []string{"pk", "n", "ok", "none", "l", "set", "m"},
				Values: []Expr{Literal{attr.S("a")}, Literal{attr.N("1")}, Literal{attr.Bool(true)}, Literal{attr.Null()}, &List{[]Expr{Literal{attr.N("1")}, Literal{attr.S("x")}}}, &Bag{[]Expr{Literal{attr.S("a")}, Literal{attr.S("b")}}}, &Tuple{Keys: []string{"it's"}, Values: []Expr{Param{0}}}}}}, 1},
		{`UPDATE "t" SET a = a + 1, b.c = 'x' REMOVE d, e[0] WHERE pk = 'k' AND sk = 2`,
			&Update{Table: "t",
				Sets:    []Assignment{{path("a"), &Binary{"+", path("a"), Literal{attr.N("1")}}}, {path("b", "c"), Literal{attr.S("x")}}},
				Removes: []Path{path("d"), {Steps: []PathStep{{Name: "e"}, {Index: 0, IsIndex: true}}}},
				Where:   &Binary{"AND", &Binary{"=", path("pk"), Literal{attr.S("k")}}, &Binary{"=", path("sk"), Literal{attr.N("2")}}}}, 0},
		{`DELETE FROM "t" WHERE pk = 'k'`,
			&Delete{Table: "t", Where: &Binary{"=", path("pk"), Literal{attr.S("k")}}}, 0},
	} {
		t.Run(c.src, func(t *testing.T) {
			got, n, err := Parse(c.src)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) || n != c.params {
				t.Errorf("got %#v (%d parameters)\nwant %#v (%d)", got, n, c.want, c.params)
			}
		})
	}
}

func TestParse_Errors(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{``, "Empty statement"},
		{`SELECTT * FROMM "t"`, "Expected SELECT, INSERT, UPDATE or DELETE"},
		{`SELECT * FROM`, "Unexpected end of statement, expected a table name"},
		{`SELECT * FROM "t" WHERE`, "Unexpected end of statement"},
		{`SELECT * FROM "t" WHERE pk = 'a`, "unterminated quoted text"},
		{`INSERT INTO "t" {'pk': 'a'}`, "Expected VALUE"},
		{`INSERT INTO "t" VALUE {pk: 'a'}`, "Expected a quoted attribute name"},
		{`UPDATE "t" WHERE pk = 'a'`, "Expected SET or REMOVE"},
		{`UPDATE "t" SET a = 1`, "Unexpected end of statement, expected WHERE"},
		{`DELETE FROM "t"`, "Unexpected end of statement, expected WHERE"},
		{`SELECT * FROM "t" WHERE a IS MAYBE`, "Expected MISSING or NULL"},
		{`SELECT * FROM "t" WHERE a NOT LIKE 'b'`, "Expected BETWEEN or IN"},
		{`SELECT * FROM "t" WHERE a = 'b' extra`, "Expected end of statement"},
		{`SELECT * FROM "t" WHERE a = #`, "unexpected character"},
	} {
		t.Run(c.src, func(t *testing.T) {
			_, _, err := Parse(c.src)
			if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "Statement wasn't well formed, can't be processed: ") {
				t.Fatalf("error %v, want one containing %q", err, c.msg)
			}
		})
	}
}

// FuzzParse: no statement makes the parser panic or loop.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`SELECT * FROM "t" WHERE pk = 'a' AND n BETWEEN 1 AND ?`, `INSERT INTO t VALUE {'a': <<1, 2>>}`,
		`UPDATE t SET a = a - 1 REMOVE b[0] WHERE pk = ?`, `DELETE FROM t WHERE pk = 'x' AND attribute_exists(c)`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _, _ = Parse(src)
	})
}
