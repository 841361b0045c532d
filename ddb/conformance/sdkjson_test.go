package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
)

// The JSON protocol and the SDK's types, converted by reflection for the
// comparison of the engine's in-process API with its HTTP path
// (inprocess_test.go): a JSON request becomes the SDK input struct whose field
// names are the JSON member names, and an SDK output or error becomes the
// JSON answer the HTTP path gives. A request the SDK could not send (an
// unknown member, a value of the wrong JSON type, an AttributeValue with no
// type or two, text that is not UTF-8) is not converted: the reason says why.

// unconvertible is why a JSON request has no SDK form.
type unconvertible struct{ reason string }

func (u *unconvertible) Error() string { return u.reason }

func noSDKForm(format string, args ...any) error {
	return &unconvertible{reason: fmt.Sprintf(format, args...)}
}

var (
	attributeValueType = reflect.TypeFor[types.AttributeValue]()
	// streamsAttributeValueType is the Streams client's AttributeValue, a
	// union of its own with the same members.
	streamsAttributeValueType = reflect.TypeFor[stypes.AttributeValue]()
	// lowerCamelMembers are the SDK types whose JSON member names are their
	// field names with a lower-case initial (eventID for EventID): a
	// stream record's; every other member is named as its field.
	lowerCamelMembers = map[reflect.Type]bool{reflect.TypeFor[stypes.Record](): true}
	timeType          = reflect.TypeFor[time.Time]()
	// surrogateEscape matches a \u escape of a UTF-16 surrogate, which JSON
	// text may hold unpaired where a Go string cannot.
	surrogateEscape = regexp.MustCompile(`(?i)\\ud[89a-f][0-9a-f]{2}`)
)

// jsonToSDK decodes body into a new value of the SDK input type of ptr (a
// pointer to a struct), or explains why it cannot.
func jsonToSDK(body []byte, ptr any) error {
	if !utf8.Valid(body) || surrogateEscape.Match(body) {
		return noSDKForm("not UTF-8 text the SDK could write")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return noSDKForm("not one JSON value")
	}
	if _, ok := v.(map[string]any); !ok {
		return noSDKForm("not a JSON object")
	}
	return fill(reflect.ValueOf(ptr).Elem(), v, "")
}

// fill sets dst from the decoded JSON value v found at path.
func fill(dst reflect.Value, v any, path string) error {
	if v == nil {
		return nil // absent, as the SDK leaves a nil member out
	}
	t := dst.Type()
	if t == attributeValueType {
		av, err := attributeValue(v, path)
		if err != nil {
			return err
		}
		dst.Set(reflect.ValueOf(av))
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if t.Elem() == timeType {
			return noSDKForm("%s: a timestamp", path)
		}
		p := reflect.New(t.Elem())
		if err := fill(p.Elem(), v, path); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return noSDKForm("%s: not an object", path)
		}
		for k, e := range m {
			f, ok := t.FieldByName(k)
			if !ok || !f.IsExported() || k == "ResultMetadata" {
				return noSDKForm("%s: unknown member %s", path, k)
			}
			if err := fill(dst.FieldByIndex(f.Index), e, path+"."+k); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return noSDKForm("%s: not a string", path)
		}
		dst.SetString(s)
		return nil
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return noSDKForm("%s: not a boolean", path)
		}
		dst.SetBool(b)
		return nil
	case reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return noSDKForm("%s: not a number", path)
		}
		i, err := strconv.ParseInt(n.String(), 10, t.Bits())
		if err != nil {
			return noSDKForm("%s: %s is no int%d", path, n, t.Bits())
		}
		dst.SetInt(i)
		return nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return noSDKForm("%s: a blob outside an attribute value", path)
		}
		list, ok := v.([]any)
		if !ok {
			return noSDKForm("%s: not a list", path)
		}
		out := reflect.MakeSlice(t, len(list), len(list))
		for i, e := range list {
			if e == nil {
				return noSDKForm("%s: null in a list", path)
			}
			if err := fill(out.Index(i), e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		dst.Set(out)
		return nil
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return noSDKForm("%s: not an object", path)
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for k, e := range m {
			if e == nil {
				return noSDKForm("%s: null in a map", path)
			}
			ev := reflect.New(t.Elem()).Elem()
			if err := fill(ev, e, path+"."+k); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		dst.Set(out)
		return nil
	}
	return noSDKForm("%s: no conversion to %s", path, t)
}

// attributeValue converts one JSON AttributeValue: exactly one known type
// member holding a JSON value of its type.
func attributeValue(v any, path string) (types.AttributeValue, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return nil, noSDKForm("%s: an AttributeValue with other than one member", path)
	}
	for typ, x := range m {
		if x == nil {
			return nil, noSDKForm("%s: a null %s", path, typ)
		}
		switch typ {
		case "S", "N":
			s, ok := x.(string)
			if !ok {
				return nil, noSDKForm("%s: %s not a string", path, typ)
			}
			if typ == "S" {
				return &types.AttributeValueMemberS{Value: s}, nil
			}
			return &types.AttributeValueMemberN{Value: s}, nil
		case "B":
			b, err := blob(x)
			if err != nil {
				return nil, noSDKForm("%s: %v", path, err)
			}
			return &types.AttributeValueMemberB{Value: b}, nil
		case "BOOL", "NULL":
			b, ok := x.(bool)
			if !ok {
				return nil, noSDKForm("%s: %s not a boolean", path, typ)
			}
			if typ == "BOOL" {
				return &types.AttributeValueMemberBOOL{Value: b}, nil
			}
			return &types.AttributeValueMemberNULL{Value: b}, nil
		case "SS", "NS":
			var ss []string
			if err := fill(reflect.ValueOf(&ss).Elem(), x, path+"."+typ); err != nil {
				return nil, err
			}
			if ss == nil {
				ss = []string{}
			}
			if typ == "SS" {
				return &types.AttributeValueMemberSS{Value: ss}, nil
			}
			return &types.AttributeValueMemberNS{Value: ss}, nil
		case "BS":
			list, ok := x.([]any)
			if !ok {
				return nil, noSDKForm("%s: BS not a list", path)
			}
			bs := make([][]byte, len(list))
			for i, e := range list {
				b, err := blob(e)
				if err != nil {
					return nil, noSDKForm("%s: %v", path, err)
				}
				bs[i] = b
			}
			return &types.AttributeValueMemberBS{Value: bs}, nil
		case "L":
			var l []types.AttributeValue
			if err := fill(reflect.ValueOf(&l).Elem(), x, path+".L"); err != nil {
				return nil, err
			}
			if l == nil {
				l = []types.AttributeValue{}
			}
			return &types.AttributeValueMemberL{Value: l}, nil
		case "M":
			var mm map[string]types.AttributeValue
			if err := fill(reflect.ValueOf(&mm).Elem(), x, path+".M"); err != nil {
				return nil, err
			}
			if mm == nil {
				mm = map[string]types.AttributeValue{}
			}
			return &types.AttributeValueMemberM{Value: mm}, nil
		}
		return nil, noSDKForm("%s: unknown AttributeValue type %s", path, typ)
	}
	return nil, nil // not reached: m has one member
}

// blob decodes a base64 string, as the SDK's JSON deserializer would.
func blob(x any) ([]byte, error) {
	s, ok := x.(string)
	if !ok {
		return nil, errors.New("a blob not a string")
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, errors.New("a blob not in base64")
	}
	return b, nil
}

// sdkToJSON renders an SDK output as the JSON answer of the HTTP path:
// nil members left out, AttributeValues in their wire form, blobs in
// base64, timestamps as epoch seconds.
func sdkToJSON(out any) any { return toJSON(reflect.ValueOf(out)) }

func toJSON(v reflect.Value) any {
	if t := v.Type(); t == attributeValueType || t == streamsAttributeValueType {
		if v.IsNil() {
			return nil
		}
		return attributeValueJSON(v.Elem())
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem() == timeType {
			t := v.Elem().Interface().(time.Time)
			return json.Number(strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', -1, 64))
		}
		return toJSON(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Name == "ResultMetadata" {
				continue
			}
			fv := v.Field(i)
			if (fv.Kind() == reflect.String && fv.String() == "") || ((fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Map ||
				fv.Kind() == reflect.Slice || fv.Kind() == reflect.Interface) && fv.IsNil()) {
				continue
			}
			name := f.Name
			if lowerCamelMembers[v.Type()] {
				name = strings.ToLower(name[:1]) + name[1:]
			}
			m[name] = toJSON(fv)
		}
		return m
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10))
	case reflect.Float64:
		f := v.Float()
		if f == math.Trunc(f) {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return base64.StdEncoding.EncodeToString(v.Bytes())
		}
		out := make([]any, v.Len())
		for i := range v.Len() {
			out[i] = toJSON(v.Index(i))
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		iter := v.MapRange()
		for iter.Next() {
			out[iter.Key().String()] = toJSON(iter.Value())
		}
		return out
	}
	return fmt.Sprintf("<unrendered %s>", v.Type())
}

// attributeValueJSON renders an AttributeValue of either client (a
// pointer to its union member, AttributeValueMember<type>{Value}) in its
// wire form: {"<type>": value}, the value rendered as any other (blobs in
// base64, members of lists and maps as AttributeValues).
func attributeValueJSON(member reflect.Value) any {
	s := member.Elem()
	typ, ok := strings.CutPrefix(s.Type().Name(), "AttributeValueMember")
	value := s.FieldByName("Value")
	if !ok || !value.IsValid() {
		return fmt.Sprintf("<unknown AttributeValue %s>", s.Type())
	}
	return map[string]any{typ: toJSON(value)}
}

// errorToJSON renders an SDK error as the HTTP path's error answer: its
// status and a body with the exception's __type, message and other members.
// An error that is no answer of the engine's (the SDK's own) is returned.
func errorToJSON(err error) (int, any, error) {
	var re *awshttp.ResponseError
	var ae smithy.APIError
	if !errors.As(err, &re) || !errors.As(err, &ae) {
		return 0, nil, fmt.Errorf("not an answer of the engine: %w", err)
	}
	body := map[string]any{"__type": ae.ErrorCode(), "message": ae.ErrorMessage()}
	if _, generic := ae.(*smithy.GenericAPIError); !generic {
		fields, _ := toJSON(reflect.ValueOf(ae)).(map[string]any)
		for k, v := range fields {
			if k != "Message" && k != "ErrorCodeOverride" {
				body[k] = v
			}
		}
	}
	return re.HTTPStatusCode(), body, nil
}

// sortedReasons lists the reasons of skipped steps with their counts, most
// frequent first.
func sortedReasons(m map[string]int) []string {
	var out []string
	for r, n := range m {
		out = append(out, fmt.Sprintf("%4d  %s", n, r))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}
