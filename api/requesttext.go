package api

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/quickphotos/quickphotos/domain"
)

// Text must be valid UTF-8 (docs/api.md, "Arguments and requests"). encoding/json decodes bytes that are not UTF-8,
// and a \u escape of a lone surrogate (half of a UTF-16 pair, "\ud800"), into U+FFFD without an
// error, and gqlgen's lexer does the same with a lone surrogate escaped in a GraphQL string
// literal; the server would then store text other than what the client sent. So both are
// refused before GraphQL runs:
//
//   - in the JSON of a request (a POST body, a GET's variables and extensions parameters, a
//     graphql-ws subscribe payload): BAD_USER_INPUT and 400, like the other checks of
//     requestjson.go, since the request is not well-formed text;
//   - in the document's string literals: GRAPHQL_PARSE_FAILED, answered like any syntax error
//     of the document, since the GraphQL specification makes an escape that is not a Unicode
//     scalar value one.

// checkJSONText checks that data, a JSON text, is UTF-8 and escapes no lone surrogate in its
// strings; what names data in the error. JSON that is not well-formed is left to gqlgen.
func checkJSONText(data []byte, what string) error {
	if !utf8.Valid(data) {
		return domain.Errorf(domain.Invalid, "%s is not valid UTF-8: send text as UTF-8", what)
	}
	text := string(data)
	inString := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(text):
			if text[i+1] != 'u' {
				i++ // the escaped character
				continue
			}
			n, lone := unicodeEscape(text, i)
			if lone {
				return domain.Errorf(domain.Invalid, "%s escapes a lone surrogate (%s): text must be valid UTF-8", what, text[i:i+6])
			}
			i += n - 1
		}
	}
	return nil
}

// unicodeEscape reads the \uXXXX escape at text[i:], JSON's and GraphQL's alike: its length,
// 12 for a surrogate pair, and whether it is a lone surrogate. A malformed escape is 2 long and
// not lone: the parser refuses it in its own words.
func unicodeEscape(text string, i int) (n int, lone bool) {
	r, ok := hex4(text, i+2)
	switch {
	case !ok:
		return 2, false
	case r >= 0xDC00 && r <= 0xDFFF:
		return 6, true
	case r >= 0xD800 && r <= 0xDBFF:
		if strings.HasPrefix(text[i+6:], `\u`) {
			if low, ok := hex4(text, i+8); ok && low >= 0xDC00 && low <= 0xDFFF {
				return 12, false
			}
		}
		return 6, true
	}
	return 6, false
}

// hex4 is the value of the four hex digits at text[i:].
func hex4(text string, i int) (rune, bool) {
	if i+4 > len(text) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(text[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// loneSurrogateLiteral finds a string literal of a GraphQL document that escapes a lone
// surrogate, reading the document as GraphQL's lexer does (comments, block strings, whose
// backslashes are not escapes, and strings); line and column are 1-based, the column in
// characters.
func loneSurrogateLiteral(doc string) (escape string, line, column int, found bool) {
	line, lineStart := 1, 0
	for i := 0; i < len(doc); i++ {
		switch {
		case doc[i] == '\n':
			line, lineStart = line+1, i+1
		case doc[i] == '#':
			for i+1 < len(doc) && doc[i+1] != '\n' && doc[i+1] != '\r' {
				i++
			}
		case strings.HasPrefix(doc[i:], `"""`):
			end := strings.Index(strings.ReplaceAll(doc[i+3:], `\"""`, "xxxx"), `"""`)
			if end < 0 {
				return "", 0, 0, false // unterminated: the parser says so
			}
			block := doc[i : i+3+end+3]
			line += strings.Count(block, "\n")
			if nl := strings.LastIndexByte(block, '\n'); nl >= 0 {
				lineStart = i + nl + 1
			}
			i += len(block) - 1
		case doc[i] == '"':
			for i++; i < len(doc) && doc[i] != '"' && doc[i] != '\n'; i++ {
				if doc[i] != '\\' || i+1 >= len(doc) {
					continue
				}
				if doc[i+1] != 'u' || strings.HasPrefix(doc[i+2:], "{") {
					i++ // a braced \u{…} escape the lexer checks itself, or another escape
					continue
				}
				n, lone := unicodeEscape(doc, i)
				if lone {
					return doc[i : i+6], line, utf8.RuneCountInString(doc[lineStart:i]) + 1, true
				}
				i += n - 1
			}
			if i < len(doc) && doc[i] == '\n' {
				line, lineStart = line+1, i+1
			}
		}
	}
	return "", 0, 0, false
}

// documentText refuses a document that is not UTF-8 or whose string literals escape a lone
// surrogate, for every transport, before gqlgen parses it.
type documentText struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentText{}

func (documentText) ExtensionName() string { return "QuickphotosDocumentText" }

func (documentText) Validate(graphql.ExecutableSchema) error { return nil }

func (documentText) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	var err *gqlerror.Error
	if !utf8.ValidString(p.Query) {
		err = gqlerror.Errorf("the document is not valid UTF-8: send text as UTF-8")
	} else if !strings.Contains(p.Query, `\u`) {
		return nil
	} else if escape, line, column, found := loneSurrogateLiteral(p.Query); found {
		err = gqlerror.ErrorLocf("", line, column, "Syntax Error: the string escapes a lone surrogate (%s): text must be valid UTF-8.", escape)
	}
	if err != nil {
		errcode.Set(err, errcode.ParseFailed)
	}
	return err
}
