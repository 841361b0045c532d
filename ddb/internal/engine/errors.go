package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Error is a DynamoDB protocol error: Type is the exception name without its
// namespace (e.g. "ValidationException"), Message the text DynamoDB sends.
// ServeHTTP writes it as {"__type": "com.amazonaws.dynamodb.v20120810#Type",
// "message": Message} with HTTP status 400, 500 for InternalServerError, or
// 499 for a request whose context ended (RequestCanceled).
type Error struct {
	Type    string
	Message string

	// Item is the old item for ConditionalCheckFailedException when the
	// request asked for ReturnValuesOnConditionCheckFailure=ALL_OLD.
	Item any
	// Reasons are the CancellationReasons of a TransactionCanceledException.
	Reasons []CancellationReason
}

// Error implements error.
func (e *Error) Error() string { return e.Type + ": " + e.Message }

// StatusClientClosedRequest is the status of a request its client gave up
// on (nginx's 499): not a server error, so it is not counted as one.
const StatusClientClosedRequest = 499

// Status is the HTTP status code DynamoDB uses for the error.
func (e *Error) Status() int {
	switch e.Type {
	case "InternalServerError", "ServiceUnavailable":
		return http.StatusInternalServerError
	case TypeRequestTooLarge:
		return http.StatusRequestEntityTooLarge
	case TypeRequestCanceled:
		return StatusClientClosedRequest
	}
	return http.StatusBadRequest
}

// Exception names used by the engine.
const (
	TypeValidation          = "ValidationException"
	TypeResourceNotFound    = "ResourceNotFoundException"
	TypeResourceInUse       = "ResourceInUseException"
	TypeConditionalCheck    = "ConditionalCheckFailedException"
	TypeTransactionCanceled = "TransactionCanceledException"
	TypeIdempotentMismatch  = "IdempotentParameterMismatchException"
	TypeDuplicateItem       = "DuplicateItemException"
	TypeUnknownOperation    = "UnknownOperationException"
	TypeSerialization       = "SerializationException"
	TypeInternal            = "InternalServerError"
	TypeLimitExceeded       = "LimitExceededException"
	typeAccessDenied        = "AccessDeniedException"
	// TypeRequestCanceled is no DynamoDB exception: it answers a request
	// whose context ended (its client went away) before it was done.
	TypeRequestCanceled = "RequestCanceled"
)

// Validationf returns a ValidationException with a formatted message.
func Validationf(format string, args ...any) *Error {
	return &Error{Type: TypeValidation, Message: fmt.Sprintf(format, args...)}
}

// invalidParamf returns the ValidationException DynamoDB uses for bad
// parameter values: "One or more parameter values were invalid: ...".
func invalidParamf(format string, args ...any) *Error {
	return &Error{Type: TypeValidation, Message: "One or more parameter values were invalid: " + fmt.Sprintf(format, args...)}
}

// tableNotFound is the ResourceNotFoundException for a missing table.
func tableNotFound(name string) *Error {
	return &Error{Type: TypeResourceNotFound, Message: "Requested resource not found: Table: " + name + " not found"}
}

// ResourceNotFound is the generic ResourceNotFoundException data-plane
// operations return for a missing table.
func ResourceNotFound() *Error {
	return &Error{Type: TypeResourceNotFound, Message: "Requested resource not found"}
}

// conditionFailed is the ConditionalCheckFailedException, carrying the old
// item when the request asked for it.
func conditionFailed(old any) *Error {
	return &Error{Type: TypeConditionalCheck, Message: "The conditional request failed", Item: old}
}

// InternalError wraps an unexpected error (storage, encoding) as the
// InternalServerError clients see; the error of a request's ended context
// is RequestCanceled instead.
func InternalError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var ve *attr.ValidationError
	if errors.As(err, &ve) {
		return &Error{Type: TypeValidation, Message: ve.Message}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Type: TypeRequestCanceled, Message: "The request was canceled: " + err.Error()}
	}
	return &Error{Type: TypeInternal, Message: "Internal server error: " + err.Error()}
}

// AsError converts any error into an *Error.
func AsError(err error) *Error { return InternalError(err) }

// TypeRequestTooLarge is the exception of a body over MaxRequestBytes. It is not one of
// DynamoDB's own exceptions but its HTTP front end's, so its __type has the service framework's
// namespace (coralServiceNamespace); DynamoDB Local answers 413 with an empty message.
const TypeRequestTooLarge = "RequestEntityTooLargeException"
