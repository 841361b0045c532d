package expr

import (
	"fmt"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Expression kinds, as DynamoDB names them in error messages.
const (
	KindCondition    = "ConditionExpression"
	KindFilter       = "FilterExpression"
	KindKeyCondition = "KeyConditionExpression"
	KindProjection   = "ProjectionExpression"
	KindUpdate       = "UpdateExpression"
)

// MaxExpressionSize is the longest expression string DynamoDB accepts.
const MaxExpressionSize = 4096

// MaxInOperands is the most operands the IN comparator accepts.
const MaxInOperands = 100

// MaxOperators is DynamoDB's limit on the operators and functions of one expression:
// comparators, AND, OR, NOT, BETWEEN, IN, function calls, and + and - in updates.
const MaxOperators = 300

// invalid returns the ValidationError "Invalid <kind>: <msg>".
func invalid(kind, msg string) error {
	return &attr.ValidationError{Message: "Invalid " + kind + ": " + msg}
}

func invalidf(kind, format string, args ...any) error {
	return invalid(kind, fmt.Sprintf(format, args...))
}

// plain returns a ValidationError with msg as is (evaluation-time errors
// that DynamoDB does not prefix).
func plain(msg string) error { return &attr.ValidationError{Message: msg} }

// Evaluation-time messages of UpdateItem.
const (
	MsgMissingOperand = "The provided expression refers to an attribute that does not exist in the item"
	MsgWrongType      = "An operand in the update expression has an incorrect data type"
	MsgInvalidPath    = "The document path provided in the update expression is invalid for update"
)
