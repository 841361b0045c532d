package partiql

import (
	"fmt"
	"strings"
	"unicode"
)

// tokenKind classifies a token.
type tokenKind int

const (
	tokEOF    tokenKind = iota
	tokIdent            // a bare identifier or keyword: pk, SELECT
	tokQuoted           // a double-quoted identifier: "my-table"
	tokString           // a single-quoted string: 'text'
	tokNumber           // 42, -1.5, 1e3
	tokParam            // ?
	tokPunct            // operators and punctuation
)

// token is one lexeme with its position (a byte offset) for messages.
type token struct {
	kind tokenKind
	text string // the identifier, string contents, number or punctuation
	pos  int
}

// puncts are the operators and punctuation, longest first so that "<="
// wins over "<".
var puncts = []string{"<<", ">>", "<=", ">=", "<>", "!=", "=", "<", ">", "(", ")", "[", "]", "{", "}", ",", ".", ":", "*", "+", "-"}

// lex splits a statement into tokens.
func lex(src string) ([]token, error) {
	var out []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			kind := tokString
			if c == '"' {
				kind = tokQuoted
			}
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return nil, syntaxError(src[i:], "unterminated quoted text")
				}
				if src[j] == c {
					if j+1 < len(src) && src[j+1] == c { // a doubled quote is one quote
						b.WriteByte(c)
						j += 2
						continue
					}
					break
				}
				b.WriteByte(src[j])
				j++
			}
			out = append(out, token{kind, b.String(), i})
			i = j + 1
		case c == '?':
			out = append(out, token{tokParam, "?", i})
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				j++
				if j < len(src) && (src[j] == '+' || src[j] == '-') {
					j++
				}
				for j < len(src) && src[j] >= '0' && src[j] <= '9' {
					j++
				}
			}
			out = append(out, token{tokNumber, src[i:j], i})
			i = j
		case c == '_' || unicode.IsLetter(rune(c)):
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= '0' && src[j] <= '9' || unicode.IsLetter(rune(src[j]))) {
				j++
			}
			out = append(out, token{tokIdent, src[i:j], i})
			i = j
		default:
			matched := false
			for _, p := range puncts {
				if strings.HasPrefix(src[i:], p) {
					out = append(out, token{tokPunct, p, i})
					i += len(p)
					matched = true
					break
				}
			}
			if !matched {
				return nil, syntaxError(src[i:i+1], fmt.Sprintf("unexpected character %q", c))
			}
		}
	}
	return append(out, token{tokEOF, "", len(src)}), nil
}
