package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Request shape validation. DynamoDB's front end checks every parameter
// against the constraints of the API model (lengths, patterns, enum values,
// ranges) before an operation runs, and reports all the violations of a
// request together: "2 validation errors detected: Value 'X' at
// 'returnValues' failed to satisfy constraint: …; Value 'Y' at …". The
// operations then apply their own rules, one error at a time. A table name
// that breaks the model is so refused before the table is looked up.

// Violations collects a request's constraint violations, in the order the
// model lists the parameters.
type Violations []string

// Add records one violation of the parameter at path, whose value is
// rendered as the model's message does ("null" when absent).
func (v *Violations) Add(value, path, constraint string) {
	*v = append(*v, fmt.Sprintf("Value %s at '%s' failed to satisfy constraint: %s", value, path, constraint))
}

// Err returns the ValidationException listing the violations, nil when
// there are none.
func (v Violations) Err() *Error {
	switch len(v) {
	case 0:
		return nil
	case 1:
		return Validationf("1 validation error detected: %s", v[0])
	}
	return Validationf("%d validation errors detected: %s", len(v), strings.Join(v, "; "))
}

// quoted renders a string value as the model's messages do.
func quoted(s string) string { return "'" + s + "'" }

// Enum checks an optional enum parameter: "" is absent.
func (v *Violations) Enum(path, value string, set ...string) {
	if value == "" {
		return
	}
	for _, s := range set {
		if value == s {
			return
		}
	}
	v.Add(quoted(value), path, "Member must satisfy enum value set: ["+strings.Join(set, ", ")+"]")
}

// Enum value sets, in the order DynamoDB's messages list them.
var (
	returnValuesSet           = []string{"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"}
	ReturnConsumedCapacitySet = []string{"INDEXES", "TOTAL", "NONE"}
	returnCollectionSet       = []string{"SIZE", "NONE"}
)

// tableNamePattern is the model's pattern of a table name.
const tableNamePattern = "[a-zA-Z0-9_.-]+"

// validTableNameChars reports whether name matches tableNamePattern.
func validTableNameChars(name string) bool {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.", r)) {
			return false
		}
	}
	return true
}

// Table names. DynamoDB's model gives a table name 3 to 255 characters of
// tableNamePattern. The data-plane operations (the item reads and writes,
// batches and transactions), whose TableName DynamoDB also lets be a table
// ARN, check the member's presence and a minimum length of 1 first, so an
// empty name there breaks only that; every other name is then held to the
// table-name rule (the engine takes names only: an ARN breaks the pattern).
// The operations on tables (DescribeTable, UpdateTable, DeleteTable, the
// TTL operations, ListStreams) check the name rule alone. Either way, a name
// no table could have is a ValidationException before any lookup, never a
// ResourceNotFoundException; the violations are listed length first, as
// DynamoDB does ("2 validation errors detected: Value 'x!' at 'tableName'
// failed to satisfy constraint: Member must have length greater than or
// equal to 3; Value 'x!' at …: Member must satisfy regular expression
// pattern: [a-zA-Z0-9_.-]+").

// Table name length bounds of DynamoDB's model.
const (
	minTableName = 3
	maxTableName = 255
)

// tableName checks the TableName of a data-plane operation (see above).
// absent tells an absent TableName from an empty one, which decode alike
// (see absentTableName).
func (v *Violations) tableName(name string, absent bool) {
	v.dataTableName("tableName", name, absent)
}

// dataTableName checks a data-plane table name at path (see above).
func (v *Violations) dataTableName(path, name string, absent bool) {
	switch {
	case name == "" && absent:
		v.Add("null", path, "Member must not be null")
	case name == "":
		v.Add("''", path, "Member must have length greater than or equal to 1")
	default:
		v.tableNameRule(path, name)
	}
}

// tableNameRule checks name against the table-name rule (see above).
func (v *Violations) tableNameRule(path, name string) {
	switch {
	case len(name) < minTableName:
		v.Add(quoted(name), path, fmt.Sprintf("Member must have length greater than or equal to %d", minTableName))
	case len(name) > maxTableName:
		v.Add(quoted(name), path, fmt.Sprintf("Member must have length less than or equal to %d", maxTableName))
	}
	if name == "" || !validTableNameChars(name) {
		v.Add(quoted(name), path, "Member must satisfy regular expression pattern: "+tableNamePattern)
	}
}

// controlTableName checks the TableName of an operation on a table (see
// above): present, and a name some table could have.
func controlTableName(name string, absent bool) *Error {
	if absent {
		var v Violations
		v.Add("null", "tableName", "Member must not be null")
		return v.Err()
	}
	return validTableName("tableName", name)
}

// validTableKey reports whether name, a key of a BatchGetItem or
// BatchWriteItem RequestItems map, is a name some table could have.
func validTableKey(name string) bool {
	return len(name) >= minTableName && len(name) <= maxTableName && validTableNameChars(name)
}

// tableKeysConstraint is the constraint a RequestItems map whose keys are
// not all table names breaks, as DynamoDB words it.
var tableKeysConstraint = fmt.Sprintf("Map keys must satisfy constraint: [Member must have length less than or equal to %d, "+
	"Member must have length greater than or equal to %d, Member must satisfy regular expression pattern: %s]",
	maxTableName, minTableName, tableNamePattern)

// requestItemsKeys checks the keys of a BatchGetItem or BatchWriteItem
// RequestItems map (requestItems): DynamoDB quotes the whole map, as JSON.
func requestItemsKeys[T any](requestItems map[string]T) *Error {
	for name := range requestItems {
		if validTableKey(name) {
			continue
		}
		raw, err := json.Marshal(requestItems)
		if err != nil {
			raw = []byte("?")
		}
		var v Violations
		v.Add(quoted(string(raw)), "requestItems", tableKeysConstraint)
		return v.Err()
	}
	return nil
}

// AbsentTableName reports whether a request whose TableName decoded as name
// left it out of body (or gave it as null). The in-process API knows it from
// the SDK input's nil pointer instead.
func AbsentTableName(name string, body []byte) bool {
	return name == "" && !hasTopLevelKey(body, "TableName")
}

// NoteAbsentTableName sets TableNameAbsent from the JSON body the request
// was decoded from (AbsentTableName), for each request that has one.
func (in *CreateTableInput) NoteAbsentTableName(body []byte) {
	in.TableNameAbsent = AbsentTableName(in.TableName, body)
}

func (in *ReadParams) NoteAbsentTableName(body []byte) {
	in.TableNameAbsent = AbsentTableName(in.TableName, body)
}

func (in *TableNameInput) NoteAbsentTableName(body []byte) {
	in.TableNameAbsent = AbsentTableName(in.TableName, body)
}

func (in *UpdateTTLInput) NoteAbsentTableName(body []byte) {
	in.TableNameAbsent = AbsentTableName(in.TableName, body)
}

func (in *UpdateTableInput) NoteAbsentTableName(body []byte) {
	in.TableNameAbsent = AbsentTableName(in.TableName, body)
}

func (in *WriteParams) NoteAbsentTableName(body []byte) {
	in.TableNameAbsent = AbsentTableName(in.TableName, body)
}

// hasTopLevelKey reports whether the JSON object body has key with a value
// other than null. It decodes body again, so it is for error paths only.
func hasTopLevelKey(body []byte, key string) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return false
	}
	raw, ok := top[key]
	return ok && string(raw) != "null"
}

// jsonList renders values as the model's validation messages show a list:
// each value as its JSON ("?" if it has none), joined by ", ".
func jsonList[T any](values []T) string {
	parts := make([]string, len(values))
	for i, v := range values {
		raw, err := json.Marshal(v)
		if err != nil {
			raw = []byte("?")
		}
		parts[i] = string(raw)
	}
	return strings.Join(parts, ", ")
}

// IsNesting reports whether err is the nesting-depth error, which ends the
// decoding of a whole request at once (attr's decoder aborts on it), ahead
// of any other value error.
func IsNesting(err error) bool {
	ve, ok := err.(*attr.ValidationError)
	return ok && ve.Message == attr.MsgNestingTooDeep
}
