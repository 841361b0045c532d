package domain

import (
	"errors"
	"fmt"
)

// Code classifies an Error. The GraphQL edge maps each code to one extensions.code, in one place.
type Code string

// The error codes. Anything that is not an *Error, or carries no code, is Internal.
const (
	// Invalid: the caller sent something malformed; retrying the same request cannot succeed.
	Invalid Code = "invalid"
	// NotFound: something the request names does not exist.
	NotFound Code = "not_found"
	// Conflict: the request collides with existing data (username taken, already following, …).
	Conflict Code = "conflict"
	// Unauthenticated: the caller's identity is missing or not valid.
	Unauthenticated Code = "unauthenticated"
	// Forbidden: the caller is known but may not do this.
	Forbidden Code = "forbidden"
	// Unavailable: the store is overloaded or unreachable after bounded retries; retrying later may succeed.
	Unavailable Code = "unavailable"
	// LimitExceeded: the caller went past a bound the server sets on what one client may
	// hold (subscriptions, connections, how far behind a subscriber may fall).
	LimitExceeded Code = "limit_exceeded"
	// CursorExpired: a change log cursor older than the log's retention, whose changes may be
	// gone; the client reads its whole scope again and starts a new sync.
	CursorExpired Code = "cursor_expired"
	// Internal: a bug or an unexpected failure; its details are logged, not shown.
	Internal Code = "internal"
)

// Error is an error with a Code and a message meant for the client developer.
type Error struct {
	Code    Code
	Message string
	// Err is the underlying cause, kept for logs; it is never shown to clients.
	Err error
	// Details are facts a client can act on, shown beside the code in the error's
	// extensions (e.g. "current", the object a Conflict found); keys and values are in the
	// schema's vocabulary.
	Details map[string]any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with code and message that keeps err as its cause.
func Wrap(code Code, err error, message string) *Error {
	return &Error{Code: code, Message: message, Err: err}
}

// ErrorCode returns the code of the first *Error in err's chain, Internal when there is none,
// and "" for a nil error.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) && e.Code != "" {
		return e.Code
	}
	return Internal
}

// ErrorMessage returns the client-facing message of err: the message of its *Error, or a
// generic text for internal errors so that no detail of a failure leaks to clients.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != Internal && e.Code != "" {
		return e.Message
	}
	return "internal error"
}
