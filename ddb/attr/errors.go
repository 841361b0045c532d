package attr

import "fmt"

// ValidationError is a malformed or out-of-range attribute value. Message is
// worded as DynamoDB words the corresponding ValidationException.
type ValidationError struct {
	Message string
}

// Error returns the DynamoDB message.
func (e *ValidationError) Error() string { return e.Message }

func invalidf(format string, args ...any) *ValidationError {
	return &ValidationError{Message: fmt.Sprintf(format, args...)}
}

// Messages shared with the protocol handler and package expr.
const (
	// MsgInvalidParams prefixes most item validation messages.
	MsgInvalidParams = "One or more parameter values were invalid: "
	// MsgEmptyName is DynamoDB's message for an attribute name of no characters, wherever the
	// request names an attribute.
	MsgEmptyName = "Empty attribute name"
	// MsgNameTooLarge is DynamoDB's message for an attribute name over MaxNameBytes, wherever
	// the request names an attribute.
	MsgNameTooLarge = "Attribute name is too large, must be less than 65536 bytes"

	// MsgEmptyValue is DynamoDB's message for an AttributeValue with no type set.
	MsgEmptyValue    = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	msgManyTypes     = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	msgNotNumber     = "A value provided cannot be converted into a number"
	msgTooManyDigits = "Attempting to store more than 38 significant digits in a Number"
	msgOverflow      = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	msgUnderflow     = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
	// MsgNullNotTrue is DynamoDB's message for {"NULL": false}.
	MsgNullNotTrue = MsgInvalidParams + "Null attribute value types must have the value of true"
	msgEmptySS     = MsgInvalidParams + "An string set  may not be empty"
	msgEmptyNS     = MsgInvalidParams + "An number set  may not be empty"
	msgEmptyBS     = MsgInvalidParams + "Binary sets should not be empty"
	// MsgNestingTooDeep is DynamoDB's message for lists and maps nested deeper than MaxDepth.
	MsgNestingTooDeep = "Nesting Levels have exceeded supported limits"
	msgDuplicateNS    = "Input collection contains duplicates"
	msgDuplicateBS    = MsgInvalidParams + "Input collection of type BS contains duplicates."
)

// MaxNameBytes is the longest attribute name DynamoDB accepts, in bytes of UTF-8: an
// attribute name is 1 to 65,535 bytes (key attributes, and attributes projected into an index,
// 1 to 255).
const MaxNameBytes = 65535

// CheckName returns DynamoDB's error for an attribute name that no attribute may have: empty
// or over MaxNameBytes; nil for any other.
func CheckName(name string) *ValidationError {
	switch {
	case name == "":
		return &ValidationError{Message: MsgEmptyName}
	case len(name) > MaxNameBytes:
		return &ValidationError{Message: MsgNameTooLarge}
	}
	return nil
}

// MaxDepth is the deepest nesting of lists and maps DynamoDB accepts, counting the item itself
// as the first level when the value is an item's attribute.
const MaxDepth = 32
