package ddb

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/ddb/attr"
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
			"Raw":      rawItem(appendItem(nil, it)),
			"Items":    []any{it, rawItem(appendItem(nil, it)), randItem(r, 2)},
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
			"Batch":    map[string][]any{"t": {rawItem(appendItem(nil, it))}, "u": nil},
			"Struct":   cancellationReason{Code: "None"},
			"NaNValue": map[string]any{},
		}
		resp[trickyStrings[i%len(trickyStrings)]] = "key"
		want, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendResponse(nil, resp)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("appendResponse differs from json.Marshal:\n got %s\nwant %s", got, want)
		}
		if enc, want := appendItem(nil, it), mustMarshal(t, it); !bytes.Equal(enc, want) {
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
		if _, err := appendResponse(nil, v); err == nil {
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
	m := &tableMeta{Name: "t<&>", Indexes: []indexMeta{{Name: "g>", Global: true}, {Name: "l&"}}}
	c := newCapacity(m)
	c.units = 1.5
	c.addIndex("g>", 0.25)
	c.addIndex("l&", 2)
	it := attr.Item{"PK": attr.S("a<b"), "SK": attr.S("\u2028"), "n": attr.N("1.50"), "m": {Type: attr.TypeM, M: attr.Item{"x": attr.S("&")}}}
	keys := []attr.NamedValue{{Name: "PK", Value: it["PK"]}, {Name: "SK", Value: it["SK"]}}
	rest := attr.Item{"n": it["n"], "m": it["m"]}
	stored := newStoredItem(keys, attr.AppendBinary(nil, rest, attr.Size(rest)))
	keysOnly := newStoredItem(keys, nil)
	report := func(mode string) any { return mustDecode(t, mustMarshal(t, renderCapacity(c, mode))) }
	unprocessed := map[string]*keysAndAttributes{"t<&>": {Keys: []attr.Item{{"PK": attr.S("<")}}, ConsistentRead: true}}

	cases := []struct {
		name string
		out  jsonResponse
		want map[string]any
	}{
		{"get none", &getItemOutput{}, map[string]any{}},
		{"get stored TOTAL", &getItemOutput{item: resultItem{stored: stored}, capacity: consumedCapacity{c: c, mode: capacityTotal}},
			map[string]any{"Item": it, "ConsumedCapacity": renderCapacity(c, capacityTotal)}},
		{"get decoded NONE", &getItemOutput{item: resultItem{decoded: it}, capacity: consumedCapacity{c: c, mode: capacityNone}}, map[string]any{"Item": it}},
		{"write all", &itemWriteOutput{attributes: it, capacity: consumedCapacity{c: c, mode: capacityIndexes},
			metrics: &collectionMetrics{key: attr.Item{"PK": attr.S("a<b")}, low: 0, high: 1}},
			map[string]any{"Attributes": it, "ConsumedCapacity": renderCapacity(c, capacityIndexes),
				"ItemCollectionMetrics": map[string]any{"ItemCollectionKey": attr.Item{"PK": attr.S("a<b")}, "SizeEstimateRangeGB": []any{0.0, 1.0}}}},
		{"write none", &itemWriteOutput{}, map[string]any{}},
		{"page", &listOutput{items: []resultItem{{stored: stored}, {decoded: it}, {stored: keysOnly}}, count: 3, scanned: 7, lastKey: attr.Item{"PK": attr.S(">")},
			capacity: consumedCapacity{c: c, mode: capacityIndexes}},
			map[string]any{"Items": []any{it, it, itemOf(keys)}, "Count": 3, "ScannedCount": 7, "LastEvaluatedKey": attr.Item{"PK": attr.S(">")},
				"ConsumedCapacity": renderCapacity(c, capacityIndexes)}},
		{"page empty", &listOutput{items: []resultItem{}}, map[string]any{"Items": []any{}, "Count": 0, "ScannedCount": 0}},
		{"page COUNT", &listOutput{count: 2, scanned: 2}, map[string]any{"Count": 2, "ScannedCount": 2}},
		{"batch get", &batchGetOutput{responses: map[string][]resultItem{"t<&>": {{stored: stored}}, "u": {}}, unprocessed: unprocessed,
			capacity: []capacityReport{c.report(capacityIndexes)}},
			map[string]any{"Responses": map[string]any{"t<&>": []any{it}, "u": []any{}}, "UnprocessedKeys": unprocessed,
				"ConsumedCapacity": []any{report(capacityIndexes)}}},
		{"batch write", &batchWriteOutput{capacity: []capacityReport{c.report(capacityTotal)}},
			map[string]any{"UnprocessedItems": map[string]any{}, "ConsumedCapacity": []any{report(capacityTotal)}}},
		{"transact write", &transactWriteOutput{ConsumedCapacity: []capacityReport{c.report(capacityIndexes)}},
			map[string]any{"ConsumedCapacity": []any{report(capacityIndexes)}}},
		{"transact get", &transactGetOutput{responses: []resultItem{{stored: stored}, {}}},
			map[string]any{"Responses": []any{map[string]any{"Item": it}, map[string]any{}}}},
		{"statement page", &executeStatementOutput{items: []attr.Item{it, {}}, lastKey: attr.Item{"PK": attr.S("<>")},
			capacity: consumedCapacity{c: c, mode: capacityIndexes}},
			map[string]any{"Items": []any{it, attr.Item{}}, "LastEvaluatedKey": json.RawMessage(appendItem(nil, attr.Item{"PK": attr.S("<>")})),
				"NextToken":        base64.StdEncoding.EncodeToString(appendItem(nil, attr.Item{"PK": attr.S("<>")})),
				"ConsumedCapacity": renderCapacity(c, capacityIndexes)}},
		{"statement write", &executeStatementOutput{capacity: consumedCapacity{c: c, mode: capacityNone}}, map[string]any{"Items": []any{}}},
		{"statement batch", &batchExecuteOutput{responses: []batchStatementResponse{
			{table: ptr("t<&>"), item: it}, {table: ptr("u")}, {err: validationf("a <b> & c")},
			{table: ptr("u"), err: &Error{Type: "ConditionalCheckFailedException", Message: "The conditional request failed"}}}},
			map[string]any{"Responses": []any{map[string]any{"TableName": "t<&>", "Item": it}, map[string]any{"TableName": "u"},
				map[string]any{"Error": map[string]any{"Code": "Validation", "Message": "a <b> & c"}},
				map[string]any{"TableName": "u", "Error": map[string]any{"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}}}}},
		{"statement transaction reads", &executeTransactionOutput{responses: []attr.Item{it, nil}, capacity: []capacityReport{c.report(capacityIndexes)}},
			map[string]any{"Responses": []any{map[string]any{"Item": it}, map[string]any{}}, "ConsumedCapacity": []any{report(capacityIndexes)}}},
		{"statement transaction writes", &executeTransactionOutput{}, map[string]any{"Responses": []any{}}},
		{"list tables", &listTablesOutput{names: []string{"a", "b<&>"}, last: "b<&>"},
			map[string]any{"TableNames": []string{"a", "b<&>"}, "LastEvaluatedTableName": "b<&>"}},
		{"list tables last page", &listTablesOutput{names: []string{}}, map[string]any{"TableNames": []string{}}},
		{"tag", &emptyOutput{}, map[string]any{}},
		{"list tags", &listTagsOutput{tags: []storedTag{{Key: "k<", Value: "v&"}, {Key: "x", Value: ""}}},
			map[string]any{"Tags": []any{map[string]any{"Key": "k<", "Value": "v&"}, map[string]any{"Key": "x", "Value": ""}}}},
		{"list tags none", &listTagsOutput{}, map[string]any{"Tags": []any{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := appendResponse(nil, tc.out)
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
func renderCapacity(c *capacity, mode string) map[string]any {
	out := map[string]any{"TableName": c.m.Name, "CapacityUnits": roundUnits(c.total())}
	if mode == capacityIndexes {
		out["Table"] = map[string]any{"CapacityUnits": roundUnits(c.units)}
		gsi, lsi := map[string]any{}, map[string]any{}
		for name, n := range c.indexes {
			x := map[string]any{"CapacityUnits": roundUnits(n)}
			if ix := c.m.index(name); ix != nil && ix.Global {
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
func streamListMap(l *streamList) map[string]any {
	streams := make([]any, len(l.streams))
	for i, s := range l.streams {
		streams[i] = map[string]any{"StreamArn": s.arn, "TableName": s.table, "StreamLabel": s.label}
	}
	out := map[string]any{"Streams": streams}
	if l.lastEvaluated != "" {
		out["LastEvaluatedStreamArn"] = l.lastEvaluated
	}
	return out
}

// response renders the description as the JSON answer.
func streamDescriptionMap(d *streamDescription) map[string]any {
	m := d.meta
	desc := map[string]any{
		"StreamArn":               d.arn,
		"StreamLabel":             m.Label,
		"StreamStatus":            m.status(),
		"StreamViewType":          m.ViewType,
		"CreationRequestDateTime": m.Created,
		"TableName":               m.Table,
		"KeySchema":               m.KeySchema,
	}
	shards := make([]any, len(d.shards))
	for i := range d.shards {
		shards[i] = describeShardMap(&d.shards[i])
	}
	desc["Shards"] = shards
	if d.lastShard != "" {
		desc["LastEvaluatedShardId"] = d.lastShard
	}
	return map[string]any{"StreamDescription": desc}
}

// describeShard renders a Shard of DescribeStream.
func describeShardMap(s *shardMeta) map[string]any {
	r := map[string]any{"StartingSequenceNumber": formatSequenceNumber(s.Start)}
	if end, closed := s.ending(); closed {
		r["EndingSequenceNumber"] = formatSequenceNumber(end)
	}
	d := map[string]any{"ShardId": s.ID, "SequenceNumberRange": r}
	if s.Parent != "" {
		d["ParentShardId"] = s.Parent
	}
	return d
}

// response renders the page as the JSON answer.
func recordPageMap(p *recordPage) map[string]any {
	records := make([]any, len(p.records))
	for i, r := range p.records {
		records[i] = r
	}
	out := map[string]any{"Records": records}
	if p.next != nil {
		out["NextShardIterator"] = p.next.String()
	}
	return out
}

// TestStreamOutputs_EncodeAsTheirMaps checks that the Streams API's typed
// answers write byte for byte json.Marshal of their response maps.
func TestStreamOutputs_EncodeAsTheirMaps(t *testing.T) {
	meta := &streamMeta{Table: "t<&>", Label: "2026-11-25T10:00:00.000", ViewType: "NEW_IMAGE", Created: 1764064800.123,
		KeySchema: []keySchemaElement{{AttributeName: "PK<", KeyType: "HASH"}, {AttributeName: "SK", KeyType: "RANGE"}}}
	disabled := *meta
	disabled.Disabled = 1764064900
	shards := []shardMeta{{ID: "shardId-1", Start: 1, End: 7, Closed: true}, {ID: "shardId-2", Parent: "shardId-1", Start: 8, Closed: true},
		{ID: "shardId-3", Parent: "shardId-2", Start: 9}}
	next := &shardIterator{StreamARN: "arn:s", ShardID: "shardId-3", After: 9, Issued: time.Unix(1764064800, 0)}
	list := []streamName{{"arn:1", "a", "l1"}, {"arn:2&", "b<", "l2"}}
	cases := []struct {
		name string
		out  jsonResponse
		want map[string]any
	}{
		{"list", &streamList{streams: list, lastEvaluated: "arn:2&"}, streamListMap(&streamList{streams: list, lastEvaluated: "arn:2&"})},
		{"list none", &streamList{}, streamListMap(&streamList{})},
		{"describe", &streamDescription{arn: "arn:s", meta: meta, shards: shards, lastShard: "shardId-3"},
			streamDescriptionMap(&streamDescription{arn: "arn:s", meta: meta, shards: shards, lastShard: "shardId-3"})},
		{"describe disabled, no shards", &streamDescription{arn: "arn:s", meta: &disabled},
			streamDescriptionMap(&streamDescription{arn: "arn:s", meta: &disabled})},
		{"iterator", &shardIteratorOutput{iterator: next.String()}, map[string]any{"ShardIterator": next.String()}},
		{"records end", &recordPage{}, recordPageMap(&recordPage{})},
		{"records next", &recordPage{next: next}, recordPageMap(&recordPage{next: next})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := appendResponse(nil, tc.out)
			if err != nil {
				t.Fatal(err)
			}
			if want := mustMarshal(t, tc.want); !bytes.Equal(got, want) {
				t.Fatalf("typed output encodes as\n %s\nwant\n %s", got, want)
			}
		})
	}
}
