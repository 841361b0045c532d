package partiql

import (
	"strconv"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// MaxStatementLength is DynamoDB's limit on a statement's length.
const MaxStatementLength = 8192

// Parse parses one statement. Parameters (`?`) are numbered in order;
// Parse returns how many the statement has.
func Parse(src string) (Statement, int, error) {
	if strings.TrimSpace(src) == "" {
		return nil, 0, &Error{Message: "Statement wasn't well formed, can't be processed: Empty statement"}
	}
	toks, err := lex(src)
	if err != nil {
		return nil, 0, err
	}
	p := &parser{src: src, toks: toks}
	st, err := p.statement()
	if err != nil {
		return nil, 0, err
	}
	if p.peek().kind != tokEOF {
		return nil, 0, p.unexpected("end of statement")
	}
	return st, p.params, nil
}

// parser is the state of one Parse.
type parser struct {
	src    string
	toks   []token
	i      int
	params int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// keyword reports whether the next token is keyword kw (any case), and
// consumes it if so.
func (p *parser) keyword(kw string) bool {
	t := p.peek()
	if t.kind == tokIdent && strings.EqualFold(t.text, kw) {
		p.i++
		return true
	}
	return false
}

// punct reports whether the next token is punctuation s, and consumes it
// if so.
func (p *parser) punct(s string) bool {
	t := p.peek()
	if t.kind == tokPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

// unexpected is the syntax error at the next token, which is not what.
func (p *parser) unexpected(what string) *Error {
	t := p.peek()
	if t.kind == tokEOF {
		return &Error{Message: "Statement wasn't well formed, can't be processed: Unexpected end of statement, expected " + what}
	}
	return syntaxError(p.src[t.pos:], "Expected "+what)
}

func (p *parser) expectKeyword(kw string) error {
	if !p.keyword(kw) {
		return p.unexpected(kw)
	}
	return nil
}

func (p *parser) expectPunct(s string) error {
	if !p.punct(s) {
		return p.unexpected("'" + s + "'")
	}
	return nil
}

// statement := select | insert | update | delete
func (p *parser) statement() (Statement, error) {
	switch {
	case p.keyword("SELECT"):
		return p.selectStatement()
	case p.keyword("INSERT"):
		return p.insertStatement()
	case p.keyword("UPDATE"):
		return p.updateStatement()
	case p.keyword("DELETE"):
		return p.deleteStatement()
	}
	return nil, p.unexpected("SELECT, INSERT, UPDATE or DELETE")
}

// select := SELECT (* | path, …) FROM table [. index] [WHERE expr]
func (p *parser) selectStatement() (*Select, error) {
	s := &Select{}
	if !p.punct("*") {
		for {
			path, err := p.path()
			if err != nil {
				return nil, err
			}
			s.Projection = append(s.Projection, path)
			if !p.punct(",") {
				break
			}
		}
	}
	if err := p.expectKeyword("FROM"); err != nil {
		return nil, err
	}
	var err error
	if s.Table, err = p.name(); err != nil {
		return nil, err
	}
	if p.punct(".") {
		if s.Index, err = p.name(); err != nil {
			return nil, err
		}
	}
	if p.keyword("WHERE") {
		if s.Where, err = p.expr(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// insert := INSERT INTO table VALUE tuple
func (p *parser) insertStatement() (*Insert, error) {
	if err := p.expectKeyword("INTO"); err != nil {
		return nil, err
	}
	table, err := p.name()
	if err != nil {
		return nil, err
	}
	if err := p.expectKeyword("VALUE"); err != nil {
		return nil, err
	}
	v, err := p.primary()
	if err != nil {
		return nil, err
	}
	return &Insert{Table: table, Value: v}, nil
}

// update := UPDATE table (SET path = expr | REMOVE path)… WHERE expr
func (p *parser) updateStatement() (*Update, error) {
	table, err := p.name()
	if err != nil {
		return nil, err
	}
	u := &Update{Table: table}
	for {
		switch {
		case p.keyword("SET"):
			for {
				path, err := p.path()
				if err != nil {
					return nil, err
				}
				if err := p.expectPunct("="); err != nil {
					return nil, err
				}
				v, err := p.additive()
				if err != nil {
					return nil, err
				}
				u.Sets = append(u.Sets, Assignment{path, v})
				if !p.punct(",") {
					break
				}
			}
			continue
		case p.keyword("REMOVE"):
			for {
				path, err := p.path()
				if err != nil {
					return nil, err
				}
				u.Removes = append(u.Removes, path)
				if !p.punct(",") {
					break
				}
			}
			continue
		}
		break
	}
	if len(u.Sets) == 0 && len(u.Removes) == 0 {
		return nil, p.unexpected("SET or REMOVE")
	}
	if err := p.expectKeyword("WHERE"); err != nil {
		return nil, err
	}
	if u.Where, err = p.expr(); err != nil {
		return nil, err
	}
	return u, nil
}

// delete := DELETE FROM table WHERE expr
func (p *parser) deleteStatement() (*Delete, error) {
	if err := p.expectKeyword("FROM"); err != nil {
		return nil, err
	}
	table, err := p.name()
	if err != nil {
		return nil, err
	}
	if err := p.expectKeyword("WHERE"); err != nil {
		return nil, err
	}
	where, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &Delete{Table: table, Where: where}, nil
}

// name is a table or index name: a quoted or bare identifier.
func (p *parser) name() (string, error) {
	t := p.peek()
	if t.kind == tokQuoted || t.kind == tokIdent {
		p.i++
		return t.text, nil
	}
	return "", p.unexpected("a table name")
}

// path := name (. name | [ number ])…
func (p *parser) path() (Path, error) {
	first, err := p.name()
	if err != nil {
		return Path{}, p.unexpected("an attribute name")
	}
	path := Path{Steps: []PathStep{{Name: first}}}
	for {
		switch {
		case p.punct("."):
			n, err := p.name()
			if err != nil {
				return Path{}, p.unexpected("an attribute name")
			}
			path.Steps = append(path.Steps, PathStep{Name: n})
		case p.peek().kind == tokPunct && p.peek().text == "[" && p.toks[p.i+1].kind == tokNumber:
			p.i++
			i, err := strconv.Atoi(p.next().text)
			if err != nil || i < 0 {
				return Path{}, p.unexpected("a list index")
			}
			if err := p.expectPunct("]"); err != nil {
				return Path{}, err
			}
			path.Steps = append(path.Steps, PathStep{Index: i, IsIndex: true})
		default:
			return path, nil
		}
	}
}

// expr := or
func (p *parser) expr() (Expr, error) { return p.or() }

// or := and (OR and)…
func (p *parser) or() (Expr, error) {
	l, err := p.and()
	for err == nil && p.keyword("OR") {
		var r Expr
		if r, err = p.and(); err == nil {
			l = &Binary{"OR", l, r}
		}
	}
	return l, err
}

// and := not (AND not)…
func (p *parser) and() (Expr, error) {
	l, err := p.not()
	for err == nil && p.keyword("AND") {
		var r Expr
		if r, err = p.not(); err == nil {
			l = &Binary{"AND", l, r}
		}
	}
	return l, err
}

// not := NOT not | predicate
func (p *parser) not() (Expr, error) {
	if p.keyword("NOT") {
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &Not{x}, nil
	}
	return p.predicate()
}

// predicate := additive [comparison additive | [NOT] BETWEEN … AND … |
// [NOT] IN list | IS [NOT] (MISSING | NULL)]
func (p *parser) predicate() (Expr, error) {
	x, err := p.additive()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"=", "<>", "!=", "<=", ">=", "<", ">"} {
		if p.punct(op) {
			r, err := p.additive()
			if err != nil {
				return nil, err
			}
			if op == "!=" {
				op = "<>"
			}
			return &Binary{op, x, r}, nil
		}
	}
	negated := p.keyword("NOT")
	switch {
	case p.keyword("BETWEEN"):
		lo, err := p.additive()
		if err != nil {
			return nil, err
		}
		if err := p.expectKeyword("AND"); err != nil {
			return nil, err
		}
		hi, err := p.additive()
		if err != nil {
			return nil, err
		}
		return negate(&Between{x, lo, hi}, negated), nil
	case p.keyword("IN"):
		open, closing := "[", "]"
		if p.peek().text == "(" {
			open, closing = "(", ")"
		}
		if err := p.expectPunct(open); err != nil {
			return nil, err
		}
		list, err := p.elements(closing)
		if err != nil {
			return nil, err
		}
		return negate(&In{x, list}, negated), nil
	case negated:
		return nil, p.unexpected("BETWEEN or IN")
	case p.keyword("IS"):
		not := p.keyword("NOT")
		switch {
		case p.keyword("MISSING"):
			return &Is{X: x, Missing: true, Negated: not}, nil
		case p.keyword("NULL"):
			return &Is{X: x, Negated: not}, nil
		}
		return nil, p.unexpected("MISSING or NULL")
	}
	return x, nil
}

// negate wraps x in NOT when negated.
func negate(x Expr, negated bool) Expr {
	if negated {
		return &Not{x}
	}
	return x
}

// additive := primary ((+ | -) primary)…
func (p *parser) additive() (Expr, error) {
	l, err := p.primary()
	for err == nil {
		var op string
		switch {
		case p.punct("+"):
			op = "+"
		case p.punct("-"):
			op = "-"
		default:
			return l, nil
		}
		var r Expr
		if r, err = p.primary(); err == nil {
			l = &Binary{op, l, r}
		}
	}
	return nil, err
}

// primary := literal | ? | tuple | list | bag | ( expr ) | call | path
func (p *parser) primary() (Expr, error) {
	t := p.peek()
	switch t.kind {
	case tokString:
		p.i++
		return Literal{attr.S(t.text)}, nil
	case tokNumber:
		p.i++
		return number(t.text, p.src[t.pos:])
	case tokParam:
		p.i++
		p.params++
		return Param{p.params - 1}, nil
	case tokPunct:
		switch t.text {
		case "-":
			if n := p.toks[p.i+1]; n.kind == tokNumber {
				p.i += 2
				return number("-"+n.text, p.src[t.pos:])
			}
		case "(":
			p.i++
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			return x, p.expectPunct(")")
		case "{":
			p.i++
			return p.tuple()
		case "[":
			p.i++
			elems, err := p.elements("]")
			return &List{elems}, err
		case "<<":
			p.i++
			elems, err := p.elements(">>")
			return &Bag{elems}, err
		}
	case tokIdent:
		switch strings.ToLower(t.text) {
		case "true", "false":
			p.i++
			return Literal{attr.Bool(strings.EqualFold(t.text, "true"))}, nil
		case "null":
			p.i++
			return Literal{attr.Null()}, nil
		}
		if p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "(" {
			p.i += 2
			args, err := p.elements(")")
			if err != nil {
				return nil, err
			}
			return &Call{Name: strings.ToLower(t.text), Args: args}, nil
		}
		return p.path()
	case tokQuoted:
		return p.path()
	}
	return nil, p.unexpected("a value or an attribute")
}

// number is a numeric literal.
func number(text, at string) (Expr, error) {
	v, err := attr.ParseN(text)
	if err != nil {
		return nil, syntaxError(at, "invalid number "+text)
	}
	return Literal{v}, nil
}

// elements := [expr (, expr)…] closing
func (p *parser) elements(closing string) ([]Expr, error) {
	var out []Expr
	if p.punct(closing) {
		return out, nil
	}
	for {
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
		if p.punct(closing) {
			return out, nil
		}
		if err := p.expectPunct(","); err != nil {
			return nil, err
		}
	}
}

// tuple := [ 'key' : expr (, 'key' : expr)… ] }
func (p *parser) tuple() (Expr, error) {
	t := &Tuple{}
	if p.punct("}") {
		return t, nil
	}
	for {
		k := p.next()
		if k.kind != tokString && k.kind != tokQuoted {
			p.i--
			return nil, p.unexpected("a quoted attribute name")
		}
		if err := p.expectPunct(":"); err != nil {
			return nil, err
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		t.Keys = append(t.Keys, k.text)
		t.Values = append(t.Values, v)
		if p.punct("}") {
			return t, nil
		}
		if err := p.expectPunct(","); err != nil {
			return nil, err
		}
	}
}
