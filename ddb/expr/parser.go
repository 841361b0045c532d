package expr

import (
	"slices"
	"strconv"
	"strings"
)

// parser is a recursive-descent parser over the token list of one
// expression. Errors abort the parse by panicking with a parseError, which
// the entry points recover.
type parser struct {
	kind   string // expression kind, for messages
	src    string
	toks   []token
	pos    int
	names  []string // #placeholders used, in first-use order
	values []string // :placeholders used, in first-use order
	update bool     // parsing an UpdateExpression: SET/REMOVE/ADD/DELETE are keywords
}

type parseError struct{ err error }

// parse runs fn over s, returning its error if any.
func parse(kind, s string, update bool, fn func(p *parser)) (p *parser, err error) {
	if len(s) > MaxExpressionSize {
		return nil, invalidf(kind, "Expression size has exceeded the maximum allowed size; expression size: %d", len(s))
	}
	if strings.TrimSpace(s) == "" {
		return nil, invalid(kind, "The expression can not be empty;")
	}
	p = &parser{kind: kind, src: s, toks: lex(s), update: update}
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseError)
			if !ok {
				panic(r)
			}
			p, err = nil, pe.err
		}
	}()
	fn(p)
	if p.peek().kind != tokEOF {
		p.syntax()
	}
	return p, nil
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) peekAt(n int) token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

func (p *parser) fail(err error) { panic(parseError{err}) }

// syntax fails with a syntax error at the current token.
func (p *parser) syntax() { p.fail(syntaxError(p.kind, p.src, p.toks, p.pos)) }

func (p *parser) failf(format string, args ...any) { p.fail(invalidf(p.kind, format, args...)) }

func (p *parser) expect(k tokKind) token {
	if p.peek().kind != k {
		p.syntax()
	}
	return p.next()
}

// isKeyword reports whether t is a keyword of the grammar being parsed,
// which can never be an attribute name.
func (p *parser) isKeyword(t token) bool {
	if t.kind != tokIdent {
		return false
	}
	for _, kw := range []string{"AND", "OR", "NOT", "BETWEEN", "IN"} {
		if t.is(kw) {
			return true
		}
	}
	return p.update && isClauseKeyword(t)
}

func isClauseKeyword(t token) bool {
	return t.is("SET") || t.is("REMOVE") || t.is("ADD") || t.is("DELETE")
}

func (p *parser) useName(n string) {
	if !slices.Contains(p.names, n) {
		p.names = append(p.names, n)
	}
}

func (p *parser) useValue(v string) {
	if !slices.Contains(p.values, v) {
		p.values = append(p.values, v)
	}
}

// pathElemName parses one attribute name step: a plain name or #name.
func (p *parser) pathElemName() string {
	t := p.peek()
	switch {
	case t.kind == tokName:
		p.next()
		p.useName(t.text)
		return t.text
	case t.kind == tokIdent && !p.isKeyword(t):
		if p.peekAt(1).kind == tokLParen {
			p.syntax()
		}
		p.next()
		if IsReserved(t.text) {
			p.failf("Attribute name is a reserved keyword; reserved keyword: %s", t.text)
		}
		return t.text
	}
	p.syntax()
	return ""
}

// path parses a document path: name { .name | [index] }.
func (p *parser) path() Path {
	path := Path{{Name: p.pathElemName()}}
	for {
		switch p.peek().kind {
		case tokDot:
			p.next()
			path = append(path, PathElem{Name: p.pathElemName()})
		case tokLBrack:
			p.next()
			t := p.peek()
			if t.kind != tokNumber {
				p.syntax()
			}
			n, err := strconv.Atoi(t.text)
			if err != nil || n > 1<<31-1 {
				p.failf("List index is too large; index: %s", t.text)
			}
			p.next()
			p.expect(tokRBrack)
			path = append(path, PathElem{Index: n, IsIndex: true})
		default:
			return path
		}
	}
}

// operand parses a path, a :value or a function call. update selects the
// functions allowed.
func (p *parser) operand(update bool) *Operand {
	t := p.peek()
	start := p.pos
	switch {
	case t.kind == tokValue:
		p.next()
		p.useValue(t.text)
		return &Operand{Kind: OperandValue, Ref: t.text, tok: start}
	case t.kind == tokIdent && p.peekAt(1).kind == tokLParen:
		return p.call(update)
	}
	return &Operand{Kind: OperandPath, Path: p.path(), tok: start}
}

// call parses name(args...) as an operand.
func (p *parser) call(update bool) *Operand {
	start := p.pos
	name := p.next().text
	if _, ok := funcArity[name]; !ok {
		p.failf("Invalid function name; function: %s", name)
	}
	p.expect(tokLParen)
	var args []*Operand
	if p.peek().kind != tokRParen {
		for {
			if update {
				args = append(args, p.setOperand())
			} else {
				args = append(args, p.operand(false))
			}
			if p.peek().kind != tokComma {
				break
			}
			p.next()
		}
	}
	p.expect(tokRParen)
	op := &Operand{Kind: OperandFunc, Func: name, Args: args, tok: start}
	p.checkCall(name, args, update, true)
	return op
}

// checkCall validates a function's context, arity and path operands.
func (p *parser) checkCall(name string, args []*Operand, update, asOperand bool) {
	switch {
	case update && name != fnIfNotExists && name != fnListAppend:
		p.failf("The function is not allowed in an update expression; function: %s", name)
	case !update && (name == fnIfNotExists || name == fnListAppend):
		p.failf("The function is not allowed in a condition expression; function: %s", name)
	case asOperand && !update && name != fnSize:
		p.failf("The function is not allowed to be used this way in an expression; function: %s", name)
	}
	if len(args) != funcArity[name] {
		p.failf("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", name, len(args))
	}
	switch name {
	case fnAttributeExists, fnAttributeNotExists, fnAttributeType, fnSize, fnIfNotExists:
		if args[0].Kind != OperandPath {
			p.failf("Operator or function requires a document path; operator or function: %s", name)
		}
	}
}

// condition parses OR-expressions: the lowest precedence.
func (p *parser) condition() *Cond {
	l := p.and()
	for p.peek().is("OR") {
		p.next()
		l = &Cond{Kind: CondOr, Left: l, Right: p.and()}
	}
	return l
}

func (p *parser) and() *Cond {
	l := p.not()
	for p.peek().is("AND") {
		p.next()
		l = &Cond{Kind: CondAnd, Left: l, Right: p.not()}
	}
	return l
}

func (p *parser) not() *Cond {
	if p.peek().is("NOT") {
		p.next()
		return &Cond{Kind: CondNot, Left: p.not()}
	}
	return p.primary()
}

var comparators = map[tokKind]string{
	tokEQ: "=", tokNE: "<>", tokLT: "<", tokLE: "<=", tokGT: ">", tokGE: ">=",
}

func (p *parser) primary() *Cond {
	t := p.peek()
	if t.kind == tokLParen {
		p.next()
		inner := p.condition()
		p.expect(tokRParen)
		if inner.parens {
			p.fail(invalid(p.kind, "The expression has redundant parentheses;"))
		}
		inner.parens = true
		return inner
	}
	if t.kind == tokIdent && p.peekAt(1).kind == tokLParen && isCondFunc(t.text) {
		p.next()
		p.expect(tokLParen)
		var args []*Operand
		if p.peek().kind != tokRParen {
			for {
				args = append(args, p.operand(false))
				if p.peek().kind != tokComma {
					break
				}
				p.next()
			}
		}
		p.expect(tokRParen)
		p.checkCall(t.text, args, false, false)
		return &Cond{Kind: CondFunc, Op: t.text, Args: args}
	}
	left := p.operand(false)
	op := p.peek()
	if cmp, ok := comparators[op.kind]; ok {
		p.next()
		return &Cond{Kind: CondCompare, Op: cmp, Args: []*Operand{left, p.operand(false)}}
	}
	switch {
	case op.is("BETWEEN"):
		p.next()
		lo := p.operand(false)
		if !p.peek().is("AND") {
			p.syntax()
		}
		p.next()
		hi := p.operand(false)
		return &Cond{Kind: CondBetween, Op: "BETWEEN", Args: []*Operand{left, lo, hi}}
	case op.is("IN"):
		p.next()
		p.expect(tokLParen)
		args := []*Operand{left}
		for {
			args = append(args, p.operand(false))
			if p.peek().kind != tokComma {
				break
			}
			p.next()
		}
		p.expect(tokRParen)
		if len(args)-1 > MaxInOperands {
			p.failf("The expression contains too many operands for the IN operator; maximum: %d, number of operands: %d", MaxInOperands, len(args)-1)
		}
		return &Cond{Kind: CondIn, Op: "IN", Args: args}
	}
	p.syntax()
	return nil
}

// setValue parses the right-hand side of a SET action: an operand, or two
// operands joined by + or -.
func (p *parser) setValue() *Operand {
	start := p.pos
	l := p.setOperand()
	switch p.peek().kind {
	case tokPlus:
		p.next()
		return &Operand{Kind: OperandPlus, Args: []*Operand{l, p.setOperand()}, tok: start}
	case tokMinus:
		p.next()
		return &Operand{Kind: OperandMinus, Args: []*Operand{l, p.setOperand()}, tok: start}
	}
	return l
}

func (p *parser) setOperand() *Operand {
	t := p.peek()
	if t.kind == tokIdent && p.peekAt(1).kind == tokLParen {
		return p.call(true)
	}
	return p.operand(true)
}
