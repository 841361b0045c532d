package engine

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// trickyStrings exercise every escaping rule of encoding/json and attr.
var trickyStrings = []string{
	"", "plain", `quote " and \ backslash`, "<script>&amp;</script>",
	"ctl \b\f\n\r\t \x00 \x1f \x7f", "line\u2028para\u2029", "é ü 日本 🎉",
	"bad utf8 \xff\xfe", "\xe2\x80", "\xe2\x80\xa8\xe2\x80\xa9",
}

// randValue returns a random attribute value of nesting depth at most d.
func randValue(r *rand.Rand, d int) attr.Value {
	s := func() string { return trickyStrings[r.IntN(len(trickyStrings))] }
	switch k := r.IntN(10); {
	case k == 0:
		return attr.N([]string{"0", "-1.5", "12345678901234567890", "1E+100", "0.000001"}[r.IntN(5)])
	case k == 1:
		return attr.B([]byte(s()))
	case k == 2:
		return attr.Bool(r.IntN(2) == 0)
	case k == 3:
		return attr.Null()
	case k == 4:
		return attr.SS(s(), s()+"x")
	case k == 5:
		return attr.NS("1", "2.5")
	case k == 6:
		return attr.BS([]byte(s()), []byte("z"))
	case k == 7 && d > 0:
		return attr.L(randValue(r, d-1), randValue(r, d-1))
	case k == 8 && d > 0:
		return attr.M(randItem(r, d-1))
	}
	return attr.S(s())
}

func randItem(r *rand.Rand, d int) attr.Item {
	it := attr.Item{}
	for range r.IntN(5) {
		it[trickyStrings[r.IntN(len(trickyStrings))]] = randValue(r, d)
	}
	return it
}

// TestAppendResponse_MatchesEncodingJSON checks that the hand-written
// response encoder produces exactly json.Marshal's bytes.
func TestAppendResponse_MatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	floats := []float64{0, 0.5, 1, 2.5, 1e-7, 1e21, 123456789, -3.25, 1e-6, 0.1 + 0.2}
	for i := range 2000 {
		it := randItem(r, 3)
		resp := map[string]any{
			"Item":     it,
			"Raw":      RawItem(AppendItem(nil, it)),
			"Items":    []any{it, RawItem(AppendItem(nil, it)), randItem(r, 2)},
			"List":     []attr.Item{it},
			"NilList":  []attr.Item(nil),
			"NilItem":  attr.Item(nil),
			"Value":    randValue(r, 2),
			"Count":    i,
			"Big":      int64(1) << 40,
			"Units":    floats[i%len(floats)],
			"Flag":     i%2 == 0,
			"Nothing":  nil,
			"Names":    []string{"a", "<b>"},
			"Caps":     []map[string]any{{"TableName": trickyStrings[i%len(trickyStrings)], "CapacityUnits": 1.5}},
			"Batch":    map[string][]any{"t": {RawItem(AppendItem(nil, it))}, "u": nil},
			"Struct":   CancellationReason{Code: "None"},
			"NaNValue": map[string]any{},
		}
		resp[trickyStrings[i%len(trickyStrings)]] = "key"
		want, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendResponse(nil, resp)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("appendResponse differs from json.Marshal:\n got %s\nwant %s", got, want)
		}
		if enc, want := AppendItem(nil, it), mustMarshal(t, it); !bytes.Equal(enc, want) {
			t.Fatalf("appendItem differs from json.Marshal:\n got %s\nwant %s", enc, want)
		}
		// What reads return from the stored form is the same.
		enc, size, err := appendStoredJSON(nil, nil, attr.AppendBinary(nil, it, attr.Size(it)))
		if want := mustMarshal(t, it); err != nil || !bytes.Equal(enc, want) || size != attr.Size(it) {
			t.Fatalf("appendStoredJSON differs from json.Marshal (%v, size %d):\n got %s\nwant %s", err, size, enc, want)
		}
	}
}

// TestAppendResponse_Unsupported checks that values encoding/json refuses
// are refused too.
func TestAppendResponse_Unsupported(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), map[string]any{"x": make(chan int)}} {
		if _, err := AppendResponse(nil, v); err == nil {
			t.Errorf("appendResponse(%v) succeeded", v)
		}
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTypedOutputs_EncodeAsTheirMaps checks that each typed output the JSON
// front-end writes (output.go) is byte for byte json.Marshal of the
// response map the protocol documents: keys in order, absent members left
// out, HTML-sensitive text escaped, stored and decoded items alike.
func TestTypedOutputs_EncodeAsTheirMaps(t *testing.T) {
	m := &storage.TableMeta{Name: "t<&>", Indexes: []storage.IndexMeta{{Name: "g>", Global: true}, {Name: "l&"}}}
	c := newCapacity(m)
	c.Units = 1.5
	c.addIndex("g>", 0.25)
	c.addIndex("l&", 2)
	it := attr.Item{"PK": attr.S("a<b"), "SK": attr.S("\u2028"), "n": attr.N("1.50"), "m": {Type: attr.TypeM, M: attr.Item{"x": attr.S("&")}}}
	keys := []attr.NamedValue{{Name: "PK", Value: it["PK"]}, {Name: "SK", Value: it["SK"]}}
	rest := attr.Item{"n": it["n"], "m": it["m"]}
	stored := storage.NewStoredItem(keys, attr.AppendBinary(nil, rest, attr.Size(rest)))
	keysOnly := storage.NewStoredItem(keys, nil)
	report := func(mode string) any { return mustDecode(t, mustMarshal(t, renderCapacity(c, mode))) }
	unprocessed := map[string]*KeysAndAttributes{"t<&>": {Keys: []attr.Item{{"PK": attr.S("<")}}, ConsistentRead: true}}

	cases := []struct {
		name string
		out  jsonResponse
		want map[string]any
	}{
		{"get none", &GetItemOutput{}, map[string]any{}},
		{"get stored TOTAL", &GetItemOutput{Item: ResultItem{Stored: stored}, Capacity: ConsumedCapacity{C: c, Mode: capacityTotal}},
			map[string]any{"Item": it, "ConsumedCapacity": renderCapacity(c, capacityTotal)}},
		{"get decoded NONE", &GetItemOutput{Item: ResultItem{Decoded: it}, Capacity: ConsumedCapacity{C: c, Mode: capacityNone}}, map[string]any{"Item": it}},
		{"write all", &ItemWriteOutput{Attributes: it, Capacity: ConsumedCapacity{C: c, Mode: CapacityIndexes},
			Metrics: &collectionMetrics{Key: attr.Item{"PK": attr.S("a<b")}, Low: 0, High: 1}},
			map[string]any{"Attributes": it, "ConsumedCapacity": renderCapacity(c, CapacityIndexes),
				"ItemCollectionMetrics": map[string]any{"ItemCollectionKey": attr.Item{"PK": attr.S("a<b")}, "SizeEstimateRangeGB": []any{0.0, 1.0}}}},
		{"write none", &ItemWriteOutput{}, map[string]any{}},
		{"page", &ListOutput{Items: []ResultItem{{Stored: stored}, {Decoded: it}, {Stored: keysOnly}}, Count: 3, Scanned: 7, LastKey: attr.Item{"PK": attr.S(">")},
			Capacity: ConsumedCapacity{C: c, Mode: CapacityIndexes}},
			map[string]any{"Items": []any{it, it, storage.ItemOf(keys)}, "Count": 3, "ScannedCount": 7, "LastEvaluatedKey": attr.Item{"PK": attr.S(">")},
				"ConsumedCapacity": renderCapacity(c, CapacityIndexes)}},
		{"page empty", &ListOutput{Items: []ResultItem{}}, map[string]any{"Items": []any{}, "Count": 0, "ScannedCount": 0}},
		{"page COUNT", &ListOutput{Count: 2, Scanned: 2}, map[string]any{"Count": 2, "ScannedCount": 2}},
		{"batch get", &BatchGetOutput{Responses: map[string][]ResultItem{"t<&>": {{Stored: stored}}, "u": {}}, Unprocessed: unprocessed,
			Capacity: []CapacityReport{c.report(CapacityIndexes)}},
			map[string]any{"Responses": map[string]any{"t<&>": []any{it}, "u": []any{}}, "UnprocessedKeys": unprocessed,
				"ConsumedCapacity": []any{report(CapacityIndexes)}}},
		{"batch write", &BatchWriteOutput{Capacity: []CapacityReport{c.report(capacityTotal)}},
			map[string]any{"UnprocessedItems": map[string]any{}, "ConsumedCapacity": []any{report(capacityTotal)}}},
		{"transact write", &TransactWriteOutput{ConsumedCapacity: []CapacityReport{c.report(CapacityIndexes)}},
			map[string]any{"ConsumedCapacity": []any{report(CapacityIndexes)}}},
		{"transact get", &TransactGetOutput{Responses: []ResultItem{{Stored: stored}, {}}},
			map[string]any{"Responses": []any{map[string]any{"Item": it}, map[string]any{}}}},
		{"statement page", &ExecuteStatementOutput{Items: []attr.Item{it, {}}, LastKey: attr.Item{"PK": attr.S("<>")},
			Capacity: ConsumedCapacity{C: c, Mode: CapacityIndexes}},
			map[string]any{"Items": []any{it, attr.Item{}}, "LastEvaluatedKey": json.RawMessage(AppendItem(nil, attr.Item{"PK": attr.S("<>")})),
				"NextToken":        base64.StdEncoding.EncodeToString(AppendItem(nil, attr.Item{"PK": attr.S("<>")})),
				"ConsumedCapacity": renderCapacity(c, CapacityIndexes)}},
		{"statement write", &ExecuteStatementOutput{Capacity: ConsumedCapacity{C: c, Mode: capacityNone}}, map[string]any{"Items": []any{}}},
		{"statement batch", &BatchExecuteOutput{Responses: []BatchStatementResponse{
			{Table: ptr("t<&>"), Item: it}, {Table: ptr("u")}, {Err: Validationf("a <b> & c")},
			{Table: ptr("u"), Err: &Error{Type: "ConditionalCheckFailedException", Message: "The conditional request failed"}}}},
			map[string]any{"Responses": []any{map[string]any{"TableName": "t<&>", "Item": it}, map[string]any{"TableName": "u"},
				map[string]any{"Error": map[string]any{"Code": "Validation", "Message": "a <b> & c"}},
				map[string]any{"TableName": "u", "Error": map[string]any{"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}}}}},
		{"statement transaction reads", &ExecuteTransactionOutput{Responses: []attr.Item{it, nil}, Capacity: []CapacityReport{c.report(CapacityIndexes)}},
			map[string]any{"Responses": []any{map[string]any{"Item": it}, map[string]any{}}, "ConsumedCapacity": []any{report(CapacityIndexes)}}},
		{"statement transaction writes", &ExecuteTransactionOutput{}, map[string]any{"Responses": []any{}}},
		{"list tables", &ListTablesOutput{Names: []string{"a", "b<&>"}, Last: "b<&>"},
			map[string]any{"TableNames": []string{"a", "b<&>"}, "LastEvaluatedTableName": "b<&>"}},
		{"list tables last page", &ListTablesOutput{Names: []string{}}, map[string]any{"TableNames": []string{}}},
		{"tag", &EmptyOutput{}, map[string]any{}},
		{"list tags", &ListTagsOutput{Tags: []storage.StoredTag{{Key: "k<", Value: "v&"}, {Key: "x", Value: ""}}},
			map[string]any{"Tags": []any{map[string]any{"Key": "k<", "Value": "v&"}, map[string]any{"Key": "x", "Value": ""}}}},
		{"list tags none", &ListTagsOutput{}, map[string]any{"Tags": []any{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AppendResponse(nil, tc.out)
			if err != nil {
				t.Fatal(err)
			}
			if want := mustMarshal(t, tc.want); !bytes.Equal(got, want) {
				t.Fatalf("typed output encodes as\n %s\nwant\n %s", got, want)
			}
		})
	}
}

// mustDecode decodes JSON into generic values.
func mustDecode(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// ptr returns a pointer to s.
func ptr(s string) *string { return &s }

// renderCapacity is the ConsumedCapacity object the protocol documents,
// as a response map: what capacityReport.appendJSON must write.
func renderCapacity(c *Capacity, mode string) map[string]any {
	out := map[string]any{"TableName": c.M.Name, "CapacityUnits": RoundUnits(c.Total())}
	if mode == CapacityIndexes {
		out["Table"] = map[string]any{"CapacityUnits": RoundUnits(c.Units)}
		gsi, lsi := map[string]any{}, map[string]any{}
		for name, n := range c.Indexes {
			x := map[string]any{"CapacityUnits": RoundUnits(n)}
			if ix := c.M.Index(name); ix != nil && ix.Global {
				gsi[name] = x
			} else {
				lsi[name] = x
			}
		}
		if len(gsi) > 0 {
			out["GlobalSecondaryIndexes"] = gsi
		}
		if len(lsi) > 0 {
			out["LocalSecondaryIndexes"] = lsi
		}
	}
	return out
}

// The Streams API's JSON answers as the response maps the protocol
// documents: what the typed outputs' appendJSON must write.

// streamListMap renders the list as the JSON answer.
func streamListMap(l *StreamList) map[string]any {
	streams := make([]any, len(l.Streams))
	for i, s := range l.Streams {
		streams[i] = map[string]any{"StreamArn": s.Arn, "TableName": s.Table, "StreamLabel": s.Label}
	}
	out := map[string]any{"Streams": streams}
	if l.LastEvaluated != "" {
		out["LastEvaluatedStreamArn"] = l.LastEvaluated
	}
	return out
}

// response renders the description as the JSON answer.
func streamDescriptionMap(d *StreamDescription) map[string]any {
	m := d.Meta
	desc := map[string]any{
		"StreamArn":               d.Arn,
		"StreamLabel":             m.Label,
		"StreamStatus":            StreamStatus(m),
		"StreamViewType":          m.ViewType,
		"CreationRequestDateTime": m.Created,
		"TableName":               m.Table,
		"KeySchema":               m.KeySchema,
	}
	shards := make([]any, len(d.Shards))
	for i := range d.Shards {
		shards[i] = describeShardMap(&d.Shards[i])
	}
	desc["Shards"] = shards
	if d.LastShard != "" {
		desc["LastEvaluatedShardId"] = d.LastShard
	}
	return map[string]any{"StreamDescription": desc}
}

// describeShard renders a Shard of DescribeStream.
func describeShardMap(s *storage.ShardMeta) map[string]any {
	r := map[string]any{"StartingSequenceNumber": storage.FormatSequenceNumber(s.Start)}
	if end, closed := ShardEnding(s); closed {
		r["EndingSequenceNumber"] = storage.FormatSequenceNumber(end)
	}
	d := map[string]any{"ShardId": s.ID, "SequenceNumberRange": r}
	if s.Parent != "" {
		d["ParentShardId"] = s.Parent
	}
	return d
}

// response renders the page as the JSON answer.
func recordPageMap(p *RecordPage) map[string]any {
	records := make([]any, len(p.Records))
	for i, r := range p.Records {
		records[i] = r
	}
	out := map[string]any{"Records": records}
	if p.Next != nil {
		out["NextShardIterator"] = p.Next.String()
	}
	return out
}

// TestStreamOutputs_EncodeAsTheirMaps checks that the Streams API's typed
// answers write byte for byte json.Marshal of their response maps.
func TestStreamOutputs_EncodeAsTheirMaps(t *testing.T) {
	meta := &storage.StreamMeta{Table: "t<&>", Label: "2026-11-25T10:00:00.000", ViewType: "NEW_IMAGE", Created: 1764064800.123,
		KeySchema: []storage.KeySchemaElement{{AttributeName: "PK<", KeyType: "HASH"}, {AttributeName: "SK", KeyType: "RANGE"}}}
	disabled := *meta
	disabled.Disabled = 1764064900
	shards := []storage.ShardMeta{{ID: "shardId-1", Start: 1, End: 7, Closed: true}, {ID: "shardId-2", Parent: "shardId-1", Start: 8, Closed: true},
		{ID: "shardId-3", Parent: "shardId-2", Start: 9}}
	next := &ShardIterator{StreamARN: "arn:s", ShardID: "shardId-3", After: 9, Issued: time.Unix(1764064800, 0)}
	list := []streamName{{"arn:1", "a", "l1"}, {"arn:2&", "b<", "l2"}}
	cases := []struct {
		name string
		out  jsonResponse
		want map[string]any
	}{
		{"list", &StreamList{Streams: list, LastEvaluated: "arn:2&"}, streamListMap(&StreamList{Streams: list, LastEvaluated: "arn:2&"})},
		{"list none", &StreamList{}, streamListMap(&StreamList{})},
		{"describe", &StreamDescription{Arn: "arn:s", Meta: meta, Shards: shards, LastShard: "shardId-3"},
			streamDescriptionMap(&StreamDescription{Arn: "arn:s", Meta: meta, Shards: shards, LastShard: "shardId-3"})},
		{"describe disabled, no shards", &StreamDescription{Arn: "arn:s", Meta: &disabled},
			streamDescriptionMap(&StreamDescription{Arn: "arn:s", Meta: &disabled})},
		{"iterator", &ShardIteratorOutput{Iterator: next.String()}, map[string]any{"ShardIterator": next.String()}},
		{"records end", &RecordPage{}, recordPageMap(&RecordPage{})},
		{"records next", &RecordPage{Next: next}, recordPageMap(&RecordPage{Next: next})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AppendResponse(nil, tc.out)
			if err != nil {
				t.Fatal(err)
			}
			if want := mustMarshal(t, tc.want); !bytes.Equal(got, want) {
				t.Fatalf("typed output encodes as\n %s\nwant\n %s", got, want)
			}
		})
	}
}
