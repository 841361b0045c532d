package expr

import (
	"bytes"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// KeyCondition is a parsed KeyConditionExpression: an equality on the
// partition key, optionally AND one condition on the sort key.
type KeyCondition struct {
	placeholders
	Root *Cond
}

// ParseKeyCondition parses a KeyConditionExpression and rejects the
// operators a key condition cannot use (OR, NOT, IN, <>, and functions
// other than begins_with).
func ParseKeyCondition(s string) (*KeyCondition, error) {
	c, err := parseCondition(KindKeyCondition, s)
	if err != nil {
		return nil, err
	}
	if err := checkKeyOps(c.Root); err != nil {
		return nil, err
	}
	return &KeyCondition{placeholders: c.placeholders, Root: c.Root}, nil
}

func checkKeyOps(c *Cond) error {
	bad := ""
	switch c.Kind {
	case CondOr:
		bad = "OR"
	case CondNot:
		bad = "NOT"
	case CondIn:
		bad = "IN"
	case CondCompare:
		if c.Op == "<>" {
			bad = c.Op
		}
	case CondFunc:
		if c.Op != fnBeginsWith {
			bad = c.Op
		}
	case CondAnd:
		if err := checkKeyOps(c.Left); err != nil {
			return err
		}
		return checkKeyOps(c.Right)
	}
	if bad != "" {
		return plain("Invalid operator used in KeyConditionExpression: " + bad)
	}
	for _, a := range c.Args {
		if a.Kind == OperandFunc {
			return plain("KeyConditionExpressions cannot contain nested operations")
		}
	}
	return nil
}

// KeySchema names a table's or index's key attributes and their types.
// RangeKey is empty for a table without a sort key.
type KeySchema struct {
	HashKey   string
	HashType  attr.Type
	RangeKey  string
	RangeType attr.Type
}

// SortOp is the operator of a sort key condition.
type SortOp uint8

// Sort key operators.
const (
	SortEQ SortOp = iota + 1
	SortLT
	SortLE
	SortGT
	SortGE
	SortBetween
	SortBeginsWith
)

// SortCondition is the condition on the sort key: Op with Value, or for
// SortBetween the inclusive bounds Value and Hi.
type SortCondition struct {
	Op    SortOp
	Value attr.Value
	Hi    attr.Value
}

// Match reports whether sort key value v satisfies s.
func (s *SortCondition) Match(v attr.Value) bool {
	if s == nil {
		return true
	}
	if v.Type != s.Value.Type {
		return false
	}
	c := attr.Compare(v, s.Value)
	switch s.Op {
	case SortEQ:
		return c == 0
	case SortLT:
		return c < 0
	case SortLE:
		return c <= 0
	case SortGT:
		return c > 0
	case SortGE:
		return c >= 0
	case SortBetween:
		return c >= 0 && attr.Compare(v, s.Hi) <= 0
	case SortBeginsWith:
		if v.Type == attr.TypeS {
			return strings.HasPrefix(v.S, s.Value.S)
		}
		return bytes.HasPrefix(v.Bytes(), s.Value.Bytes())
	}
	return false
}

// KeyRange is a bound key condition, ready for a range scan: all items
// whose partition key equals Partition and whose sort key satisfies Sort
// (nil: any sort key).
type KeyRange struct {
	Partition attr.Value
	Sort      *SortCondition
}

var sortOps = map[string]SortOp{"=": SortEQ, "<": SortLT, "<=": SortLE, ">": SortGT, ">=": SortGE}

// flip mirrors a comparator for "value op key".
var flip = map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// Bind substitutes p's names and values and checks the condition against
// the key schema, returning the range to scan.
func (k *KeyCondition) Bind(p *Params, schema KeySchema) (*KeyRange, error) {
	c, err := (&Condition{placeholders: k.placeholders, Kind: KindKeyCondition, Root: k.Root}).Bind(p)
	if err != nil {
		return nil, err
	}
	var leaves []*Cond
	var collect func(*Cond)
	collect = func(c *Cond) {
		if c.Kind == CondAnd {
			collect(c.Left)
			collect(c.Right)
			return
		}
		leaves = append(leaves, c)
	}
	collect(c.Root)
	// One condition per key is checked before the number of conditions.
	seen := map[string]bool{}
	for _, l := range leaves {
		if name, ok := leafKeyName(l); ok {
			if seen[name] {
				return nil, plain("KeyConditionExpressions must only contain one condition per key")
			}
			seen[name] = true
			if name == schema.HashKey || name == schema.RangeKey {
				if p := leafPath(l); len(p) > 1 {
					return nil, plain("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: " + name)
				}
			}
		}
	}
	if len(leaves) > 2 {
		return nil, plain("Conditions can be of length 1 or 2 only")
	}
	r := &KeyRange{}
	var hashSeen, rangeSeen bool
	var other string
	for _, l := range leaves {
		name, sc, err := keyLeaf(l)
		if err != nil {
			return nil, err
		}
		switch {
		case name == schema.HashKey:
			hashSeen = true
			if sc.Op != SortEQ {
				return nil, plain("Query key condition not supported")
			}
			if sc.Value.Type != schema.HashType {
				return nil, plain(attr.MsgInvalidParams + "Condition parameter type does not match schema type")
			}
			r.Partition = sc.Value
		case name == schema.RangeKey && schema.RangeKey != "":
			rangeSeen = true
			if sc.Op == SortBeginsWith && schema.RangeType == attr.TypeN {
				return nil, operandTypeError(KindKeyCondition, fnBeginsWith, attr.Value{Type: attr.TypeN})
			}
			if sc.Value.Type != schema.RangeType || (sc.Op == SortBetween && sc.Hi.Type != schema.RangeType) {
				return nil, plain(attr.MsgInvalidParams + "Condition parameter type does not match schema type")
			}
			r.Sort = sc
		default:
			other = name
		}
	}
	switch {
	case !hashSeen:
		return nil, plain("Query condition missed key schema element: " + schema.HashKey)
	case other != "" && schema.RangeKey != "" && !rangeSeen:
		return nil, plain("Query condition missed key schema element: " + schema.RangeKey)
	case other != "":
		return nil, plain("Query key condition not supported")
	}
	return r, nil
}

// keyLeaf turns one leaf of a key condition into (key name, condition).
func keyLeaf(c *Cond) (string, *SortCondition, error) {
	notSupported := plain("Query key condition not supported")
	keyName := func(o *Operand) (string, bool) {
		if o.Kind != OperandPath || len(o.Path) != 1 || o.Path[0].IsIndex {
			return "", false
		}
		return o.Path[0].Name, true
	}
	switch c.Kind {
	case CondCompare:
		op := c.Op
		key, val := c.Args[0], c.Args[1]
		if key.Kind == OperandValue {
			key, val, op = val, key, flip[op]
		}
		name, ok := keyName(key)
		if !ok || val.Kind != OperandValue {
			return "", nil, notSupported
		}
		return name, &SortCondition{Op: sortOps[op], Value: val.Value}, nil
	case CondBetween:
		name, ok := keyName(c.Args[0])
		if !ok || c.Args[1].Kind != OperandValue || c.Args[2].Kind != OperandValue {
			return "", nil, notSupported
		}
		return name, &SortCondition{Op: SortBetween, Value: c.Args[1].Value, Hi: c.Args[2].Value}, nil
	case CondFunc: // begins_with, the only function checkKeyOps lets through
		name, ok := keyName(c.Args[0])
		if !ok || c.Args[1].Kind != OperandValue {
			return "", nil, notSupported
		}
		return name, &SortCondition{Op: SortBeginsWith, Value: c.Args[1].Value}, nil
	}
	return "", nil, notSupported
}

// leafPath returns the path a key condition leaf constrains, or nil.
func leafPath(c *Cond) Path {
	for _, a := range c.Args {
		if a.Kind == OperandPath {
			return a.Path
		}
	}
	return nil
}

// leafKeyName returns the top-level attribute a leaf constrains.
func leafKeyName(c *Cond) (string, bool) {
	if p := leafPath(c); p != nil {
		return p[0].Name, true
	}
	return "", false
}
