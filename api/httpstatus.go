package api

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// GraphQL over HTTP status codes (https://graphql.github.io/graphql-over-http/draft/).
// gqlgen answers a document that does not parse or validate with 422 when the client accepts
// application/json, and a mutation sent with GET with 406. The specification wants 200 for the
// first under application/json (the errors are in the body; 4xx is for
// application/graphql-response+json, which gqlgen already answers with 400), 400 for a request
// with no document at all, and 405 with Allow: POST for the second. overHTTPStatus rewrites
// those statuses, and drops the "data": null gqlgen writes into the body of such a request
// error: the request never reached execution, so, as the GraphQL specification says, the
// response has no data entry at all.
func overHTTPStatus(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&statusRewriter{ResponseWriter: w, method: r.Method, doc: documentRequestFrom(r.Context())}, r)
	})
}

// statusRewriter is the http.ResponseWriter of overHTTPStatus. A request error's answer (422
// or 400) is held until its body is written, to tell a missing document (400) from one that
// failed to validate (200), and to take data out of the body.
type statusRewriter struct {
	http.ResponseWriter
	method  string
	held    int // the status of a request error, waiting for its body
	written bool
	// doc, when set, holds the status of a refusal by the trusted documents check, which
	// gqlgen answers as a GraphQL error with 200.
	doc *documentRequest
}

func (s *statusRewriter) WriteHeader(code int) {
	switch {
	case s.written:
		return
	case s.doc != nil && s.doc.status != 0:
		s.held = s.doc.status
		return
	case code == http.StatusUnprocessableEntity || code == http.StatusBadRequest:
		s.held = code
		return
	case code == http.StatusNotAcceptable && s.method == http.MethodGet:
		s.Header().Set("Allow", http.MethodPost)
		s.held = http.StatusMethodNotAllowed
		return
	}
	s.written = true
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRewriter) Write(b []byte) (int, error) {
	if s.held == http.StatusMethodNotAllowed {
		// gqlgen's body has no code: the refusal gets one, as every other refusal has.
		s.held = 0
		s.written = true
		s.ResponseWriter.WriteHeader(http.StatusMethodNotAllowed)
		if _, err := s.ResponseWriter.Write(refusalBody(codeBadRequest, "a mutation cannot be sent with GET: send it with POST")); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	if s.held != 0 {
		code := s.held
		s.held = 0
		if code == http.StatusUnprocessableEntity {
			code = http.StatusOK
			if bytes.Contains(b, []byte(`"no operation provided"`)) {
				code = http.StatusBadRequest
			}
		}
		s.written = true
		s.ResponseWriter.WriteHeader(code)
		if body, ok := withoutData(b); ok {
			if _, err := s.ResponseWriter.Write(body); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	s.written = true
	return s.ResponseWriter.Write(b)
}

// withoutData is a response body without its "data": null entry; false when b is not a JSON
// object with one.
func withoutData(b []byte) ([]byte, bool) {
	var resp map[string]json.RawMessage
	if json.Unmarshal(b, &resp) != nil || string(resp["data"]) != "null" {
		return nil, false
	}
	delete(resp, "data")
	body, err := json.Marshal(resp)
	if err != nil {
		return nil, false
	}
	return append(body, '\n'), true
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRewriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
