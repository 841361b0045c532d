package sdkapi

// Attribute values on the in-process API (sdkapi.go): the SDK's
// types.AttributeValue to the engine's attr.Value and back, with no JSON in
// between. Conversion in validates as the JSON decoder (package attr) does,
// so that a value the HTTP path refuses is refused here with the same
// ValidationException; where the SDK itself could not send a value (a nil
// in a map, an unknown union member), the error is the
// SerializationException the engine answers to what the SDK then sends.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// errUnserializable is the answer to a value the SDK cannot serialize into a
// valid request (it writes broken JSON, which the engine refuses).
func errUnserializable(what string) *engine.Error {
	return &engine.Error{Type: engine.TypeSerialization, Message: "the request cannot be serialized: " + what}
}

// validString is s as the SDK serializes it: invalid UTF-8 bytes become
// U+FFFD, as encoding/json writes them.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// valueFromSDK converts one AttributeValue at nesting depth (0 for a
// standalone value, 1 for an item's attribute), validating it. It stops at
// the first error it meets, in map order; standaloneFromSDK and itemFromSDK
// then convert again with exact set to find the error the HTTP path
// reports (see exactValue).
func valueFromSDK(v types.AttributeValue, depth int) (attr.Value, error) {
	return convertValue(v, depth, false)
}

// exactValue converts v again after an error, to report the error the
// decoder of a JSON request would: a nesting error wherever it is (the
// decoder aborts on it), else the first in the request's order, which for a
// map is taken as name order (the SDK writes maps in no fixed order).
func exactValue(v types.AttributeValue, depth int) error {
	_, err := convertValue(v, depth, true)
	return err
}

// convertValue is valueFromSDK; exact makes it look at every member of
// lists and maps, in name order, as exactValue needs.
func convertValue(v types.AttributeValue, depth int, exact bool) (attr.Value, error) {
	if depth > attr.MaxDepth {
		return attr.Value{}, &attr.ValidationError{Message: attr.MsgNestingTooDeep}
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return attr.S(validString(v.Value)), nil
	case *types.AttributeValueMemberN:
		return attr.ParseN(v.Value)
	case *types.AttributeValueMemberB:
		if v.Value == nil {
			// The SDK sends {"B": null}: no type at all.
			return attr.Value{}, &attr.ValidationError{Message: attr.MsgEmptyValue}
		}
		return attr.B(v.Value), nil
	case *types.AttributeValueMemberBOOL:
		return attr.Bool(v.Value), nil
	case *types.AttributeValueMemberNULL:
		if !v.Value {
			return attr.Value{}, &attr.ValidationError{Message: attr.MsgNullNotTrue}
		}
		return attr.Null(), nil
	case *types.AttributeValueMemberSS:
		ss := make([]string, len(v.Value))
		for i, s := range v.Value {
			ss[i] = validString(s)
		}
		out := attr.SS(ss...)
		return out, attr.ValidateSet(out)
	case *types.AttributeValueMemberNS:
		ns := slices.Clone(v.Value)
		out := attr.NS(ns...)
		if err := attr.ValidateSet(out); err != nil {
			return attr.Value{}, err
		}
		// Canonical texts, written into the members before the Value is handed out.
		for i, s := range ns {
			n, _ := attr.ParseN(s) // validated above
			ns[i] = n.NumText()
		}
		return out, nil
	case *types.AttributeValueMemberBS:
		for _, b := range v.Value {
			if b == nil {
				return attr.Value{}, errUnserializable("a nil member of a binary set")
			}
		}
		out := attr.BS(v.Value...)
		return out, attr.ValidateSet(out)
	case *types.AttributeValueMemberL:
		l := make([]attr.Value, 0, len(v.Value))
		var first error
		for _, e := range v.Value {
			if e == nil {
				continue // the SDK leaves nil elements out of the list it sends
			}
			x, err := convertValue(e, depth+1, exact)
			if err != nil && (!exact || engine.IsNesting(err)) {
				return attr.Value{}, err
			}
			if err != nil && first == nil {
				first = err
			}
			l = append(l, x)
		}
		if first != nil {
			return attr.Value{}, first
		}
		return attr.L(l...), nil
	case *types.AttributeValueMemberM:
		m, err := convertMap(v.Value, depth+1, exact)
		if err != nil {
			return attr.Value{}, err
		}
		if m == nil {
			m = map[string]attr.Value{}
		}
		return attr.M(m), nil
	case nil:
		return attr.Value{}, errUnserializable("a nil AttributeValue")
	}
	return attr.Value{}, errUnserializable("an AttributeValue of unknown type")
}

// convertMap converts the members of a map or an item, each at depth, and
// refuses empty names; exact is as for convertValue.
func convertMap(m map[string]types.AttributeValue, depth int, exact bool) (map[string]attr.Value, error) {
	if m == nil {
		return nil, nil
	}
	if exact {
		var first error
		for _, k := range slices.Sorted(maps.Keys(m)) {
			_, err := memberFromSDK(k, m[k], depth, true)
			if engine.IsNesting(err) {
				return nil, err
			}
			if err != nil && first == nil {
				first = err
			}
		}
		if first != nil {
			return nil, first
		}
	}
	return convertMembers(make(map[string]attr.Value, len(m)), m, depth)
}

// convertMembers converts the members of m into out, as convertMap does
// when not exact.
func convertMembers(out map[string]attr.Value, m map[string]types.AttributeValue, depth int) (map[string]attr.Value, error) {
	for k, v := range m {
		x, err := memberFromSDK(k, v, depth, false)
		if err != nil {
			return nil, err
		}
		out[validString(k)] = x
	}
	return out, nil
}

// memberFromSDK converts one member of a map or item.
func memberFromSDK(k string, v types.AttributeValue, depth int, exact bool) (attr.Value, error) {
	if v == nil {
		return attr.Value{}, errUnserializable("a nil AttributeValue for " + k)
	}
	x, err := convertValue(v, depth, exact)
	if bad := attr.CheckName(validString(k)); err == nil && bad != nil {
		err = bad
	}
	return x, err
}

// itemFromSDK converts an item (Item, Key, ExclusiveStartKey): nil stays
// nil, as an absent member decodes.
func itemFromSDK(m map[string]types.AttributeValue) (attr.Item, error) {
	it, err := convertMap(m, 1, false)
	if err != nil {
		_, err = convertMap(m, 1, true)
		return nil, err
	}
	return attr.Item(it), nil
}

// itemsFromSDK converts a list of items (BatchGetItem's Keys).
func itemsFromSDK(list []map[string]types.AttributeValue) ([]attr.Item, error) {
	if list == nil {
		return nil, nil
	}
	out := make([]attr.Item, len(list))
	for i, m := range list {
		it, err := itemFromSDK(m)
		if err != nil {
			return nil, err
		}
		out[i] = it
	}
	return out, nil
}

// standaloneFromSDK converts a value that is no item's attribute (a legacy
// condition's Value, an element of its AttributeValueList, an expression
// attribute value).
func standaloneFromSDK(v types.AttributeValue) (attr.Value, error) {
	x, err := valueFromSDK(v, 0)
	if err != nil {
		return attr.Value{}, exactValue(v, 0)
	}
	return x, nil
}

// valuesFromSDK converts ExpressionAttributeValues with the checks of their
// JSON decoding (expr.ValuesOf).
func valuesFromSDK(m map[string]types.AttributeValue) (expr.Values, error) {
	return expr.ValuesOf(m, func(v types.AttributeValue) (attr.Value, error) {
		if v == nil {
			return attr.Value{}, errUnserializable("a nil expression attribute value")
		}
		return standaloneFromSDK(v)
	})
}

// valueToSDK converts an engine value for a response.
func valueToSDK(v attr.Value) types.AttributeValue {
	if v.Type == attr.TypeNone {
		return nil
	}
	return attr.ValueAs[types.AttributeValue](v, sdkBuilder{})
}

// itemToSDK converts an engine item (or map) for a response; nil stays nil.
func itemToSDK(it map[string]attr.Value) map[string]types.AttributeValue {
	if it == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(it))
	for k, v := range it {
		out[k] = valueToSDK(v)
	}
	return out
}

// rawItemToSDK converts an item in its stored form, building the SDK's
// values straight from the bytes (no attr.Item in between).
func rawItemToSDK(raw []byte) (map[string]types.AttributeValue, error) {
	m, err := attr.DecodeItemAs[types.AttributeValue](raw, sdkBuilder{})
	if err != nil {
		return nil, fmt.Errorf("ddb: corrupt item: %w", err)
	}
	return m, nil
}

// storedItemToSDK converts a stored item with b, building the SDK's values
// straight from its binary value and adding its key attributes.
func storedItemToSDK(s *storage.StoredItem, b *sdkItemBuilder) (map[string]types.AttributeValue, error) {
	var m map[string]types.AttributeValue
	if s.Value != nil {
		var err error
		if m, err = attr.DecodeBinaryTextAs[types.AttributeValue](s.Text, b); err != nil {
			return nil, fmt.Errorf("ddb: corrupt item: %w", err)
		}
	} else {
		m = make(map[string]types.AttributeValue, len(s.Keys))
	}
	for _, kv := range s.Keys {
		m[kv.Name] = attr.ValueAs[types.AttributeValue](kv.Value, b)
	}
	return m, nil
}

// sdkItemBuilder is sdkBuilder for the values of the items of one answer: its string and
// number members come from slabs shared by the answer's items (up to a kilobyte each).
type sdkItemBuilder struct {
	sdkBuilder
	s slab[types.AttributeValueMemberS]
	n slab[types.AttributeValueMemberN]
}

// newItemBuilder returns the builder of an answer of items items: slabs of
// eight members for one item, more for more, up to 64 (a kilobyte).
func newItemBuilder(items int) *sdkItemBuilder {
	size := min(max(items, 1)*8, 64)
	return &sdkItemBuilder{s: slab[types.AttributeValueMemberS]{size: size}, n: slab[types.AttributeValueMemberN]{size: size}}
}

func (b *sdkItemBuilder) S(s string) types.AttributeValue {
	return b.s.take(types.AttributeValueMemberS{Value: s})
}

func (b *sdkItemBuilder) N(n string) types.AttributeValue {
	return b.n.take(types.AttributeValueMemberN{Value: n})
}

// sdkBuilder builds the SDK's attribute values for attr.DecodeItemAs.
type sdkBuilder struct{}

func (sdkBuilder) S(s string) types.AttributeValue  { return &types.AttributeValueMemberS{Value: s} }
func (sdkBuilder) N(n string) types.AttributeValue  { return &types.AttributeValueMemberN{Value: n} }
func (sdkBuilder) B(b []byte) types.AttributeValue  { return &types.AttributeValueMemberB{Value: b} }
func (sdkBuilder) BOOL(b bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: b} }
func (sdkBuilder) NULL() types.AttributeValue       { return &types.AttributeValueMemberNULL{Value: true} }
func (sdkBuilder) SS(ss []string) types.AttributeValue {
	return &types.AttributeValueMemberSS{Value: ss}
}
func (sdkBuilder) NS(ns []string) types.AttributeValue {
	return &types.AttributeValueMemberNS{Value: ns}
}
func (sdkBuilder) BS(bs [][]byte) types.AttributeValue {
	return &types.AttributeValueMemberBS{Value: bs}
}
func (sdkBuilder) L(l []types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: l}
}
func (sdkBuilder) M(m map[string]types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: m}
}
