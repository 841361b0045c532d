package api

import (
	"bytes"
	"net/http"
)

// GraphQL over HTTP status codes (https://graphql.github.io/graphql-over-http/draft/).
// gqlgen answers a document that does not parse or validate with 422 when the client accepts
// application/json, and a mutation sent with GET with 406. The specification wants 200 for the
// first under application/json (the errors are in the body; 4xx is for
// application/graphql-response+json, which gqlgen already answers with 400), 400 for a request
// with no document at all, and 405 with Allow: POST for the second. overHTTPStatus rewrites
// those statuses and nothing else.
func overHTTPStatus(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&statusRewriter{ResponseWriter: w, method: r.Method}, r)
	})
}

// statusRewriter is the http.ResponseWriter of overHTTPStatus. A 422 answer is held until its
// body is written, to tell a missing document (400) from one that failed to validate (200).
type statusRewriter struct {
	http.ResponseWriter
	method  string
	held    bool // a 422 whose status waits for its body
	written bool
}

func (s *statusRewriter) WriteHeader(code int) {
	switch {
	case s.written:
		return
	case code == http.StatusUnprocessableEntity:
		s.held = true
		return
	case code == http.StatusNotAcceptable && s.method == http.MethodGet:
		s.Header().Set("Allow", http.MethodPost)
		code = http.StatusMethodNotAllowed
	}
	s.written = true
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRewriter) Write(b []byte) (int, error) {
	if s.held {
		s.held = false
		code := http.StatusOK
		if bytes.Contains(b, []byte(`"no operation provided"`)) {
			code = http.StatusBadRequest
		}
		s.written = true
		s.ResponseWriter.WriteHeader(code)
	}
	s.written = true
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRewriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
