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
	ops    int      // operators and functions consumed so far
	// deferred holds the semantic errors found while parsing; DynamoDB
	// reports them only for syntactically valid expressions, by phase then
	// source position.
	deferred []deferredErr
}

// deferredErr is a semantic error found during parsing.
type deferredErr struct {
	phase int // phaseNames or phaseFuncs
	pos   int // token index
	err   error
}

// Phases of semantic checks, in DynamoDB's order.
const (
	phaseNames = 1 // unknown function names and reserved words
	phaseFuncs = 2 // function context, arity and operand kinds; IN size
)

// later records a semantic error to report if the parse succeeds.
func (p *parser) later(phase, pos int, format string, args ...any) {
	p.deferred = append(p.deferred, deferredErr{phase, pos, invalidf(p.kind, format, args...)})
}

// firstDeferred returns the deferred error DynamoDB would report, or nil.
func (p *parser) firstDeferred() error {
	var best *deferredErr
	for i := range p.deferred {
		d := &p.deferred[i]
		if best == nil || d.phase < best.phase || d.phase == best.phase && d.pos < best.pos {
			best = d
		}
	}
	if best == nil {
		return nil
	}
	return best.err
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
	if err := p.firstDeferred(); err != nil {
		return nil, err
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

// operator counts an operator or function as it is consumed. Past MaxOperators the parse stops
// at once, as DynamoDB's does: it reports the count it stopped at, MaxOperators+1, whatever
// the expression's length, and before any error further on.
func (p *parser) operator() {
	p.ops++
	if p.ops > MaxOperators {
		p.failf("The expression contains too many operators; operator count: %d", p.ops)
	}
}

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
			p.later(phaseNames, p.pos-1, "Attribute name is a reserved keyword; reserved keyword: %s", t.text)
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
				p.failf("List index is not within the allowable range; index: [%s]", t.text)
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
		ctx := ctxOperand
		if update {
			ctx = ctxUpdate
		}
		f := p.call(ctx)
		p.checkCall(f, ctx)
		return f
	}
	return &Operand{Kind: OperandPath, Path: p.path(), tok: start}
}

// Contexts a function call can appear in.
const (
	ctxCondition = iota // as a whole condition: f(a) AND …
	ctxOperand          // as an operand of a comparison: size(a) > :n
	ctxUpdate           // in a SET action
)

// call parses name(args...). Semantic checks are deferred (see checkCall)
// so that syntax errors anywhere in the expression are reported first.
func (p *parser) call(ctx int) *Operand {
	start := p.pos
	name := p.next().text
	p.operator()
	p.expect(tokLParen)
	var args []*Operand
	if p.peek().kind != tokRParen {
		for {
			if ctx == ctxUpdate {
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
	return &Operand{Kind: OperandFunc, Func: name, Args: args, tok: start}
}

// checkCall defers the checks of a function call in context ctx: known
// name, allowed here, operand count, document path operands.
func (p *parser) checkCall(f *Operand, ctx int) {
	name, pos := f.Func, f.tok
	if _, ok := funcArity[name]; !ok {
		p.later(phaseNames, pos, "Invalid function name; function: %s", name)
		return
	}
	isUpdateFunc := name == fnIfNotExists || name == fnListAppend
	switch {
	case ctx == ctxUpdate && !isUpdateFunc:
		p.later(phaseFuncs, pos, "The function is not allowed in an update expression; function: %s", name)
		return
	case ctx != ctxUpdate && isUpdateFunc:
		p.later(phaseFuncs, pos, "The function is not allowed in a condition expression; function: %s", name)
		return
	case ctx == ctxCondition && name == fnSize, ctx == ctxOperand && isCondFunc(name):
		p.later(phaseFuncs, pos, "The function is not allowed to be used this way in an expression; function: %s", name)
		return
	}
	if len(f.Args) != funcArity[name] {
		p.later(phaseFuncs, pos, "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", name, len(f.Args))
		return
	}
	switch name {
	case fnAttributeExists, fnAttributeNotExists, fnAttributeType, fnIfNotExists:
		if f.Args[0].Kind != OperandPath {
			p.later(phaseFuncs, pos, "Operator or function requires a document path; operator or function: %s", name)
		}
	}
}

// condition parses OR-expressions: the lowest precedence.
func (p *parser) condition() *Cond {
	l := p.and()
	for p.peek().is("OR") {
		p.next()
		p.operator()
		l = &Cond{Kind: CondOr, Left: l, Right: p.and()}
	}
	return l
}

func (p *parser) and() *Cond {
	l := p.not()
	for p.peek().is("AND") {
		p.next()
		p.operator()
		l = &Cond{Kind: CondAnd, Left: l, Right: p.not()}
	}
	return l
}

func (p *parser) not() *Cond {
	if p.peek().is("NOT") {
		p.next()
		p.operator()
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
	var left *Operand
	if t.kind == tokIdent && p.peekAt(1).kind == tokLParen {
		// A call is a whole condition unless a comparator follows it.
		f := p.call(ctxCondition)
		if next := p.peek(); comparators[next.kind] == "" && !next.is("BETWEEN") && !next.is("IN") {
			p.checkCall(f, ctxCondition)
			return &Cond{Kind: CondFunc, Op: f.Func, Args: f.Args}
		}
		p.checkCall(f, ctxOperand)
		left = f
	} else {
		left = p.operand(false)
	}
	op := p.peek()
	if cmp, ok := comparators[op.kind]; ok {
		p.next()
		p.operator()
		return &Cond{Kind: CondCompare, Op: cmp, Args: []*Operand{left, p.operand(false)}}
	}
	switch {
	case op.is("BETWEEN"):
		p.next()
		p.operator()
		lo := p.operand(false)
		if !p.peek().is("AND") {
			p.syntax()
		}
		p.next()
		hi := p.operand(false)
		return &Cond{Kind: CondBetween, Op: "BETWEEN", Args: []*Operand{left, lo, hi}}
	case op.is("IN"):
		inPos := p.pos
		p.next()
		p.operator()
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
			p.later(phaseFuncs, inPos, "The expression contains too many operands for the IN operator; maximum: %d, number of operands: %d", MaxInOperands, len(args)-1)
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
		p.operator()
		return &Operand{Kind: OperandPlus, Args: []*Operand{l, p.setOperand()}, tok: start}
	case tokMinus:
		p.next()
		p.operator()
		return &Operand{Kind: OperandMinus, Args: []*Operand{l, p.setOperand()}, tok: start}
	}
	return l
}

func (p *parser) setOperand() *Operand { return p.operand(true) }
