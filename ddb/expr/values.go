package expr

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// Values is a request's ExpressionAttributeValues as decoded from JSON.
// Use it as the field type of request structs: its UnmarshalJSON checks
// the keys' syntax before decoding the values, and reports an invalid value
// with its key, as DynamoDB does. It converts freely to
// map[string]attr.Value.
type Values map[string]attr.Value

// UnmarshalJSON decodes and checks ExpressionAttributeValues.
func (v *Values) UnmarshalJSON(data []byte) error {
	// One pass of the item decoder first: it is stricter than the long way
	// (an item's attributes sit a level deeper and may not have empty
	// names), so what it accepts the long way accepts too, with the same
	// values; what it refuses goes the long way, for DynamoDB's error.
	if it, err := attr.DecodeItem(data); err == nil {
		if err := checkKeysOf("ExpressionAttributeValues", it, ':'); err != nil {
			return err
		}
		*v = Values(it)
		return nil
	}
	out, err := decodeValuesLongWay(data)
	if err != nil {
		return err
	}
	*v = out
	return nil
}

// decodeValuesLongWay decodes ExpressionAttributeValues member by member:
// the keys' syntax first, then each value in key order, so that the error
// is the one DynamoDB gives. It runs only for maps the one pass refuses,
// nearly always invalid ones, so encoding/json words the syntax errors.
func decodeValuesLongWay(data []byte) (Values, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, nil
	}
	return ValuesOf(raw, func(r json.RawMessage) (attr.Value, error) {
		var val attr.Value
		err := val.UnmarshalJSON(r)
		return val, err
	})
}

// ValuesOf builds ExpressionAttributeValues from a map whose values conv
// converts (the SDK's typed values in the engine's in-process API, JSON
// members in decodeValuesLongWay), with the checks UnmarshalJSON applies:
// the keys' syntax first, then each value, the first invalid one in key
// order reported with its key. A nil m gives nil Values (absent).
func ValuesOf[T any](m map[string]T, conv func(T) (attr.Value, error)) (Values, error) {
	if m == nil {
		return nil, nil
	}
	if err := checkKeysOf("ExpressionAttributeValues", m, ':'); err != nil {
		return nil, err
	}
	out := make(Values, len(m))
	for k, t := range m {
		val, err := conv(t)
		if err != nil {
			// The first invalid value in key order is the one reported.
			return nil, firstInvalidValue(m, conv)
		}
		out[k] = val
	}
	return out, nil
}

// firstInvalidValue returns the error for the first value of m, in key
// order, that conv refuses.
func firstInvalidValue[T any](m map[string]T, conv func(T) (attr.Value, error)) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if _, err := conv(m[k]); err != nil {
			var ve *attr.ValidationError
			if errors.As(err, &ve) {
				return plain("ExpressionAttributeValues contains invalid value: " + ve.Message + " for key " + k)
			}
			return err
		}
	}
	return nil
}

// MaxPlaceholderBytes is the longest key of ExpressionAttributeNames and
// ExpressionAttributeValues DynamoDB accepts, its prefix included.
const MaxPlaceholderBytes = 255

// checkKeys returns DynamoDB's error for the first of the sorted keys of
// parameter map param that is too long or not a placeholder with the given
// prefix. A key is checked for length before syntax, as DynamoDB does; its
// message gives a long key's size for ExpressionAttributeNames only, as
// DynamoDB Local, which shares DynamoDB's expression validation, words it.
func checkKeys(param string, keys []string, prefix byte) error {
	for _, k := range keys {
		if len(k) > MaxPlaceholderBytes {
			msg := param + " contains invalid key: The expression attribute map contains a key that is too long;"
			if prefix == '#' {
				msg += " size of key: " + strconv.Itoa(len(k))
			}
			return plain(msg)
		}
		if !validPlaceholder(k, prefix) {
			return plain(param + ` contains invalid key: Syntax error; key: "` + k + `"`)
		}
	}
	return nil
}

// checkKeysOf is checkKeys for the keys of m, sorted only to report an
// invalid one.
func checkKeysOf[T any](param string, m map[string]T, prefix byte) error {
	for k := range m {
		if !validKey(k, prefix) {
			return checkKeys(param, slices.Sorted(maps.Keys(m)), prefix)
		}
	}
	return nil
}

// validKey reports whether k is a placeholder with the given prefix no
// longer than MaxPlaceholderBytes.
func validKey(k string, prefix byte) bool {
	return len(k) <= MaxPlaceholderBytes && validPlaceholder(k, prefix)
}

// validPlaceholder reports whether k is prefix followed by one or more
// letters, digits or underscores.
func validPlaceholder(k string, prefix byte) bool {
	if len(k) < 2 || k[0] != prefix {
		return false
	}
	for i := 1; i < len(k); i++ {
		if !isWord(k[i]) {
			return false
		}
	}
	return true
}

// CheckParams applies DynamoDB's rules to the ExpressionAttributeNames and
// ExpressionAttributeValues maps themselves: present maps must not be empty
// (a nil map is absent), names must be "#word" and map to non-empty
// attribute names, and value keys must be ":word". Values decoded through
// Values have had their keys checked already.
func CheckParams(names map[string]string, values map[string]attr.Value) error {
	if names != nil && len(names) == 0 {
		return plain("ExpressionAttributeNames must not be empty")
	}
	if values != nil && len(values) == 0 {
		return plain("ExpressionAttributeValues must not be empty")
	}
	// Keys are sorted only to report the first bad one, as DynamoDB does.
	for k, name := range names {
		if attr.CheckName(name) != nil || !validKey(k, '#') {
			return checkNames(names)
		}
	}
	return checkKeysOf("ExpressionAttributeValues", values, ':')
}

// checkNames reports the first problem of ExpressionAttributeNames in key
// order: all keys first (length, then syntax), then names no attribute may
// have (empty, or over attr.MaxNameBytes).
func checkNames(names map[string]string) error {
	keys := slices.Sorted(maps.Keys(names))
	if err := checkKeys("ExpressionAttributeNames", keys, '#'); err != nil {
		return err
	}
	for _, k := range keys {
		if bad := attr.CheckName(names[k]); bad != nil {
			return plain("ExpressionAttributeNames contains invalid value: " + bad.Message + " for key " + k)
		}
	}
	return nil
}
