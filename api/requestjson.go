package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/quickphotos/quickphotos/domain"
)

// A GraphQL request must mean one thing to every program that reads it. JSON leaves some
// readings open, and each one lets a request look harmless to a proxy, a web application
// firewall or a log reader while gqlgen runs something else:
//
//   - a key given twice: {"query": "{…}", "query": "mutation {…}"} — encoding/json keeps the
//     last value, many other parsers the first. Inside variables, a duplicated input field
//     changes the argument a mutation gets; inside extensions, the persisted query hash.
//   - keys that differ only in case: encoding/json matches the request's keys to "query",
//     "operationName", "variables" and "extensions" without regard to case (and Unicode case
//     folding: "extenſions" is "extensions"), and gqlgen reads the persisted query extension the
//     same way. So the request's own keys (documentId too, trusteddocs.go) must be spelt
//     exactly, and the keys of an extensions object may not differ only in case.
//   - more than one JSON value: gqlgen decodes the first and ignores the rest.
//   - text that is not UTF-8: bytes that are not UTF-8, or an escaped lone surrogate
//     ("\ud800"), which encoding/json and gqlgen's lexer both turn into U+FFFD without a word,
//     so that the server would store text other than what was sent.
//
// strictRequests refuses all of these with 400 and BAD_USER_INPUT before gqlgen decodes the
// request: a POST body of JSON, and a GET's variables and extensions parameters (a GET may give
// each GraphQL parameter once). Automatic persisted queries travel in extensions, so they are
// covered by the same checks. A POST body that is not well-formed JSON is left to gqlgen, which
// refuses it with the same code; a GET's query string that is not one, and a variables or
// extensions parameter that is not a JSON object, are refused here, since gqlgen would answer
// them with no code.
func strictRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := checkRequest(r)
		var ctx context.Context
		if err == nil {
			ctx, err = withDocumentRequest(r, id)
		}
		if err != nil {
			writeHTTPError(w, http.StatusBadRequest, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// requestKeys are the members of a GraphQL request, as gqlgen reads them, and documentId, the
// persisted document's identifier, which trusteddocs.go reads.
var requestKeys = []string{"query", "operationName", "variables", "extensions", "documentId"}

// checkRequest checks r and returns its documentId (without its sha256: prefix), "" when it has
// none.
func checkRequest(r *http.Request) (string, error) {
	switch r.Method {
	case http.MethodGet:
		params, err := checkGETParams(r.URL.RawQuery)
		if err != nil {
			return "", err
		}
		return getDocumentID(params)
	case http.MethodPost:
		// The same test gqlgen's POST transport applies: other bodies it does not decode.
		if mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mediaType != "application/json" {
			return "", nil
		}
		// limitBody has read the body into memory already; this looks at it where it is.
		body, err := requestBody(r)
		if err != nil {
			return "", domain.Wrap(domain.Invalid, err, "the request body could not be read")
		}
		if _, ok := r.Body.(*readBody); !ok {
			r.Body = newReadBody(body)
		}
		if err := checkJSON(body, "the request body", topLevel); err != nil {
			return "", err
		}
		if err := checkJSONText(body, "the request body"); err != nil {
			return "", err
		}
		return postedDocumentID(body)
	}
	return "", nil
}

// checkGETParams checks a GET's GraphQL parameters and returns them, parsed once.
func checkGETParams(rawQuery string) (url.Values, error) {
	params, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, domain.Errorf(domain.Invalid, "the URL's query string cannot be read (%v): URL-escape the GraphQL parameters", err)
	}
	for _, name := range requestKeys {
		if n := len(params[name]); n > 1 {
			return nil, domain.Errorf(domain.Invalid, "the %s parameter is given %d times: give each GraphQL parameter once", name, n)
		}
		if !utf8.ValidString(params.Get(name)) {
			return nil, domain.Errorf(domain.Invalid, "the %s parameter is not valid UTF-8: send text as UTF-8", name)
		}
	}
	for _, name := range []string{"variables", "extensions"} {
		if v := params.Get(name); v != "" {
			mode := exactKeys
			if name == "extensions" {
				mode = foldedKeys
			}
			if err := checkJSON([]byte(v), "the "+name+" parameter", mode); err != nil {
				return nil, err
			}
			if err := checkJSONText([]byte(v), "the "+name+" parameter"); err != nil {
				return nil, err
			}
			if !isJSONObject(v) {
				return nil, domain.Errorf(domain.Invalid, "the %s parameter is not a JSON object: send it as JSON, e.g. {\"name\": \"value\"}, URL-escaped", name)
			}
		}
	}
	return params, nil
}

// isJSONObject reports whether v is one JSON object (or null, which gqlgen takes as none), what
// GraphQL over HTTP wants of a GET's variables and extensions.
func isJSONObject(v string) bool {
	v = strings.TrimSpace(v)
	return json.Valid([]byte(v)) && (strings.HasPrefix(v, "{") || v == "null")
}

// keyMode is how the keys of one JSON object are compared.
type keyMode int

const (
	// exactKeys: keys are distinct unless equal, as Go maps hold them (variables).
	exactKeys keyMode = iota
	// foldedKeys: keys are distinct unless equal under Unicode case folding, as gqlgen reads
	// the persisted query extension (mapstructure, which matches like strings.EqualFold).
	foldedKeys
	// topLevel: the request object; its GraphQL keys must be spelt exactly, since encoding/json
	// matches them as strings.EqualFold does.
	topLevel
)

// maxJSONDepth is encoding/json's own nesting limit: anything deeper gqlgen refuses, so the
// check need not hold more than this many open objects and arrays in memory.
const maxJSONDepth = 10000

// container is an object or array open at some point of the JSON text.
type container struct {
	object bool
	mode   keyMode
	// seen is where this object's keys start in the check's list of keys met (keySeen); an
	// object with more than manyKeys keys also indexes them in byKey.
	seen  int
	byKey map[string]string
	key   string // the key whose value is being read, for paths
	index int    // an array's next element, for paths
}

// keySeen is a key met in an open object: as compared under its mode, and as spelt.
type keySeen struct{ compared, key string }

// manyKeys is how many keys an object holds before they are looked up in a map rather than
// compared one by one: a request's objects are small, a hostile one need not be.
const manyKeys = 16

// checkJSON checks that data is a single JSON value whose objects give no key twice; what names
// data in error messages. Malformed JSON passes: gqlgen refuses it.
//
// It reads the text as encoding/json would, without decoding any value but the keys, and those
// only when escaped or not ASCII (then with encoding/json itself, so a key means here what it
// means to gqlgen): a request is checked without allocating for each of its tokens.
func checkJSON(data []byte, what string, mode keyMode) error {
	c := jsonChecker{text: string(data), what: what, mode: mode}
	return c.check()
}

// jsonChecker is one run of checkJSON over text.
type jsonChecker struct {
	text  string
	pos   int
	what  string
	mode  keyMode
	stack []container
	keys  []keySeen // the keys of the open objects, outermost first
}

// errMalformed ends a check whose text is not JSON: gqlgen refuses it in its own words.
var errMalformed = errors.New("malformed JSON")

func (c *jsonChecker) check() error {
	err := c.run()
	if err == errMalformed {
		return nil
	}
	return err
}

func (c *jsonChecker) run() error {
	for {
		// A value starts.
		c.skipSpace()
		if c.pos >= len(c.text) {
			return errMalformed
		}
		switch b := c.text[c.pos]; {
		case b == '{' || b == '[':
			if len(c.stack) >= maxJSONDepth {
				return errMalformed
			}
			c.pos++
			c.stack = append(c.stack, container{object: b == '{', mode: childMode(c.stack, c.mode), seen: len(c.keys)})
			c.skipSpace()
			if c.pos < len(c.text) && c.text[c.pos] == b+2 { // '}' or ']': empty
				c.pos++
				c.close()
				break
			}
			if b == '{' {
				if err := c.readKey(); err != nil {
					return err
				}
			}
			continue
		case b == '"':
			if _, _, err := c.readString(); err != nil {
				return err
			}
		case b == 't':
			if err := c.literal("true"); err != nil {
				return err
			}
		case b == 'f':
			if err := c.literal("false"); err != nil {
				return err
			}
		case b == 'n':
			if err := c.literal("null"); err != nil {
				return err
			}
		case b == '-' || '0' <= b && b <= '9':
			if err := c.number(); err != nil {
				return err
			}
		default:
			return errMalformed
		}
		// A value ended: the next token of an object is a key, of an array the next element;
		// a closing bracket ends the container, which is a value that ended too.
		for {
			if len(c.stack) == 0 {
				c.skipSpace()
				if c.pos < len(c.text) {
					return domain.Errorf(domain.Invalid, "%s holds more than one JSON value: send one JSON object", c.what)
				}
				return nil
			}
			c.skipSpace()
			if c.pos >= len(c.text) {
				return errMalformed
			}
			top := &c.stack[len(c.stack)-1]
			b := c.text[c.pos]
			c.pos++
			switch {
			case b == ',' && top.object:
				if err := c.readKey(); err != nil {
					return err
				}
			case b == ',':
				top.index++
			case b == '}' && top.object, b == ']' && !top.object:
				c.close()
				continue
			default:
				return errMalformed
			}
			break
		}
	}
}

// close ends the innermost container.
func (c *jsonChecker) close() {
	c.keys = c.keys[:c.stack[len(c.stack)-1].seen]
	c.stack = c.stack[:len(c.stack)-1]
}

// readKey reads an object's key, refusing one the object has already met, and the colon after
// it.
func (c *jsonChecker) readKey() error {
	c.skipSpace()
	if c.pos >= len(c.text) || c.text[c.pos] != '"' {
		return errMalformed
	}
	raw, plain, err := c.readString()
	if err != nil {
		return err
	}
	key := raw[1 : len(raw)-1]
	if !plain {
		// Escapes, or bytes past ASCII: decoded as gqlgen decodes them (a byte that is not
		// UTF-8 becomes U+FFFD).
		if json.Unmarshal([]byte(raw), &key) != nil {
			return errMalformed
		}
	}
	// Checked before the colon, as encoding/json hands out a key before it reads one.
	if err := c.addKey(key); err != nil {
		return err
	}
	c.skipSpace()
	if c.pos >= len(c.text) || c.text[c.pos] != ':' {
		return errMalformed
	}
	c.pos++
	return nil
}

// addKey records key in the innermost object, refusing one it has already met.
func (c *jsonChecker) addKey(key string) error {
	top := &c.stack[len(c.stack)-1]
	top.key = key
	compared := key
	switch top.mode {
	case topLevel:
		for _, name := range requestKeys {
			if key != name && strings.EqualFold(key, name) {
				return domain.Errorf(domain.Invalid, "%s has the key %q: spell it %q", c.what, key, name)
			}
		}
	case foldedKeys:
		compared = foldKey(key)
	}
	earlier, met := "", false
	if top.byKey != nil {
		earlier, met = top.byKey[compared]
	} else {
		for _, k := range c.keys[top.seen:] {
			if k.compared == compared {
				earlier, met = k.key, true
				break
			}
		}
	}
	if met {
		where := jsonPath(c.stack[:len(c.stack)-1])
		if earlier == key {
			return domain.Errorf(domain.Invalid, "%s has the key %q twice%s: give each key once", c.what, key, where)
		}
		return domain.Errorf(domain.Invalid, "%s has the keys %q and %q%s, which differ only in case: give each key once", c.what, earlier, key, where)
	}
	switch n := len(c.keys) - top.seen; {
	case top.byKey != nil:
		top.byKey[compared] = key
	case n < manyKeys:
		c.keys = append(c.keys, keySeen{compared, key})
	default:
		top.byKey = make(map[string]string, 2*manyKeys)
		for _, k := range c.keys[top.seen:] {
			top.byKey[k.compared] = k.key
		}
		top.byKey[compared] = key
	}
	return nil
}

// readString reads the string at c.pos, returning its text with the quotes, and whether it is
// plain: no escapes and ASCII alone, so that its text is its value.
func (c *jsonChecker) readString() (raw string, plain bool, err error) {
	start := c.pos
	plain = true
	for i := start + 1; i < len(c.text); i++ {
		switch b := c.text[i]; {
		case b == '"':
			c.pos = i + 1
			return c.text[start:c.pos], plain, nil
		case b == '\\':
			plain = false
			if i+1 >= len(c.text) {
				return "", false, errMalformed
			}
			switch c.text[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if _, ok := hex4(c.text, i+2); !ok {
					return "", false, errMalformed
				}
				i += 5
			default:
				return "", false, errMalformed
			}
		case b < 0x20:
			return "", false, errMalformed
		case b >= 0x80:
			plain = false
		}
	}
	return "", false, errMalformed
}

// literal reads want, true, false or null, at c.pos.
func (c *jsonChecker) literal(want string) error {
	if !strings.HasPrefix(c.text[c.pos:], want) {
		return errMalformed
	}
	c.pos += len(want)
	return nil
}

// number reads the number at c.pos, as JSON spells one.
func (c *jsonChecker) number() error {
	if c.peek() == '-' {
		c.pos++
	}
	switch b := c.peek(); {
	case b == '0':
		c.pos++
	case '1' <= b && b <= '9':
		c.digits()
	default:
		return errMalformed
	}
	if c.peek() == '.' {
		c.pos++
		if !c.digits() {
			return errMalformed
		}
	}
	if b := c.peek(); b == 'e' || b == 'E' {
		c.pos++
		if b := c.peek(); b == '+' || b == '-' {
			c.pos++
		}
		if !c.digits() {
			return errMalformed
		}
	}
	return nil
}

// digits reads a run of digits, reporting whether there was one.
func (c *jsonChecker) digits() bool {
	start := c.pos
	for c.pos < len(c.text) && '0' <= c.text[c.pos] && c.text[c.pos] <= '9' {
		c.pos++
	}
	return c.pos > start
}

// peek is the byte at c.pos, 0 at the end.
func (c *jsonChecker) peek() byte {
	if c.pos < len(c.text) {
		return c.text[c.pos]
	}
	return 0
}

// skipSpace moves past JSON's whitespace.
func (c *jsonChecker) skipSpace() {
	for c.pos < len(c.text) {
		switch c.text[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// childMode is the key mode of an object or array opened inside stack, in a text whose outermost
// value has mode.
func childMode(stack []container, mode keyMode) keyMode {
	if len(stack) == 0 {
		return mode
	}
	parent := &stack[len(stack)-1]
	if parent.mode != topLevel {
		return parent.mode
	}
	if parent.object && parent.key == "extensions" {
		return foldedKeys
	}
	return exactKeys
}

// foldKey maps every string to one representative of its class under strings.EqualFold: each
// rune to the smallest rune of its Unicode simple folding orbit (k, K and the Kelvin sign K
// all become K).
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// jsonPath names the object the innermost of stack holds, like " in variables.in[2]", or ""
// for the outermost object. Keys that are not plain names are quoted, so a hostile key prints
// as escapes.
func jsonPath(stack []container) string {
	var b strings.Builder
	for i, c := range stack {
		switch {
		case !c.object:
			fmt.Fprintf(&b, "[%d]", c.index)
		case plainKey.MatchString(c.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(c.key)
		default:
			fmt.Fprintf(&b, "[%q]", c.key)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return " in " + b.String()
}
