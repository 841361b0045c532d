package expr

import (
	"bytes"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Eval reports whether item satisfies the bound condition c. A nil item
// (no such item) has no attributes. Eval never fails: comparing values of
// different types, or comparing with a missing attribute, is simply false,
// except for <>, which is true unless both sides exist and are equal (as in
// DynamoDB, "a <> b" holds when both are missing).
func (c *Condition) Eval(item attr.Item) bool {
	if !c.bound {
		panic("expr: Eval on an unbound Condition")
	}
	return evalCond(c.Root, item)
}

func evalCond(c *Cond, item attr.Item) bool {
	switch c.Kind {
	case CondAnd:
		return evalCond(c.Left, item) && evalCond(c.Right, item)
	case CondOr:
		return evalCond(c.Left, item) || evalCond(c.Right, item)
	case CondNot:
		return !evalCond(c.Left, item)
	case CondCompare:
		a, aok := evalOperand(c.Args[0], item)
		b, bok := evalOperand(c.Args[1], item)
		return compare(c.Op, a, aok, b, bok)
	case CondBetween:
		x, xok := evalOperand(c.Args[0], item)
		lo, lok := evalOperand(c.Args[1], item)
		hi, hok := evalOperand(c.Args[2], item)
		return xok && lok && hok && attr.Comparable(x, lo) && attr.Comparable(x, hi) &&
			attr.Compare(x, lo) >= 0 && attr.Compare(x, hi) <= 0
	case CondIn:
		x, ok := evalOperand(c.Args[0], item)
		if !ok {
			return false
		}
		for _, o := range c.Args[1:] {
			if v, ok := evalOperand(o, item); ok && attr.Equal(x, v) {
				return true
			}
		}
		return false
	case CondFunc:
		return evalFunc(c.Op, c.Args, item)
	}
	return false
}

func compare(op string, a attr.Value, aok bool, b attr.Value, bok bool) bool {
	switch op {
	case "=":
		return aok && bok && attr.Equal(a, b)
	case "<>":
		return !aok || !bok || !attr.Equal(a, b)
	}
	if !aok || !bok || !attr.Comparable(a, b) {
		return false
	}
	c := attr.Compare(a, b)
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

func evalFunc(fn string, args []*Operand, item attr.Item) bool {
	switch fn {
	case fnAttributeExists:
		_, ok := Get(item, args[0].Path)
		return ok
	case fnAttributeNotExists:
		_, ok := Get(item, args[0].Path)
		return !ok
	case fnAttributeType:
		v, ok := Get(item, args[0].Path)
		t, tok := evalOperand(args[1], item)
		return ok && tok && t.Type == attr.TypeS && v.Type.String() == t.S
	case fnBeginsWith:
		v, ok := evalOperand(args[0], item)
		p, pok := evalOperand(args[1], item)
		switch {
		case !ok || !pok || v.Type != p.Type:
			return false
		case v.Type == attr.TypeS:
			return strings.HasPrefix(v.S, p.S)
		case v.Type == attr.TypeB:
			return bytes.HasPrefix(v.Bytes(), p.Bytes())
		}
		return false
	case fnContains:
		v, ok := evalOperand(args[0], item)
		e, eok := evalOperand(args[1], item)
		if !ok || !eok {
			return false
		}
		switch v.Type {
		case attr.TypeS:
			return e.Type == attr.TypeS && strings.Contains(v.S, e.S)
		case attr.TypeB:
			return e.Type == attr.TypeB && bytes.Contains(v.Bytes(), e.Bytes())
		case attr.TypeSS, attr.TypeNS, attr.TypeBS:
			return v.Contains(e)
		case attr.TypeL:
			for _, x := range v.List() {
				if attr.Equal(x, e) {
					return true
				}
			}
		}
	}
	return false
}

// evalOperand returns an operand's value in item and whether it has one.
func evalOperand(o *Operand, item attr.Item) (attr.Value, bool) {
	switch o.Kind {
	case OperandValue:
		return o.Value, true
	case OperandPath:
		return Get(item, o.Path)
	case OperandFunc:
		if o.Func == fnSize {
			v, ok := evalOperand(o.Args[0], item)
			if !ok {
				return attr.Value{}, false
			}
			return sizeOf(v)
		}
	}
	return attr.Value{}, false
}

// sizeOf implements size(): the length of a string (in UTF-16 code units,
// as DynamoDB counts: a character outside the BMP counts 2) or binary (in
// bytes), or the number of elements of a set, list or map.
// Numbers, booleans and nulls have no size.
func sizeOf(v attr.Value) (attr.Value, bool) {
	var n int
	switch v.Type {
	case attr.TypeS:
		n = utf16Len(v.S)
	case attr.TypeB:
		n = len(v.Bytes())
	case attr.TypeSS:
		n = len(v.SS())
	case attr.TypeNS:
		n = len(v.NS())
	case attr.TypeBS:
		n = len(v.BS())
	case attr.TypeL:
		n = len(v.List())
	case attr.TypeM:
		n = len(v.M)
	default:
		return attr.Value{}, false
	}
	return attr.Int(int64(n)), true
}

// utf16Len returns the number of UTF-16 code units encoding s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
