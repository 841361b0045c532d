package expr

import (
	"fmt"
	"slices"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Static checks DynamoDB applies once placeholders are bound, before any
// item is read: operand types of literal values, BETWEEN bounds, distinct
// operands, and overlapping document paths.

func operandTypeError(kind, fn string, v attr.Value) error {
	return invalidf(kind, "Incorrect operand type for operator or function; operator or function: %s, operand type: %s", fn, v.Type)
}

func orderable(t attr.Type) bool { return t == attr.TypeS || t == attr.TypeN || t == attr.TypeB }

func checkCond(kind string, c *Cond) error {
	if c == nil {
		return nil
	}
	if err := checkCond(kind, c.Left); err != nil {
		return err
	}
	if err := checkCond(kind, c.Right); err != nil {
		return err
	}
	switch c.Kind {
	case CondCompare:
		if err := checkDistinct(kind, c.Op, c.Args); err != nil {
			return err
		}
		if c.Op == "=" || c.Op == "<>" {
			return nil
		}
		for _, a := range c.Args {
			if a.Kind == OperandValue && !orderable(a.Value.Type) {
				return operandTypeError(kind, c.Op, a.Value)
			}
		}
	case CondIn:
		return checkDistinct(kind, c.Op, c.Args)
	case CondBetween:
		if err := checkDistinct(kind, c.Op, c.Args); err != nil {
			return err
		}
		for _, a := range c.Args {
			if a.Kind == OperandValue && !orderable(a.Value.Type) {
				return operandTypeError(kind, c.Op, a.Value)
			}
		}
		lo, hi := c.Args[1], c.Args[2]
		if lo.Kind != OperandValue || hi.Kind != OperandValue {
			return nil
		}
		if lo.Value.Type != hi.Value.Type {
			return invalidf(kind, "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}",
				lo.Value.Type, scalarText(lo.Value), hi.Value.Type, scalarText(hi.Value))
		}
		if attr.Compare(lo.Value, hi.Value) > 0 {
			return invalidf(kind, "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}",
				lo.Value.Type, scalarText(lo.Value), hi.Value.Type, scalarText(hi.Value))
		}
	case CondFunc:
		return checkFunc(kind, c.Op, c.Args)
	}
	return nil
}

func checkFunc(kind, fn string, args []*Operand) error {
	switch fn {
	case fnBeginsWith:
		for _, a := range args {
			if a.Kind == OperandValue && a.Value.Type != attr.TypeS && a.Value.Type != attr.TypeB {
				return operandTypeError(kind, fn, a.Value)
			}
		}
		return checkDistinct(kind, fn, args)
	case fnAttributeType:
		t := args[1]
		if t.Kind != OperandValue {
			return nil
		}
		if t.Value.Type != attr.TypeS {
			return operandTypeError(kind, fn, t.Value)
		}
		if attr.ParseType(t.Value.S) == attr.TypeNone {
			return invalidf(kind, "Invalid attribute type name found; type: %s, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}", t.Value.S)
		}
	case fnContains:
		return checkDistinct(kind, fn, args)
	}
	return nil
}

// checkDistinct rejects an operator or function whose first operand, a
// path, appears again among the others (a = a, contains(a, a)).
func checkDistinct(kind, op string, args []*Operand) error {
	if args[0].Kind != OperandPath {
		return nil
	}
	for _, a := range args[1:] {
		if a.Kind == OperandPath && slices.Equal(args[0].Path, a.Path) {
			return invalidf(kind, "The first operand must be distinct from the remaining operands for this operator or function; operator: %s, first operand: %s", op, args[0].Path.list())
		}
	}
	return nil
}

func scalarText(v attr.Value) string {
	switch v.Type {
	case attr.TypeS:
		return v.S
	case attr.TypeN:
		return v.NumText()
	}
	return strings.Trim(v.String(), "{}")
}

// updateTypeNames are the type names DynamoDB uses in ADD/DELETE messages.
var updateTypeNames = map[attr.Type]string{
	attr.TypeS: "STRING", attr.TypeN: "NUMBER", attr.TypeB: "BINARY", attr.TypeBOOL: "BOOLEAN",
	attr.TypeNULL: "NULL", attr.TypeL: "LIST", attr.TypeM: "MAP",
	attr.TypeSS: "STRING_SET", attr.TypeNS: "NUMBER_SET", attr.TypeBS: "BINARY_SET",
}

func checkUpdate(u *Update) error {
	for _, a := range u.Set {
		if err := checkSetOperand(a.Value); err != nil {
			return err
		}
	}
	for _, a := range u.Add {
		if t := a.Value.Value.Type; t != attr.TypeN && !t.IsSet() {
			return invalidf(KindUpdate, "Incorrect operand type for operator or function; operator: ADD, operand type: %s, typeSet: ALLOWED_FOR_ADD_OPERAND", updateTypeNames[t])
		}
	}
	for _, a := range u.Delete {
		if t := a.Value.Value.Type; !t.IsSet() {
			return invalidf(KindUpdate, "Incorrect operand type for operator or function; operator: DELETE, operand type: %s, typeSet: ALLOWED_FOR_DELETE_OPERAND", updateTypeNames[t])
		}
	}
	return nil
}

func checkSetOperand(o *Operand) error {
	switch o.Kind {
	case OperandPlus, OperandMinus:
		op := "+"
		if o.Kind == OperandMinus {
			op = "-"
		}
		for _, a := range o.Args {
			if a.Kind == OperandValue && a.Value.Type != attr.TypeN {
				return operandTypeError(KindUpdate, op, a.Value)
			}
			if err := checkSetOperand(a); err != nil {
				return err
			}
		}
	case OperandFunc:
		for i, a := range o.Args {
			if o.Func == fnListAppend && a.Kind == OperandValue && a.Value.Type != attr.TypeL {
				return operandTypeError(KindUpdate, o.Func, a.Value)
			}
			if o.Func == fnIfNotExists && i == 0 {
				continue
			}
			if err := checkSetOperand(a); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkOverlaps rejects two paths where one is equal to or a prefix of the
// other (overlap), or where they use one step as both a map key and a list
// index (conflict).
func checkOverlaps(kind string, paths []Path) error {
	// Each path is checked against the earlier ones, latest first: the
	// order in which DynamoDB reports the pair.
	for j := range paths {
		for i := j - 1; i >= 0; i-- {
			if err := overlap(kind, paths[i], paths[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

func overlap(kind string, a, b Path) error {
	for k := 0; k < len(a) && k < len(b); k++ {
		if a[k] == b[k] {
			continue
		}
		if a[k].IsIndex != b[k].IsIndex {
			return invalid(kind, fmt.Sprintf("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s", a.list(), b.list()))
		}
		return nil
	}
	return invalid(kind, fmt.Sprintf("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s", a.list(), b.list()))
}
