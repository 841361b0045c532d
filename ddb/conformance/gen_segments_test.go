package conformance

import "fmt"

func init() { register(scanSegmentsCase()) }

// segmentTotals are the TotalSegments values whose segments are scanned.
var segmentTotals = []int{1, 2, 3, 4, 7}

// segmentPageLimit is the Limit of each page of a segment: small enough
// that most segments take several pages.
const segmentPageLimit = 4

// scanSegmentsCase checks parallel Scan. Which segment an item falls in
// depends on how the implementation hashes partition keys (DynamoDB does
// not define it), and so does the order of items within a segment: the
// segments are therefore not compared between the engine and DynamoDB
// Local, except for TotalSegments 1 (compared as a set, like every Scan).
// Instead, on each target separately, the segments of one TotalSegments,
// each read page by page with Limit through LastEvaluatedKey, must
// partition the table: no item in two segments (Collect), and together
// exactly the items and the Count of the full Scan that follows (Union),
// which is itself compared between the targets as usual. Invalid segment
// parameters must fail with the same error types.
func scanSegmentsCase() Case {
	var steps []Step
	// Table h: 50 partitions of one item each.
	for batch := 0; batch < 2; batch++ {
		var puts []any
		for i := batch * 25; i < (batch+1)*25; i++ {
			puts = append(puts, M{"PutRequest": M{"Item": M{"PK": S(fmt.Sprintf("item%02d", i)), "n": N(fmt.Sprint(i)), "even": BOOL(i%2 == 0)}}})
		}
		steps = append(steps, expecting(step("BatchWriteItem", M{"RequestItems": M{"{{h}}": puts}}), M{"UnprocessedItems": M{}}))
	}
	// Table hr: 16 partitions of 1 to 4 items (a partition's items must all
	// be in the same segment).
	var puts []any
	for p := 0; p < 16; p++ {
		for s := 0; s <= p%4; s++ {
			puts = append(puts, M{"PutRequest": M{"Item": M{"PK": S(fmt.Sprintf("p%02d", p)), "SK": S(fmt.Sprintf("s%d", s)), "n": N(fmt.Sprint(p*10 + s))}}})
		}
	}
	for len(puts) > 0 {
		n := min(25, len(puts))
		steps = append(steps, expecting(step("BatchWriteItem", M{"RequestItems": M{"{{hr}}": puts[:n]}}), M{"UnprocessedItems": M{}}))
		puts = puts[n:]
	}
	filter := M{"FilterExpression": "even = :t", "ExpressionAttributeValues": M{":t": BOOL(true)}}
	variants := []struct {
		id, table string
		extra     M
	}{
		{"h", "{{h}}", nil},
		{"hr", "{{hr}}", nil},
		{"h-filter", "{{h}}", filter},
		{"hr-consistent", "{{hr}}", M{"ConsistentRead": true}},
	}
	for _, v := range variants {
		for _, total := range segmentTotals {
			if v.id != "h" && v.id != "hr" && total != 3 && total != 7 {
				continue
			}
			coll := fmt.Sprintf("%s-%d", v.id, total)
			for seg := 0; seg < total; seg++ {
				s := step("Scan", merge(M{"TableName": v.table, "Segment": seg, "TotalSegments": total, "Limit": segmentPageLimit}, v.extra))
				s.Paginate = true
				s.Collect = coll
				if total > 1 {
					// Which items a segment holds depends on hashing.
					s.Compare.Ignore = []string{"Items", "Count", "ScannedCount"}
				}
				steps = append(steps, withID(s, fmt.Sprintf("%s:segment-%d-of-%d", v.id, seg, total)))
			}
			full := step("Scan", merge(M{"TableName": v.table}, v.extra))
			full.Union = coll
			steps = append(steps, withID(full, fmt.Sprintf("%s:union-of-%d", v.id, total)))
		}
	}
	// Select COUNT per segment: the counts add up to the full count.
	for seg := 0; seg < 4; seg++ {
		s := step("Scan", M{"TableName": "{{h}}", "Segment": seg, "TotalSegments": 4, "Select": "COUNT"})
		s.Collect = "count-4"
		s.Compare.Ignore = []string{"Count", "ScannedCount"}
		steps = append(steps, withID(s, fmt.Sprintf("count:segment-%d-of-4", seg)))
	}
	countAll := step("Scan", M{"TableName": "{{h}}", "Select": "COUNT"})
	countAll.Union = "count-4"
	steps = append(steps, withID(countAll, "count:union-of-4"))

	// Valid extremes: the last of a million segments, one segment of one.
	last := step("Scan", M{"TableName": "{{h}}", "Segment": 999999, "TotalSegments": 1000000})
	last.Compare.Ignore = []string{"Items", "Count", "ScannedCount", "LastEvaluatedKey"}
	steps = append(steps, withID(last, "last-of-a-million"))

	bad := func(id string, req M) Step {
		return withID(failStep("Scan", "ValidationException", merge(M{"TableName": "{{h}}"}, req)), id)
	}
	steps = append(steps,
		bad("segment-equals-total", M{"Segment": 3, "TotalSegments": 3}),
		bad("segment-above-total", M{"Segment": 8, "TotalSegments": 7}),
		bad("segment-1-of-1", M{"Segment": 1, "TotalSegments": 1}),
		bad("total-zero", M{"Segment": 0, "TotalSegments": 0}),
		bad("total-negative", M{"Segment": 0, "TotalSegments": -1}),
		bad("total-over-a-million", M{"Segment": 0, "TotalSegments": 1000001}),
		bad("segment-negative", M{"Segment": -1, "TotalSegments": 2}),
		bad("segment-without-total", M{"Segment": 1}),
		bad("total-without-segment", M{"TotalSegments": 4}),
		bad("segment-with-start-key-of-other-table", M{"Segment": 0, "TotalSegments": 2, "ExclusiveStartKey": M{"PK": S("item00"), "SK": S("x")}}),
		withID(failStep("Scan", "ResourceNotFoundException", M{"TableName": "{{nope}}", "Segment": 0, "TotalSegments": 2}), "missing-table"),
	)
	return Case{
		Name:   "scan-segments",
		Doc:    "Parallel Scan: for TotalSegments 1, 2, 3, 4 and 7, the segments, read page by page, partition the table on each target (no item twice, union and counts equal to the full Scan); invalid Segment/TotalSegments fail alike.",
		Tables: map[string]string{"h": "pk", "hr": "pksk"},
		Steps:  steps,
	}
}
