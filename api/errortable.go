package api

import (
	"net/http"

	"github.com/quickphotos/quickphotos/api/limits"
	"github.com/quickphotos/quickphotos/domain"
)

// errorKind is what clients see of an error: its GraphQL extensions.code, and the HTTP status
// of a request refused before GraphQL runs (an error inside an operation is answered with 200
// and the code, as GraphQL over HTTP wants).
type errorKind struct {
	extensionCode string
	httpStatus    int
}

// errorKinds is the one table from domain error codes to what clients see: the only place the
// two vocabularies meet, as a well-layered HTTP service maps its errors to status codes once.
var errorKinds = map[domain.Code]errorKind{
	domain.Invalid:         {"BAD_USER_INPUT", http.StatusBadRequest},
	domain.NotFound:        {"NOT_FOUND", http.StatusNotFound},
	domain.Conflict:        {"CONFLICT", http.StatusConflict},
	domain.Unauthenticated: {"UNAUTHENTICATED", http.StatusUnauthorized},
	domain.Forbidden:       {"FORBIDDEN", http.StatusForbidden},
	domain.Unavailable:     {"SERVICE_UNAVAILABLE", http.StatusServiceUnavailable},
	domain.LimitExceeded:   {"LIMIT_EXCEEDED", http.StatusTooManyRequests},
	domain.CursorExpired:   {"CURSOR_EXPIRED", http.StatusGone},
	domain.Internal:        {"INTERNAL_SERVER_ERROR", http.StatusInternalServerError},
}

// Codes of the errors that are not domain errors: the document itself is refused, by GraphQL
// validation (gqlgen's code, which introspection.go reuses for a refused introspection) or by
// the query limits (limits.Code, defined with the limits). Both are answered inside GraphQL's
// response, with the status GraphQL over HTTP gives a document that does not validate
// (httpstatus.go).
const (
	codeValidationFailed = "GRAPHQL_VALIDATION_FAILED"
	codeLimitExceeded    = limits.Code
)

// Codes of requests refused by the trusted documents check (trusteddocs.go), before GraphQL
// parses anything: a documentId the manifest does not hold (HTTP 400), and a raw query, or an
// automatic persisted query's registration, where only trusted documents run (HTTP 403).
// Neither is PERSISTED_QUERY_NOT_FOUND, on which Apollo's clients resend the query: here that
// would be refused too.
const (
	codeDocumentNotFound = "PERSISTED_DOCUMENT_NOT_FOUND"
	codeDocumentRequired = "PERSISTED_DOCUMENT_REQUIRED"
)

// codeDevSignInUnavailable refuses the development sign-in (devsignin.go) of a server that does
// not offer it, with HTTP 403 and the reason as the message.
const codeDevSignInUnavailable = "DEV_SIGN_IN_UNAVAILABLE"

// extensionCode is the extensions.code of a domain error code.
func extensionCode(c domain.Code) string { return errorKinds[c].extensionCode }

// httpStatus is the HTTP status of a request refused before GraphQL runs with code c.
func httpStatus(c domain.Code) int {
	if s := errorKinds[c].httpStatus; s != 0 {
		return s
	}
	return http.StatusInternalServerError
}
