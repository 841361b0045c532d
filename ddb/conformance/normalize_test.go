package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
)

// defaultIgnore are paths that legitimately differ between any two
// DynamoDB implementations: identities, clocks and approximate statistics
// (DynamoDB refreshes ItemCount and sizes about every six hours).
var defaultIgnore = []string{
	"**.CreationDateTime", "**.TableArn", "**.TableId", "**.IndexArn",
	"**.LastIncreaseDateTime", "**.LastDecreaseDateTime", "**.NumberOfDecreasesToday",
	"**.LastUpdateToPayPerRequestDateTime",
	"Table.TableSizeBytes", "Table.ItemCount", "Table.**.IndexSizeBytes", "Table.**.ItemCount",
	"TableDescription.TableSizeBytes", "TableDescription.ItemCount",
	"TableDescription.**.IndexSizeBytes", "TableDescription.**.ItemCount",
	"TableDescription.TableClassSummary", "Table.TableClassSummary",
	"Table.WarmThroughput", "TableDescription.WarmThroughput", "**.WarmThroughput",
}

// defaultMask are paths whose presence is compared but whose values differ
// between any two implementations: stream identities (ARNs, labels, shard
// IDs), sequence numbers (DynamoDB Local numbers all streams together),
// iterators, event IDs and record times (DynamoDB Local rounds them down to
// the minute, DynamoDB to the second), and the region.
var defaultMask = map[string][]string{
	"":            {"**.LatestStreamArn", "**.LatestStreamLabel"},
	"ListStreams": {"Streams.[].StreamArn", "Streams.[].StreamLabel", "LastEvaluatedStreamArn"},
	"DescribeStream": {"StreamDescription.StreamArn", "StreamDescription.StreamLabel", "StreamDescription.CreationRequestDateTime",
		"StreamDescription.Shards.[].ShardId", "StreamDescription.Shards.[].ParentShardId", "StreamDescription.LastEvaluatedShardId",
		"StreamDescription.Shards.[].SequenceNumberRange.StartingSequenceNumber", "StreamDescription.Shards.[].SequenceNumberRange.EndingSequenceNumber"},
	"GetShardIterator": {"ShardIterator"},
	"GetRecords": {"NextShardIterator", "Records.[].eventID", "Records.[].awsRegion",
		"Records.[].dynamodb.SequenceNumber", "Records.[].dynamodb.ApproximateCreationDateTime"},
}

// defaultUnordered are arrays whose order DynamoDB does not define.
var defaultUnordered = map[string][]string{
	"":                   {"**.AttributeDefinitions", "**.GlobalSecondaryIndexes", "**.LocalSecondaryIndexes", "**.NonKeyAttributes"},
	"Scan":               {"Items"},
	"BatchGetItem":       {"Responses.*", "ConsumedCapacity", "UnprocessedKeys.*.Keys"},
	"BatchWriteItem":     {"ConsumedCapacity", "UnprocessedItems.*"},
	"TransactWriteItems": {"ConsumedCapacity"},
	"TransactGetItems":   {"ConsumedCapacity"},
}

// normalize decodes a response into the form compared and recorded: errors
// become {"__status", "__type" (after '#'), "message" (when cmp.Message)}
// plus their other fields; N values are canonical numbers unless
// cmp.ExactNumbers; set members are sorted; ignored paths are removed and
// unordered arrays sorted.
func normalize(op string, r response, cmp Compare) (any, error) {
	var v any
	if len(bytes.TrimSpace(r.Body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(r.Body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("HTTP %d, body is not JSON (%v): %q", r.Status, err, r.Body)
		}
	}
	if r.Status != http.StatusOK {
		m, _ := v.(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		t, _ := m["__type"].(string)
		if i := strings.LastIndexByte(t, '#'); i >= 0 {
			t = t[i+1:]
		}
		m["__type"] = t
		m["__status"] = json.Number(fmt.Sprint(r.Status))
		msg, ok := m["message"]
		if !ok {
			msg, ok = m["Message"]
		}
		delete(m, "Message")
		delete(m, "message")
		if ok && cmp.Message {
			m["message"] = msg
		}
		v = m
	}
	ignore := append(append([]string{}, defaultIgnore...), cmp.Ignore...)
	if !cmp.Message {
		ignore = append(ignore, "CancellationReasons.[].Message")
	}
	unordered := append(append(append([]string{}, defaultUnordered[""]...), defaultUnordered[op]...), cmp.Unordered...)
	mask := append(append(append([]string{}, defaultMask[""]...), defaultMask[op]...), cmp.Mask...)
	n := normalizer{ignore: parsePatterns(ignore), unordered: parsePatterns(unordered), mask: parsePatterns(mask), exact: cmp.ExactNumbers}
	return n.walk(nil, v), nil
}

type normalizer struct {
	ignore, unordered, mask [][]string
	exact                   bool
}

func (n normalizer) walk(path []string, v any) any {
	switch v := v.(type) {
	case map[string]any:
		if av, ok := n.attributeValue(v); ok {
			return av
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			p := append(path[:len(path):len(path)], k)
			if matchAny(n.ignore, p) {
				continue
			}
			if matchAny(n.mask, p) {
				out[k] = "<present>"
				continue
			}
			out[k] = n.walk(p, e)
		}
		return out
	case []any:
		p := append(path[:len(path):len(path)], "[]")
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = n.walk(p, e)
		}
		if matchAny(n.unordered, path) {
			sortCanonical(out)
		}
		return out
	case json.Number:
		// Numbers outside attribute values (ConsumedCapacity, Count) are
		// compared by value: DynamoDB writes 1.0 where others write 1.
		return json.Number(canonicalNumber(string(v)))
	}
	return v
}

// attributeValue normalises a DynamoDB AttributeValue with a scalar or set
// type; L and M are walked as ordinary JSON.
func (n normalizer) attributeValue(m map[string]any) (any, bool) {
	if len(m) != 1 {
		return nil, false
	}
	for k, e := range m {
		switch k {
		case "N":
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			if !n.exact {
				s = canonicalNumber(s)
			}
			return map[string]any{"N": s}, true
		case "SS", "NS", "BS":
			list, ok := e.([]any)
			if !ok {
				return nil, false
			}
			out := make([]any, len(list))
			for i, x := range list {
				s, ok := x.(string)
				if !ok {
					return nil, false
				}
				if k == "NS" && !n.exact {
					s = canonicalNumber(s)
				}
				out[i] = s
			}
			sort.Slice(out, func(i, j int) bool { return out[i].(string) < out[j].(string) })
			return map[string]any{k: out}, true
		}
	}
	return nil, false
}

// canonicalNumber rewrites a DynamoDB number without leading or trailing
// zeros, in plain or (for large exponents) scientific notation, so that
// equal numbers compare equal. Strings that are not numbers are returned
// unchanged.
func canonicalNumber(s string) string {
	str := strings.TrimSpace(s)
	neg := false
	if str != "" && (str[0] == '-' || str[0] == '+') {
		neg = str[0] == '-'
		str = str[1:]
	}
	exp := 0
	if i := strings.IndexAny(str, "eE"); i >= 0 {
		if _, err := fmt.Sscan(str[i+1:], &exp); err != nil {
			return s
		}
		str = str[:i]
	}
	intPart, frac, _ := strings.Cut(str, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return s
	}
	exp -= len(frac)
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return "0"
	}
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		exp++
	}
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case exp >= 0 && exp <= 40:
		return sign + digits + strings.Repeat("0", exp)
	case exp < 0 && -exp < len(digits):
		return sign + digits[:len(digits)+exp] + "." + digits[len(digits)+exp:]
	case exp < 0 && -exp-len(digits) <= 40:
		return sign + "0." + strings.Repeat("0", -exp-len(digits)) + digits
	}
	return fmt.Sprintf("%s%se%d", sign, digits, exp)
}

func sortCanonical(list []any) {
	keys := make([]string, len(list))
	for i, e := range list {
		b, _ := json.Marshal(e)
		keys[i] = string(b)
	}
	sort.Sort(byKey{keys, list})
}

type byKey struct {
	keys []string
	vals []any
}

func (b byKey) Len() int           { return len(b.keys) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.vals[i], b.vals[j] = b.vals[j], b.vals[i]
}

// parsePatterns splits "a.b[].c" into ["a" "b" "[]" "c"].
func parsePatterns(ps []string) [][]string {
	out := make([][]string, 0, len(ps))
	for _, p := range ps {
		var segs []string
		for _, s := range strings.Split(p, ".") {
			if name, ok := strings.CutSuffix(s, "[]"); ok {
				if name != "" {
					segs = append(segs, name)
				}
				segs = append(segs, "[]")
				continue
			}
			segs = append(segs, s)
		}
		out = append(out, segs)
	}
	return out
}

func matchAny(patterns [][]string, path []string) bool {
	for _, p := range patterns {
		if match(p, path) {
			return true
		}
	}
	return false
}

func match(p, path []string) bool {
	if len(p) == 0 {
		return len(path) == 0
	}
	if p[0] == "**" {
		for i := 0; i <= len(path); i++ {
			if match(p[1:], path[i:]) {
				return true
			}
		}
		return false
	}
	if len(path) == 0 || (p[0] != "*" && p[0] != path[0]) {
		return false
	}
	return match(p[1:], path[1:])
}

// diff lists up to max differences between two normalised values.
func diff(a, b any, max int) []string {
	var out []string
	var walk func(path string, a, b any)
	walk = func(path string, a, b any) {
		if len(out) >= max {
			return
		}
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if aok && bok {
			keys := map[string]bool{}
			for k := range am {
				keys[k] = true
			}
			for k := range bm {
				keys[k] = true
			}
			var sorted []string
			for k := range keys {
				sorted = append(sorted, k)
			}
			sort.Strings(sorted)
			for _, k := range sorted {
				av, ain := am[k]
				bv, bin := bm[k]
				switch {
				case !ain:
					out = append(out, fmt.Sprintf("%s.%s: missing, want %s", path, k, compact(bv)))
				case !bin:
					out = append(out, fmt.Sprintf("%s.%s: unexpected %s", path, k, compact(av)))
				default:
					walk(path+"."+k, av, bv)
				}
			}
			return
		}
		al, aok := a.([]any)
		bl, bok := b.([]any)
		if aok && bok && len(al) == len(bl) {
			for i := range al {
				walk(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i])
			}
			return
		}
		if !reflect.DeepEqual(a, b) {
			out = append(out, fmt.Sprintf("%s: got %s, want %s", path, compact(a), compact(b)))
		}
	}
	walk("", a, b)
	return out
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
