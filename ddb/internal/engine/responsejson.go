package engine

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Response encoding, the JSON front-end's half. Most operations answer
// with a typed output (output.go), which writes itself (appendJSON, at the
// end of this file); the rest answer with trees of map[string]any holding
// items, strings and numbers. encoding/json handles those by reflection
// and, for every item, calls attr.Item.MarshalJSON and then re-scans
// (compacts and HTML-escapes) its output, which made JSON the largest cost
// of a Query. appendResponse writes typed outputs and the common shapes
// directly and produces exactly the bytes json.Marshal does for the
// equivalent map (sorted object keys, HTML-escaped strings, the same float
// formatting); anything else falls back to json.Marshal.
// responsejson_test.go checks the equivalence.

// RawItem is an item's response JSON, exactly what json.Marshal of the
// decoded item produces (appendItem's bytes), which reads write straight
// from the stored form (storage/itemcodec.go) instead of building the item.
type RawItem []byte

// MarshalJSON returns the stored encoding; it lets encoding/json (tokens,
// error bodies) handle responses holding raw items.
func (r RawItem) MarshalJSON() ([]byte, error) { return r, nil }

// AppendItem appends the encoding json.Marshal gives an item: attr's wire
// encoding with <, >, & and U+2028/U+2029 escaped.
func AppendItem(dst []byte, it attr.Item) []byte {
	start := len(dst)
	dst = attr.AppendItemJSON(dst, it)
	return htmlEscapeTail(dst, start)
}

// appendValue is appendItem for one attribute value.
func appendValue(dst []byte, v attr.Value) []byte {
	start := len(dst)
	dst = attr.AppendJSON(dst, v)
	return htmlEscapeTail(dst, start)
}

// htmlEscapeTail escapes, in dst[start:], the characters encoding/json
// escapes in the output of a MarshalJSON method. Such characters are rare,
// so the common case only scans.
func htmlEscapeTail(dst []byte, start int) []byte {
	i := start
	for ; i < len(dst); i++ {
		if needsHTMLEscape(dst, i) {
			break
		}
	}
	if i == len(dst) {
		return dst
	}
	tail := append([]byte(nil), dst[i:]...)
	dst = dst[:i]
	from := 0
	for j := 0; j < len(tail); j++ {
		switch c := tail[j]; {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, tail[from:j]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c&0xF))
			from = j + 1
		case needsHTMLEscape(tail, j): // U+2028 or U+2029
			dst = append(dst, tail[from:j]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigit(tail[j+2]&0xF))
			from = j + 3
			j += 2
		}
	}
	return append(dst, tail[from:]...)
}

// needsHTMLEscape reports whether b[i] starts <, >, &, U+2028 or U+2029.
func needsHTMLEscape(b []byte, i int) bool {
	switch c := b[i]; c {
	case '<', '>', '&':
		return true
	case 0xE2:
		return i+2 < len(b) && b[i+1] == 0x80 && b[i+2]&^1 == 0xA8
	}
	return false
}

func hexDigit(n byte) byte { return "0123456789abcdef"[n] }

// AppendResponse appends the JSON encoding of v, byte for byte what
// json.Marshal(v) returns.
func AppendResponse(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case jsonResponse:
		return v.AppendJSON(dst)
	case map[string]any:
		return appendObject(dst, v)
	case []map[string]any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendArray(dst, len(v), func(dst []byte, i int) ([]byte, error) { return appendObject(dst, v[i]) })
	case []any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendArray(dst, len(v), func(dst []byte, i int) ([]byte, error) { return AppendResponse(dst, v[i]) })
	case map[string][]any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = x
		}
		return appendObject(dst, m)
	case []attr.Item:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendArray(dst, len(v), func(dst []byte, i int) ([]byte, error) { return AppendItem(dst, v[i]), nil })
	case attr.Item:
		return AppendItem(dst, v), nil
	case RawItem:
		return append(dst, v...), nil
	case attr.Value:
		return appendValue(dst, v), nil
	case string:
		return appendString(dst, v), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case float64:
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			return appendFloat(dst, v), nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// appendObject encodes a map with its keys sorted, as encoding/json does.
func appendObject(dst []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = AppendResponse(dst, m[k]); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// appendArray encodes n elements written by elem.
func appendArray(dst []byte, n int, elem func(dst []byte, i int) ([]byte, error)) ([]byte, error) {
	dst = append(dst, '[')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = elem(dst, i); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// appendString encodes s as encoding/json does (HTML-escaped). Names and
// messages are almost always printable ASCII without <, >, & or quotes;
// anything else goes through encoding/json to keep its exact escaping.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always encodes
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendFloat formats a finite float64 as encoding/json does (ES6 style).
func appendFloat(dst []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// maxPooledBuffer bounds the response buffers kept for reuse, so one huge
// BatchGetItem does not pin megabytes.
const maxPooledBuffer = 1 << 20

// bufferPool holds response buffers (*[]byte).
var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// GetBuffer returns an empty pooled buffer.
func GetBuffer() *[]byte {
	b := bufferPool.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// PutBuffer returns a buffer to the pool once its bytes are no longer used.
func PutBuffer(b *[]byte) {
	if cap(*b) <= maxPooledBuffer {
		bufferPool.Put(b)
	}
}

// Stored items and stream records are rendered here, by the JSON front-end,
// straight from their stored form; storage only decodes them.

// appendStoredJSON appends to dst the response JSON (what appendItem
// writes) of the item made of binary value v and keys, and returns the
// size recorded in v.
func appendStoredJSON(dst []byte, keys []attr.NamedValue, v []byte) ([]byte, int, error) {
	start := len(dst)
	dst, size, err := attr.AppendBinaryJSON(dst, v, keys)
	if err != nil {
		return nil, 0, fmt.Errorf("ddb: corrupt item: %w", err)
	}
	return htmlEscapeTail(dst, start), size, nil
}

// StoredItemAppendJSON appends the response JSON of an item in its stored
// form: what appendItem writes for the decoded item. Storage only decodes;
// the JSON of what it holds is written here.
func StoredItemAppendJSON(s *storage.StoredItem, dst []byte) ([]byte, error) {
	if s.Value == nil {
		return AppendItem(dst, storage.ItemOf(s.Keys)), nil
	}
	dst, _, err := appendStoredJSON(dst, s.Keys, s.Value)
	return dst, err
}

// StoredRecordAppendJSON appends the record as GetRecords returns it over HTTP: the
// keys in the order json.Marshal sorts them, as appendResponse writes every
// response.
func StoredRecordAppendJSON(r *storage.StoredRecord, dst []byte) ([]byte, error) {
	keysItem := attr.Item{}
	if _, err := attr.DecodeBinary(r.Keys, keysItem); err != nil {
		return nil, r.Corrupt(storage.ErrBadRecord)
	}
	keys := make([]attr.NamedValue, 0, len(keysItem))
	for _, name := range sortedKeys(keysItem) {
		keys = append(keys, attr.NamedValue{Name: name, Value: keysItem[name]})
	}
	dst = append(dst, `{"awsRegion":`...)
	dst = appendString(dst, r.Region)
	dst = append(dst, `,"dynamodb":{"ApproximateCreationDateTime":`...)
	// DynamoDB rounds it down to the second.
	dst = strconv.AppendInt(dst, r.Millis/1000, 10)
	dst = append(dst, `,"Keys":`...)
	dst = AppendItem(dst, keysItem)
	for _, img := range []struct {
		image []byte
		name  string
	}{{r.NewImage, `,"NewImage":`}, {r.OldImage, `,"OldImage":`}} {
		if img.image == nil {
			continue
		}
		dst = append(dst, img.name...)
		var err error
		if dst, _, err = appendStoredJSON(dst, keys, img.image); err != nil {
			return nil, r.Corrupt(err)
		}
	}
	dst = append(dst, `,"SequenceNumber":"`...)
	dst = storage.AppendSequenceNumber(dst, r.Seq)
	dst = append(dst, `","SizeBytes":`...)
	dst = strconv.AppendUint(dst, r.Size, 10)
	dst = append(dst, `,"StreamViewType":"`...)
	dst = append(dst, r.ViewType()...)
	dst = append(dst, `"},"eventID":"`...)
	dst = hex.AppendEncode(dst, r.ID)
	dst = append(dst, `","eventName":"`...)
	dst = append(dst, r.Event()...)
	dst = append(dst, `","eventSource":"`+storage.RecordEventSource+`","eventVersion":"`+storage.RecordEventVersion+`"`...)
	if r.ByService() {
		dst = append(dst, `,"userIdentity":{"PrincipalId":"`+storage.ServicePrincipal+`","Type":"`+storage.ServiceIdentityType+`"}`...)
	}
	return append(dst, '}'), nil
}

// jsonResponse is a typed output (output.go) that writes its own response
// JSON, byte for byte what json.Marshal gives the equivalent response map.
type jsonResponse interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// objectWriter writes a JSON object's members; its callers write them in
// the order json.Marshal sorts map keys.
type objectWriter struct {
	dst []byte
	n   int
}

// key starts the member name.
func (w *objectWriter) key(name string) {
	if w.n == 0 {
		w.dst = append(w.dst, '{')
	} else {
		w.dst = append(w.dst, ',')
	}
	w.n++
	w.dst = append(w.dst, '"')
	w.dst = append(w.dst, name...)
	w.dst = append(w.dst, '"', ':')
}

// end closes the object.
func (w *objectWriter) end() []byte {
	if w.n == 0 {
		return append(w.dst, '{', '}')
	}
	return append(w.dst, '}')
}

// capacity writes cc as the ConsumedCapacity member (capacity.report), if
// the request asked for it.
func (w *objectWriter) capacity(cc ConsumedCapacity) {
	if cc.Reported() {
		w.key("ConsumedCapacity")
		r := cc.C.report(cc.Mode)
		w.dst = r.AppendJSON(w.dst)
	}
}

// AppendJSON writes the report as json.Marshal does (its fields are in
// key order; maps' keys sorted). ReadCapacityUnits and WriteCapacityUnits
// are left out, as DynamoDB Local leaves them out.
func (r *CapacityReport) AppendJSON(dst []byte) []byte {
	units := func(dst []byte, n float64) []byte {
		dst = append(dst, `{"CapacityUnits":`...)
		return append(appendFloat(dst, n), '}')
	}
	indexes := func(dst []byte, m map[string]CapacityUnits) []byte {
		dst = append(dst, '{')
		for i, name := range sortedKeys(m) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, name)
			dst = append(dst, ':')
			dst = units(dst, m[name].CapacityUnits)
		}
		return append(dst, '}')
	}
	dst = append(dst, `{"CapacityUnits":`...)
	dst = appendFloat(dst, r.CapacityUnits)
	if len(r.GlobalSecondaryIndexes) > 0 {
		dst = append(dst, `,"GlobalSecondaryIndexes":`...)
		dst = indexes(dst, r.GlobalSecondaryIndexes)
	}
	if len(r.LocalSecondaryIndexes) > 0 {
		dst = append(dst, `,"LocalSecondaryIndexes":`...)
		dst = indexes(dst, r.LocalSecondaryIndexes)
	}
	if r.Table != nil {
		dst = append(dst, `,"Table":`...)
		dst = units(dst, r.Table.CapacityUnits)
	}
	dst = append(dst, `,"TableName":`...)
	dst = appendString(dst, r.TableName)
	return append(dst, '}')
}

// appendReports writes a list of ConsumedCapacity objects.
func appendReports(dst []byte, list []CapacityReport) []byte {
	dst, _ = appendArray(dst, len(list), func(dst []byte, i int) ([]byte, error) { return list[i].AppendJSON(dst), nil })
	return dst
}

// AppendJSON writes the item: its stored form straight from the bytes, or
// the decoded item.
func (r ResultItem) AppendJSON(dst []byte) ([]byte, error) {
	if r.Stored != nil {
		return StoredItemAppendJSON(r.Stored, dst)
	}
	return AppendItem(dst, r.Decoded), nil
}

func (o *GetItemOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	var err error
	w.capacity(o.Capacity)
	if o.Item.Present() {
		w.key("Item")
		if w.dst, err = o.Item.AppendJSON(w.dst); err != nil {
			return nil, err
		}
	}
	return w.end(), nil
}

func (o *ItemWriteOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	var err error
	if o.Attributes != nil {
		w.key("Attributes")
		w.dst = AppendItem(w.dst, o.Attributes)
	}
	w.capacity(o.Capacity)
	if m := o.Metrics; m != nil {
		w.key("ItemCollectionMetrics")
		w.dst = append(w.dst, `{"ItemCollectionKey":`...)
		w.dst = AppendItem(w.dst, m.Key)
		w.dst = append(w.dst, `,"SizeEstimateRangeGB":[`...)
		if w.dst, err = AppendResponse(w.dst, m.Low); err != nil {
			return nil, err
		}
		w.dst = append(w.dst, ',')
		if w.dst, err = AppendResponse(w.dst, m.High); err != nil {
			return nil, err
		}
		w.dst = append(w.dst, ']', '}')
	}
	return w.end(), nil
}

func (o *ListOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	var err error
	w.capacity(o.Capacity)
	w.key("Count")
	w.dst = strconv.AppendInt(w.dst, int64(o.Count), 10)
	if o.Items != nil {
		w.key("Items")
		if w.dst, err = appendArray(w.dst, len(o.Items), func(dst []byte, i int) ([]byte, error) { return o.Items[i].AppendJSON(dst) }); err != nil {
			return nil, err
		}
	}
	if o.LastKey != nil {
		w.key("LastEvaluatedKey")
		w.dst = AppendItem(w.dst, o.LastKey)
	}
	w.key("ScannedCount")
	w.dst = strconv.AppendInt(w.dst, int64(o.Scanned), 10)
	return w.end(), nil
}

func (o *TransactWriteOutput) AppendJSON(dst []byte) ([]byte, error) {
	if o.ConsumedCapacity == nil {
		return append(dst, '{', '}'), nil
	}
	dst = append(dst, `{"ConsumedCapacity":`...)
	return append(appendReports(dst, o.ConsumedCapacity), '}'), nil
}

func (o *BatchGetOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	var err error
	if o.Capacity != nil {
		w.key("ConsumedCapacity")
		w.dst = appendReports(w.dst, o.Capacity)
	}
	w.key("Responses")
	w.dst = append(w.dst, '{')
	for i, table := range sortedKeys(o.Responses) {
		if i > 0 {
			w.dst = append(w.dst, ',')
		}
		w.dst = appendString(w.dst, table)
		w.dst = append(w.dst, ':')
		items := o.Responses[table]
		if w.dst, err = appendArray(w.dst, len(items), func(dst []byte, i int) ([]byte, error) { return items[i].AppendJSON(dst) }); err != nil {
			return nil, err
		}
	}
	w.dst = append(w.dst, '}')
	w.key("UnprocessedKeys")
	if w.dst, err = AppendResponse(w.dst, o.Unprocessed); err != nil {
		return nil, err
	}
	return w.end(), nil
}

func (o *TransactGetOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	var err error
	if o.Capacity != nil {
		w.key("ConsumedCapacity")
		w.dst = appendReports(w.dst, o.Capacity)
	}
	w.key("Responses")
	w.dst, err = appendArray(w.dst, len(o.Responses), func(dst []byte, i int) ([]byte, error) {
		if !o.Responses[i].Present() {
			return append(dst, '{', '}'), nil
		}
		dst = append(dst, `{"Item":`...)
		dst, err := o.Responses[i].AppendJSON(dst)
		return append(dst, '}'), err
	})
	if err != nil {
		return nil, err
	}
	return w.end(), nil
}

func (o *BatchWriteOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	if o.Capacity != nil {
		w.key("ConsumedCapacity")
		w.dst = appendReports(w.dst, o.Capacity)
	}
	w.key("UnprocessedItems")
	w.dst = append(w.dst, '{', '}')
	return w.end(), nil
}

// AppendJSON writes ExecuteStatement's answer.
func (o *ExecuteStatementOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	w.capacity(o.Capacity)
	w.key("Items")
	w.dst, _ = appendArray(w.dst, len(o.Items), func(dst []byte, i int) ([]byte, error) { return AppendItem(dst, o.Items[i]), nil })
	if o.LastKey != nil {
		w.key("LastEvaluatedKey")
		start := len(w.dst)
		w.dst = AppendItem(w.dst, o.LastKey)
		// The NextToken is the LastEvaluatedKey's JSON, in base64.
		key := w.dst[start:]
		w.key("NextToken")
		w.dst = append(w.dst, '"')
		w.dst = base64.StdEncoding.AppendEncode(w.dst, key)
		w.dst = append(w.dst, '"')
	}
	return w.end(), nil
}

func (o *BatchExecuteOutput) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"Responses":`...)
	dst, _ = appendArray(dst, len(o.Responses), func(dst []byte, i int) ([]byte, error) {
		r := &o.Responses[i]
		w := objectWriter{dst: dst}
		if r.Err != nil {
			w.key("Error")
			w.dst = append(w.dst, `{"Code":`...)
			w.dst = appendString(w.dst, strings.TrimSuffix(r.Err.Type, "Exception"))
			w.dst = append(w.dst, `,"Message":`...)
			w.dst = appendString(w.dst, r.Err.Message)
			w.dst = append(w.dst, '}')
		} else if r.Item != nil {
			w.key("Item")
			w.dst = AppendItem(w.dst, r.Item)
		}
		if r.Table != nil {
			w.key("TableName")
			w.dst = appendString(w.dst, *r.Table)
		}
		return w.end(), nil
	})
	return append(dst, '}'), nil
}

func (o *ExecuteTransactionOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	if o.Capacity != nil {
		w.key("ConsumedCapacity")
		w.dst = appendReports(w.dst, o.Capacity)
	}
	w.key("Responses")
	w.dst, _ = appendArray(w.dst, len(o.Responses), func(dst []byte, i int) ([]byte, error) {
		if o.Responses[i] == nil {
			return append(dst, '{', '}'), nil
		}
		dst = append(dst, `{"Item":`...)
		dst = AppendItem(dst, o.Responses[i])
		return append(dst, '}'), nil
	})
	return w.end(), nil
}

func (o *ListTablesOutput) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	if o.Last != "" {
		w.key("LastEvaluatedTableName")
		w.dst = appendString(w.dst, o.Last)
	}
	w.key("TableNames")
	w.dst, _ = appendArray(w.dst, len(o.Names), func(dst []byte, i int) ([]byte, error) { return appendString(dst, o.Names[i]), nil })
	return w.end(), nil
}

func (*EmptyOutput) AppendJSON(dst []byte) ([]byte, error) { return append(dst, '{', '}'), nil }

func (o *ListTagsOutput) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"Tags":`...)
	dst, _ = appendArray(dst, len(o.Tags), func(dst []byte, i int) ([]byte, error) {
		dst = append(dst, `{"Key":`...)
		dst = appendString(dst, o.Tags[i].Key)
		dst = append(dst, `,"Value":`...)
		dst = appendString(dst, o.Tags[i].Value)
		return append(dst, '}'), nil
	})
	return append(dst, '}'), nil
}

func (l *StreamList) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	if l.LastEvaluated != "" {
		w.key("LastEvaluatedStreamArn")
		w.dst = appendString(w.dst, l.LastEvaluated)
	}
	w.key("Streams")
	w.dst, _ = appendArray(w.dst, len(l.Streams), func(dst []byte, i int) ([]byte, error) {
		s := &l.Streams[i]
		dst = append(dst, `{"StreamArn":`...)
		dst = appendString(dst, s.Arn)
		dst = append(dst, `,"StreamLabel":`...)
		dst = appendString(dst, s.Label)
		dst = append(dst, `,"TableName":`...)
		dst = appendString(dst, s.Table)
		return append(dst, '}'), nil
	})
	return w.end(), nil
}

func (d *StreamDescription) AppendJSON(dst []byte) ([]byte, error) {
	m := d.Meta
	dst = append(dst, `{"StreamDescription":{"CreationRequestDateTime":`...)
	dst = appendFloat(dst, m.Created)
	dst = append(dst, `,"KeySchema":`...)
	dst, _ = appendArray(dst, len(m.KeySchema), func(dst []byte, i int) ([]byte, error) {
		dst = append(dst, `{"AttributeName":`...)
		dst = appendString(dst, m.KeySchema[i].AttributeName)
		dst = append(dst, `,"KeyType":`...)
		dst = appendString(dst, m.KeySchema[i].KeyType)
		return append(dst, '}'), nil
	})
	if d.LastShard != "" {
		dst = append(dst, `,"LastEvaluatedShardId":`...)
		dst = appendString(dst, d.LastShard)
	}
	dst = append(dst, `,"Shards":`...)
	dst, _ = appendArray(dst, len(d.Shards), func(dst []byte, i int) ([]byte, error) {
		s := &d.Shards[i]
		w := objectWriter{dst: dst}
		if s.Parent != "" {
			w.key("ParentShardId")
			w.dst = appendString(w.dst, s.Parent)
		}
		w.key("SequenceNumberRange")
		w.dst = append(w.dst, '{')
		if end, closed := ShardEnding(s); closed {
			w.dst = append(w.dst, `"EndingSequenceNumber":`...)
			w.dst = appendString(w.dst, storage.FormatSequenceNumber(end))
			w.dst = append(w.dst, ',')
		}
		w.dst = append(w.dst, `"StartingSequenceNumber":`...)
		w.dst = appendString(w.dst, storage.FormatSequenceNumber(s.Start))
		w.dst = append(w.dst, '}')
		w.key("ShardId")
		w.dst = appendString(w.dst, s.ID)
		return w.end(), nil
	})
	for _, member := range [...]struct{ name, Value string }{
		{"StreamArn", d.Arn}, {"StreamLabel", m.Label}, {"StreamStatus", StreamStatus(m)}, {"StreamViewType", m.ViewType}, {"TableName", m.Table},
	} {
		dst = append(dst, ',', '"')
		dst = append(dst, member.name...)
		dst = append(dst, '"', ':')
		dst = appendString(dst, member.Value)
	}
	return append(dst, '}', '}'), nil
}

func (o *ShardIteratorOutput) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"ShardIterator":`...)
	return append(appendString(dst, o.Iterator), '}'), nil
}

func (p *RecordPage) AppendJSON(dst []byte) ([]byte, error) {
	w := objectWriter{dst: dst}
	if p.Next != nil {
		w.key("NextShardIterator")
		w.dst = appendString(w.dst, p.Next.String())
	}
	w.key("Records")
	var err error
	if w.dst, err = appendArray(w.dst, len(p.Records), func(dst []byte, i int) ([]byte, error) { return StoredRecordAppendJSON(p.Records[i], dst) }); err != nil {
		return nil, err
	}
	return w.end(), nil
}
