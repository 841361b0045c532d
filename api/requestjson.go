package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
		// limitBody has read the body into memory already; this reads that copy.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return "", domain.Wrap(domain.Invalid, err, "the request body could not be read")
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
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
	// seen holds the keys met so far, as compared under mode, mapped to their spelling.
	seen    map[string]string
	wantKey bool   // an object expects a key next (else a value)
	key     string // the key whose value is being read, for paths
	index   int    // an array's next element, for paths
}

// checkJSON checks that data is a single JSON value whose objects give no key twice; what names
// data in error messages. Malformed JSON passes: gqlgen refuses it.
func checkJSON(data []byte, what string, mode keyMode) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*container
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // malformed, or empty: gqlgen says so
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.object && top.wantKey {
				if delim, ok := tok.(json.Delim); !ok || delim != '}' {
					if err := top.addKey(tok.(string), what, stack); err != nil {
						return err
					}
					top.wantKey = false
					continue
				}
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if len(stack) >= maxJSONDepth {
				return nil
			}
			c := &container{object: tok == json.Delim('{'), wantKey: true, mode: childMode(stack, mode)}
			stack = append(stack, c)
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the next token of an object is a key, of an array the next element.
		if len(stack) == 0 {
			if _, err := dec.Token(); err != io.EOF {
				return domain.Errorf(domain.Invalid, "%s holds more than one JSON value: send one JSON object", what)
			}
			return nil
		}
		top := stack[len(stack)-1]
		if top.object {
			top.wantKey = true
		} else {
			top.index++
		}
	}
}

// childMode is the key mode of an object or array opened inside stack, in a text whose outermost
// value has mode.
func childMode(stack []*container, mode keyMode) keyMode {
	if len(stack) == 0 {
		return mode
	}
	parent := stack[len(stack)-1]
	if parent.mode != topLevel {
		return parent.mode
	}
	if parent.object && parent.key == "extensions" {
		return foldedKeys
	}
	return exactKeys
}

// addKey records key in the object c, refusing one it has already met.
func (c *container) addKey(key, what string, stack []*container) error {
	c.key = key
	compared := key
	switch c.mode {
	case topLevel:
		for _, name := range requestKeys {
			if key != name && strings.EqualFold(key, name) {
				return domain.Errorf(domain.Invalid, "%s has the key %q: spell it %q", what, key, name)
			}
		}
	case foldedKeys:
		compared = foldKey(key)
	}
	if earlier, ok := c.seen[compared]; ok {
		where := jsonPath(stack[:len(stack)-1])
		if earlier == key {
			return domain.Errorf(domain.Invalid, "%s has the key %q twice%s: give each key once", what, key, where)
		}
		return domain.Errorf(domain.Invalid, "%s has the keys %q and %q%s, which differ only in case: give each key once", what, earlier, key, where)
	}
	if c.seen == nil {
		c.seen = map[string]string{}
	}
	c.seen[compared] = key
	return nil
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
func jsonPath(stack []*container) string {
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
