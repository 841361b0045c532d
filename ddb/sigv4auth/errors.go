package sigv4auth

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"net/http"
	"strconv"
)

// coralServiceNamespace prefixes the __type of the errors AWS's front end answers before
// DynamoDB runs the operation: every error of this package.
const coralServiceNamespace = "com.amazon.coral.service#"

// The exceptions DynamoDB answers to a request it cannot authenticate or authorise.
const (
	// typeMissingToken: no Authorization header.
	typeMissingToken = "MissingAuthenticationTokenException"
	// typeIncomplete: an Authorization header or date that cannot be parsed.
	typeIncomplete = "IncompleteSignatureException"
	// typeInvalidSignature: a wrong signature, scope, or a date outside the allowed skew.
	typeInvalidSignature = "InvalidSignatureException"
	// typeUnrecognizedClient: an unknown access key, or a session token.
	typeUnrecognizedClient = "UnrecognizedClientException"
	// typeAccessDenied: a read-only key asking for a write.
	typeAccessDenied = "AccessDeniedException"
	// typeRequestTooLarge: a body over ddb.MaxRequestBytes (wire.BodyBudget answers a body
	// that could not be read with the engine's own exceptions).
	typeRequestTooLarge = "RequestEntityTooLargeException"
)

// authError is a refusal: the exception name and DynamoDB's message.
type authError struct {
	Type    string
	Message string
}

func (e *authError) Error() string { return e.Type + ": " + e.Message }

// status is the HTTP status DynamoDB answers the error with.
func (e *authError) status() int {
	if e.Type == typeRequestTooLarge {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// writeError answers e as DynamoDB does, with the headers the engine's own answers carry:
// the SDKs check X-Amz-Crc32 and report x-amzn-RequestId.
func writeError(w http.ResponseWriter, e *authError) {
	body, _ := json.Marshal(map[string]string{"__type": coralServiceNamespace + e.Type, "message": e.Message})
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.0")
	h.Set("x-amzn-RequestId", requestID())
	h.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.status())
	_, _ = w.Write(body)
}

// requestID returns a random UUID-shaped request ID, as the engine's are.
func requestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
