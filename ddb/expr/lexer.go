package expr

import (
	"fmt"
	"strings"
)

// tokKind classifies tokens of the expression language.
type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokIdent           // attribute name, keyword or function name
	tokName            // #placeholder
	tokValue           // :placeholder
	tokNumber          // list index digits
	tokLParen          // (
	tokRParen          // )
	tokLBrack          // [
	tokRBrack          // ]
	tokComma           // ,
	tokDot             // .
	tokEQ              // =
	tokNE              // <>
	tokLT              // <
	tokLE              // <=
	tokGT              // >
	tokGE              // >=
	tokPlus            // +
	tokMinus           // -
	tokInvalid         // any other character
)

// token is one lexeme with its byte span in the source.
type token struct {
	kind       tokKind
	text       string
	start, end int
}

// is reports whether t is the keyword kw (case-insensitive).
func (t token) is(kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) || c == '_' }

// lex splits s into tokens; the last token is tokEOF.
func lex(s string) []token {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		start := i
		kind := tokInvalid
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case isLetter(c): // names start with a letter; "_a" is a syntax error
			for i < len(s) && isWord(s[i]) {
				i++
			}
			kind = tokIdent
		case isDigit(c):
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			kind = tokNumber
		case c == '#' || c == ':':
			i++
			for i < len(s) && isWord(s[i]) {
				i++
			}
			if i-start == 1 {
				kind = tokInvalid
			} else if c == '#' {
				kind = tokName
			} else {
				kind = tokValue
			}
		default:
			i++
			switch c {
			case '(':
				kind = tokLParen
			case ')':
				kind = tokRParen
			case '[':
				kind = tokLBrack
			case ']':
				kind = tokRBrack
			case ',':
				kind = tokComma
			case '.':
				kind = tokDot
			case '=':
				kind = tokEQ
			case '+':
				kind = tokPlus
			case '-':
				kind = tokMinus
			case '<':
				kind = tokLT
				if i < len(s) && s[i] == '=' {
					kind, i = tokLE, i+1
				} else if i < len(s) && s[i] == '>' {
					kind, i = tokNE, i+1
				}
			case '>':
				kind = tokGT
				if i < len(s) && s[i] == '=' {
					kind, i = tokGE, i+1
				}
			default:
				// One whole UTF-8 character as the invalid token.
				for i < len(s) && s[i]&0xC0 == 0x80 {
					i++
				}
			}
		}
		toks = append(toks, token{kind: kind, text: s[start:i], start: start, end: i})
	}
	return append(toks, token{kind: tokEOF, text: "<EOF>", start: len(s), end: len(s)})
}

// syntaxError builds DynamoDB's syntax error for token i of toks: the
// token's text and the source from the previous token to the next one.
func syntaxError(kind, src string, toks []token, i int) error {
	from, to := toks[i].start, toks[i].end
	if i > 0 {
		from = toks[i-1].start
	}
	if i+1 < len(toks) {
		to = toks[i+1].end
	}
	return invalid(kind, fmt.Sprintf("Syntax error; token: %q, near: %q", toks[i].text, src[from:to]))
}
