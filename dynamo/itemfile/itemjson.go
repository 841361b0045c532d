package itemfile

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// The items file format of the tutorial's items.json, read by ItemReader and written by
// WriteItemJSON: a stream of JSON objects, one item each, usually one a line but also
// concatenated or pretty-printed. An item is written either
//
//   - in plain JSON, {"PK": "USER#ava", "followers": 3, "interests": ["hiking"]}: a string is
//     S, a number N (its literal kept exactly), a bool BOOL, null NULL, an array L, an object M;
//   - or in DynamoDB-typed JSON, {"PK": {"S": "USER#ava"}, "followers": {"N": "3"}}, as the
//     AWS CLI and DynamoDB exports write it, optionally wrapped as {"Item": {...}}.
//
// Each item is read on its own: it is typed when every one of its attributes is an object with
// exactly one key that names a DynamoDB type (S, N, B, BOOL, NULL, SS, NS, BS, L or M).

// LineError is a bad item in an items file: Line is the 1-based line where its object starts.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// ItemReader reads items from an items file. It is not safe for concurrent use.
type ItemReader struct {
	lines *lineCounter
	dec   *json.Decoder
	line  int
	err   error // sticky: after a syntax error the rest of the stream cannot be trusted
}

// NewItemReader returns a reader of the items in r, in plain or DynamoDB-typed JSON.
// A leading UTF-8 byte order mark is skipped.
func NewItemReader(r io.Reader) *ItemReader {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	lc := &lineCounter{r: br}
	dec := json.NewDecoder(lc)
	dec.UseNumber()
	return &ItemReader{lines: lc, dec: dec}
}

// Next returns the next item. It returns io.EOF after the last item, and a *LineError for
// an item that is not valid; after a JSON syntax error every later call returns that error too.
func (r *ItemReader) Next() (Item, error) {
	if r.err != nil {
		return nil, r.err
	}
	// More skips the whitespace before the next value, so the offset is where it starts.
	more := r.dec.More()
	r.line = r.lines.lineAt(r.dec.InputOffset())
	var raw json.RawMessage
	if err := r.dec.Decode(&raw); err != nil {
		if err == io.EOF && !more {
			r.err = io.EOF
			return nil, io.EOF
		}
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("unexpected end of input inside an item")
		}
		r.err = &LineError{Line: r.line, Err: err}
		return nil, r.err
	}
	// encoding/json would quietly turn both into U+FFFD, storing text the file never held.
	if err := attr.CheckJSONText(raw); err != nil {
		return nil, &LineError{Line: r.line, Err: fmt.Errorf("%w: DynamoDB strings are UTF-8", err)}
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, &LineError{Line: r.line, Err: err}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &LineError{Line: r.line, Err: fmt.Errorf("want a JSON object, got %s", jsonKind(v))}
	}
	item, err := decodeItem(obj)
	if err == nil {
		err = validateItem(item)
	}
	if err != nil {
		return nil, &LineError{Line: r.line, Err: err}
	}
	return item, nil
}

// Line is the line on which the item last returned by Next (or the error) starts.
func (r *ItemReader) Line() int { return r.line }

func decodeItem(obj map[string]any) (Item, error) {
	if inner, ok := obj["Item"].(map[string]any); ok && len(obj) == 1 {
		obj = inner // the wrapper of DynamoDB exports
	}
	if len(obj) == 0 {
		return nil, errors.New("empty item")
	}
	typed := isTypedItem(obj)
	item := make(Item, len(obj))
	for name, v := range obj {
		var av types.AttributeValue
		var err error
		if typed {
			av, err = typedValue(v)
		} else {
			av, err = plainValue(v)
		}
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		item[name] = av
	}
	return item, nil
}

// typeNames are the keys of DynamoDB-typed JSON values.
var typeNames = map[string]bool{"S": true, "N": true, "B": true, "BOOL": true, "NULL": true, "SS": true, "NS": true, "BS": true, "L": true, "M": true}

func isTypedItem(obj map[string]any) bool {
	for _, v := range obj {
		if _, ok := typedPair(v); !ok {
			return false
		}
	}
	return true
}

// typedPair returns the type name of a DynamoDB-typed value {"<type>": …}.
func typedPair(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return "", false
	}
	for k := range m {
		return k, typeNames[k]
	}
	return "", false
}

func plainValue(v any) (types.AttributeValue, error) {
	switch v := v.(type) {
	case string:
		return &types.AttributeValueMemberS{Value: v}, nil
	case json.Number:
		return &types.AttributeValueMemberN{Value: v.String()}, nil
	case bool:
		return &types.AttributeValueMemberBOOL{Value: v}, nil
	case nil:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case []any:
		l := make([]types.AttributeValue, len(v))
		for i, e := range v {
			av, err := plainValue(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case map[string]any:
		m := make(map[string]types.AttributeValue, len(v))
		for k, e := range v {
			av, err := plainValue(e)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", k, err)
			}
			m[k] = av
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("unexpected JSON value %T", v)
}

// numberPattern is what DynamoDB accepts as a number literal.
var numberPattern = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

func typedValue(v any) (types.AttributeValue, error) {
	name, ok := typedPair(v)
	if !ok {
		return nil, fmt.Errorf("want a DynamoDB-typed value like {\"S\": \"text\"}, got %s", jsonKind(v))
	}
	x := v.(map[string]any)[name]
	bad := func(want string) error { return fmt.Errorf("%s: want %s, got %s", name, want, jsonKind(x)) }
	switch name {
	case "S":
		s, ok := x.(string)
		if !ok {
			return nil, bad("a string")
		}
		return &types.AttributeValueMemberS{Value: s}, nil
	case "N":
		s, err := numberText(x)
		if err != nil {
			return nil, fmt.Errorf("number (N): %w", err)
		}
		return &types.AttributeValueMemberN{Value: s}, nil
	case "B":
		b, err := base64Bytes(x)
		if err != nil {
			return nil, fmt.Errorf("binary (B): %w", err)
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case "BOOL":
		b, ok := x.(bool)
		if !ok {
			return nil, bad("true or false")
		}
		return &types.AttributeValueMemberBOOL{Value: b}, nil
	case "NULL":
		if b, ok := x.(bool); !ok || !b {
			return nil, bad("true")
		}
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case "SS", "NS", "BS":
		return typedSet(name, x)
	case "L":
		list, ok := x.([]any)
		if !ok {
			return nil, bad("an array")
		}
		l := make([]types.AttributeValue, len(list))
		for i, e := range list {
			av, err := typedValue(e)
			if err != nil {
				return nil, fmt.Errorf("list (L) element %d: %w", i, err)
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	default: // "M"
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, bad("an object")
		}
		m := make(map[string]types.AttributeValue, len(obj))
		for k, e := range obj {
			av, err := typedValue(e)
			if err != nil {
				return nil, fmt.Errorf("map (M) entry %q: %w", k, err)
			}
			m[k] = av
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
}

func typedSet(name string, x any) (types.AttributeValue, error) {
	list, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want an array, got %s", name, jsonKind(x))
	}
	// Never nil: an empty set must stay an empty set, for the check that refuses it.
	ss := make([]string, 0, len(list))
	bs := make([][]byte, 0, len(list))
	for i, e := range list {
		var err error
		switch name {
		case "SS":
			s, ok := e.(string)
			if !ok {
				err = fmt.Errorf("want a string, got %s", jsonKind(e))
			}
			ss = append(ss, s)
		case "NS":
			var s string
			s, err = numberText(e)
			ss = append(ss, s)
		case "BS":
			var b []byte
			b, err = base64Bytes(e)
			bs = append(bs, b)
		}
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", name, i, err)
		}
	}
	switch name {
	case "SS":
		return &types.AttributeValueMemberSS{Value: ss}, nil
	case "NS":
		return &types.AttributeValueMemberNS{Value: ss}, nil
	}
	return &types.AttributeValueMemberBS{Value: bs}, nil
}

// numberText accepts a number as DynamoDB-typed JSON writes it, a string, and also as a bare
// JSON number.
func numberText(x any) (string, error) {
	var s string
	switch x := x.(type) {
	case string:
		s = x
	case json.Number:
		s = x.String()
	default:
		return "", fmt.Errorf("want a number in a string, got %s", jsonKind(x))
	}
	if !numberPattern.MatchString(s) {
		return "", fmt.Errorf("%q is not a number", s)
	}
	return s, nil
}

func base64Bytes(x any) ([]byte, error) {
	s, ok := x.(string)
	if !ok {
		return nil, fmt.Errorf("want base64 in a string, got %s", jsonKind(x))
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("not base64: %v", err)
	}
	return b, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a bool"
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// lineCounter passes reads through and maps input offsets to line numbers. Offsets asked for
// only grow, so it keeps just the newlines read ahead of the last one asked for.
type lineCounter struct {
	r        io.Reader
	read     int64   // bytes read so far
	newlines []int64 // offsets of the newlines at or after the last offset asked for
	line     int     // newlines before the last offset asked for
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			c.newlines = append(c.newlines, c.read+int64(i))
		}
	}
	c.read += int64(n)
	return n, err
}

// lineAt is the 1-based line of the byte at offset off.
func (c *lineCounter) lineAt(off int64) int {
	i := sort.Search(len(c.newlines), func(i int) bool { return c.newlines[i] >= off })
	c.line += i
	c.newlines = c.newlines[i:]
	return c.line + 1
}

// WriteItemJSON writes item to w as one JSON object on one line, with its attributes in name
// order, so that the same item always gives the same bytes.
//
// The item is written in plain JSON when plain JSON can carry it exactly (strings, numbers,
// booleans, nulls, lists and maps), and in DynamoDB-typed JSON otherwise: when it holds binary
// values or sets, a number literal JSON cannot spell (such as "+1" or ".5"), or attributes that
// plain JSON would make look typed. An item that would read as the export wrapper (one attribute,
// named Item, written as an object) is wrapped. Either way ItemReader reads back the same item.
func WriteItemJSON(w io.Writer, item Item) error {
	v, err := plainItem(item)
	if err != nil || looksTyped(item) {
		v, err = typedItem(item)
	}
	if err != nil {
		return err
	}
	var out any = v
	if looksWrapped(v) {
		// An item whose one attribute is named Item, written as an object, would be read as
		// the export wrapper around its own value: wrap it, so the reader removes only that.
		out = map[string]any{"Item": v}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out) // one line, ending in '\n'; maps are written in key order
}

// looksWrapped reports whether ItemReader would take the written item v for the wrapper of
// DynamoDB exports, {"Item": {...}}.
func looksWrapped(v map[string]any) bool {
	if len(v) != 1 {
		return false
	}
	_, isObject := v["Item"].(map[string]any)
	return isObject
}

// errNotPlain says plain JSON cannot carry a value exactly.
type errNotPlain struct{ what string }

func (e errNotPlain) Error() string { return e.what + " has no plain JSON form" }

func plainItem(item Item) (map[string]any, error) {
	out := make(map[string]any, len(item))
	for name, av := range item {
		v, err := plainJSON(av)
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

func plainJSON(av types.AttributeValue) (any, error) {
	switch av := av.(type) {
	case *types.AttributeValueMemberS:
		return av.Value, nil
	case *types.AttributeValueMemberN:
		if !isJSONNumber(av.Value) {
			return nil, errNotPlain{"number " + av.Value}
		}
		return json.Number(av.Value), nil
	case *types.AttributeValueMemberBOOL:
		return av.Value, nil
	case *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberL:
		out := make([]any, len(av.Value))
		for i, e := range av.Value {
			v, err := plainJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *types.AttributeValueMemberM:
		return plainItem(av.Value)
	}
	return nil, errNotPlain{fmt.Sprintf("%T", av)}
}

// looksTyped reports whether the plain JSON of item would be read as DynamoDB-typed JSON:
// every attribute a map with one entry named like a type.
func looksTyped(item Item) bool {
	if len(item) == 0 {
		return false
	}
	for _, av := range item {
		m, ok := av.(*types.AttributeValueMemberM)
		if !ok || len(m.Value) != 1 {
			return false
		}
		for k := range m.Value {
			if !typeNames[k] {
				return false
			}
		}
	}
	return true
}

func typedItem(item Item) (map[string]any, error) {
	out := make(map[string]any, len(item))
	for name, av := range item {
		v, err := typedJSON(av)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

func typedJSON(av types.AttributeValue) (map[string]any, error) {
	switch av := av.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": av.Value}, nil
	case *types.AttributeValueMemberN:
		return map[string]any{"N": av.Value}, nil
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(av.Value)}, nil
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": av.Value}, nil
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}, nil
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": nonNil(av.Value)}, nil
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": nonNil(av.Value)}, nil
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(av.Value))
		for i, b := range av.Value {
			bs[i] = base64.StdEncoding.EncodeToString(b)
		}
		return map[string]any{"BS": bs}, nil
	case *types.AttributeValueMemberL:
		out := make([]any, len(av.Value))
		for i, e := range av.Value {
			v, err := typedJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return map[string]any{"L": out}, nil
	case *types.AttributeValueMemberM:
		m, err := typedItem(av.Value)
		if err != nil {
			return nil, err
		}
		return map[string]any{"M": m}, nil
	}
	return nil, fmt.Errorf("unsupported attribute value %T", av)
}

// nonNil makes a nil set an empty one, which JSON writes as [] rather than null: a set is never
// null, and ItemReader then refuses it by DynamoDB's rule (no empty sets) instead of by a
// type error.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// isJSONNumber reports whether s is a number literal as JSON spells it.
func isJSONNumber(s string) bool {
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil && n.String() == s
}
