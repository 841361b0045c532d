package expr

import (
	"strconv"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// PathElem is one step of a document path: a map key or a list index.
type PathElem struct {
	// Name is the attribute or map key name. Before binding it may be an
	// expression attribute name placeholder ("#n").
	Name string
	// Index is the list index when IsIndex is set.
	Index   int
	IsIndex bool
}

// Path is a document path such as a.b[2].c.
type Path []PathElem

// String renders p in expression syntax (a.b[2]).
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		if e.IsIndex {
			b.WriteString("[" + strconv.Itoa(e.Index) + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.Name)
	}
	return b.String()
}

// list renders p as DynamoDB does in overlap messages: [a, b, [2]].
func (p Path) list() string {
	parts := make([]string, len(p))
	for i, e := range p {
		if e.IsIndex {
			parts[i] = "[" + strconv.Itoa(e.Index) + "]"
		} else {
			parts[i] = e.Name
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// OperandKind says what an Operand is.
type OperandKind uint8

// Operand kinds.
const (
	OperandPath  OperandKind = iota + 1 // a document path
	OperandValue                        // an expression attribute value
	OperandFunc                         // a function call: size, if_not_exists, list_append
	OperandPlus                         // Args[0] + Args[1] (update only)
	OperandMinus                        // Args[0] - Args[1] (update only)
)

// Operand is a value-producing term of an expression.
type Operand struct {
	Kind OperandKind
	Path Path
	// Ref is the ":v" placeholder of an OperandValue; Value is its value
	// once bound.
	Ref   string
	Value attr.Value
	// Func is the function name of an OperandFunc.
	Func string
	Args []*Operand
	tok  int // index of the operand's first token, for messages
}

// CondKind says what a Cond node is.
type CondKind uint8

// Condition node kinds.
const (
	CondCompare CondKind = iota + 1 // Args[0] Op Args[1]
	CondBetween                     // Args[0] BETWEEN Args[1] AND Args[2]
	CondIn                          // Args[0] IN (Args[1:]...)
	CondAnd                         // Left AND Right
	CondOr                          // Left OR Right
	CondNot                         // NOT Left
	CondFunc                        // Op(Args...): attribute_exists, begins_with, …
)

// Cond is a node of a condition (ConditionExpression, FilterExpression or
// KeyConditionExpression).
type Cond struct {
	Kind CondKind
	// Op is the comparator (=, <>, <, <=, >, >=) or the function name.
	Op          string
	Args        []*Operand
	Left, Right *Cond
	parens      bool // produced directly by a parenthesized group
}

// Function names.
const (
	fnAttributeExists    = "attribute_exists"
	fnAttributeNotExists = "attribute_not_exists"
	fnAttributeType      = "attribute_type"
	fnBeginsWith         = "begins_with"
	fnContains           = "contains"
	fnSize               = "size"
	fnIfNotExists        = "if_not_exists"
	fnListAppend         = "list_append"
)

// funcArity gives each known function's operand count.
var funcArity = map[string]int{
	fnAttributeExists: 1, fnAttributeNotExists: 1, fnAttributeType: 2,
	fnBeginsWith: 2, fnContains: 2, fnSize: 1, fnIfNotExists: 2, fnListAppend: 2,
}

// isCondFunc reports whether f is a boolean function of conditions.
func isCondFunc(f string) bool {
	switch f {
	case fnAttributeExists, fnAttributeNotExists, fnAttributeType, fnBeginsWith, fnContains:
		return true
	}
	return false
}
