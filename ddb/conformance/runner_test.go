package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/internal/testkit/dynamodblocal"
)

var (
	flagLocal = flag.Bool("conformance.local", true,
		"run DynamoDB Local as the reference; false compares the engine with testdata/golden/ instead (no Java needed)")
	flagEngine = flag.Bool("conformance.engine", os.Getenv("QUICKPHOTOS_CONFORMANCE_LOCAL_ONLY") == "",
		"run the embedded engine too; false only checks the cases against DynamoDB Local (env QUICKPHOTOS_CONFORMANCE_LOCAL_ONLY=1 has the same effect)")
	flagRecord = flag.Bool("conformance.record", false,
		"write DynamoDB Local's responses to testdata/golden/<case>.json")
)

// maxFailedSteps stops a case after this many failed steps when the engine
// runs: later steps usually fail only because of the earlier ones. Checking
// the cases against DynamoDB Local alone reports every failed step.
const maxFailedSteps = 5

// local is the DynamoDB Local instance shared by the test binary.
var local *dynamodblocal.Instance

// newEngineTarget starts a fresh embedded engine for one case; engine_test.go
// sets it. It is nil when that file is left out of the build.
var newEngineTarget func(tb testing.TB) *target

func TestMain(m *testing.M) {
	flag.Parse()
	if *flagLocal && !*flagRecord && *flagEngine {
		// Without DynamoDB Local the engine is still checked, against its recorded answers.
		if reason := dynamodblocal.SkipReason(); reason != "" {
			fmt.Fprintf(os.Stderr, "conformance: comparing with testdata/golden/: %s\n", reason)
			*flagLocal = false
		}
	}
	if !*flagLocal {
		os.Exit(m.Run())
	}
	os.Exit(dynamodblocal.Main(m, &local))
}

// TestConformance runs every case.
func TestConformance(t *testing.T) {
	cases, err := loadCases()
	if err != nil {
		t.Fatal(err)
	}
	divs, err := loadDivergences(cases)
	if err != nil {
		t.Fatal(err)
	}
	if *flagEngine && newEngineTarget == nil {
		t.Fatal("engine_test.go is not in the build: run with -conformance.engine=false to check the cases against DynamoDB Local only")
	}
	if !*flagLocal && !*flagEngine {
		t.Fatal("nothing to run: both -conformance.local and -conformance.engine are false")
	}
	if !*flagLocal && *flagRecord {
		t.Fatal("-conformance.record needs DynamoDB Local")
	}
	if err := checkTypeOnlyMessages(cases); err != nil {
		t.Fatal(err)
	}
	runs++
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { runCase(t, c, divs) })
	}
	st := countSteps(cases, divs)
	msg := fmt.Sprintf("conformance: %d compared steps, each a subtest, in %d sequences (%d expecting an error, %d of them with the message compared; "+
		"%d checked against the documented behaviour instead of DynamoDB Local; %d only for success or error type)",
		st.steps, len(cases), st.errors, st.messages, st.divergences, st.skipped)
	t.Log(msg)
	if !testing.Verbose() {
		fmt.Println(msg)
	}
}

// stepCounts are the totals TestConformance reports.
type stepCounts struct {
	steps, errors, messages, divergences, skipped int
}

// countSteps counts the steps of all cases, fixture CreateTable steps
// included.
func countSteps(cases []Case, divs map[string]Divergence) stepCounts {
	var n stepCounts
	for _, c := range cases {
		for _, s := range c.allSteps() {
			n.steps++
			div := divs[c.Name+"/"+s.ID]
			if div.valid() {
				n.divergences++
			}
			if s.Compare.Skip {
				n.skipped++
			}
			if s.Error != "" {
				n.errors++
				if !s.Compare.Skip && compareMessage(c.Name, s, div) {
					n.messages++
				}
			}
		}
	}
	return n
}

// stepResult is one target's answer to a step.
type stepResult struct {
	resp     response
	decoded  any      // raw decoding, for $prev and $step: references
	problems []string // what a Paginate step found wrong with the pages
}

func runCase(t *testing.T, c Case, divs map[string]Divergence) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var ref, eng *target
	if *flagLocal {
		ref = &target{name: "DynamoDB Local", endpoint: local.Endpoint, client: http.DefaultClient}
		if err := ref.reset(ctx); err != nil {
			t.Fatalf("reset DynamoDB Local: %v", err)
		}
	}
	if *flagEngine {
		eng = newEngineTarget(t)
	}
	var golden *goldenCase
	if !*flagLocal {
		g, err := readGolden(c.Name)
		if err != nil {
			t.Fatalf("%v (record it with -conformance.record)", err)
		}
		golden = g
	}
	run := &caseRun{ctx: ctx, c: c, divs: divs, ref: ref, eng: eng, golden: golden,
		rec: &goldenCase{Case: c.Name}, refColl: collections{}, engColl: collections{},
		refAnswers: map[string]any{}, engAnswers: map[string]any{}}
	failed := 0
	// Every step is sent in order, since each depends on those before it;
	// its verdict is reported in a subtest of its own, so that one step can
	// be read alone (go test -run 'TestConformance/<case>/<step id>_').
	for i, s := range c.allSteps() {
		msgs, err := run.step(i, s)
		t.Run(s.ID+"_"+s.Op, func(t *testing.T) {
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) > 0 {
				t.Errorf("request: %s\n%s", compactRaw(s.Request), strings.Join(msgs, "\n"))
			}
		})
		if len(msgs) > 0 {
			failed++
		}
		switch {
		case err != nil:
			t.Fatalf("stopping the case at step %s (%s): the steps after it depend on it", s.ID, s.Op)
		case *flagEngine && failed >= maxFailedSteps:
			t.Fatalf("stopping after %d failed steps", failed)
		}
	}
	if *flagRecord {
		if err := writeGolden(run.rec); err != nil {
			t.Fatal(err)
		}
	}
}

// caseRun is the state of one case between its steps: the targets, what
// answered (for $prev and $step: references), their collections, and the golden file
// read or being recorded.
type caseRun struct {
	ctx              context.Context
	c                Case
	divs             map[string]Divergence
	ref, eng         *target // nil when not run
	golden           *goldenCase
	rec              *goldenCase
	refColl, engColl collections
	// refAnswers and engAnswers hold each target's decoded answers for
	// references (substitutePrev): under "prev" the last, under each step ID
	// that step's.
	refAnswers, engAnswers map[string]any
}

// step sends step i to the targets and returns what is wrong with their
// answers; an error means the step could not be run at all.
func (r *caseRun) step(i int, s Step) ([]string, error) {
	body := bind(r.c.Name, s.Request)
	var refRes, engRes *stepResult
	var err error
	switch {
	case r.ref != nil:
		if refRes, err = sendStep(r.ctx, r.ref, r.c.Name, s, body, r.refAnswers); err != nil {
			return nil, fmt.Errorf("DynamoDB Local: %w", err)
		}
		r.refAnswers["prev"], r.refAnswers[s.ID] = refRes.decoded, refRes.decoded
		r.rec.Steps = append(r.rec.Steps, recordStep(r.c.Name, s, refRes.resp))
	case r.golden != nil:
		if i >= len(r.golden.Steps) || r.golden.Steps[i].ID != s.ID {
			return nil, errors.New("golden file is stale (re-record it with -conformance.record)")
		}
		g := r.golden.Steps[i]
		refRes = &stepResult{resp: response{Status: g.Status, Body: bind(r.c.Name, g.Response)}}
	}
	if r.eng != nil {
		if engRes, err = sendStep(r.ctx, r.eng, r.c.Name, s, body, r.engAnswers); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		r.engAnswers["prev"], r.engAnswers[s.ID] = engRes.decoded, engRes.decoded
	}
	msgs := checkStep(r.c.Name, s, r.divs[r.c.Name+"/"+s.ID], refRes, engRes, r.ref != nil)
	if refRes != nil {
		msgs = append(msgs, r.refColl.check(s, "DynamoDB Local", refRes)...)
	}
	if engRes != nil {
		msgs = append(msgs, r.engColl.check(s, "engine", engRes)...)
	}
	return msgs, nil
}

// waitActive sends a DescribeTable step until the table and its global
// secondary indexes are ACTIVE, for at most a minute.
func waitActive(ctx context.Context, tg *target, s Step, body []byte, prev any) (*stepResult, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		res, err := send(ctx, tg, s.Op, body, prev)
		// DynamoDB Local answers InternalFailure (HTTP 500) now and then
		// while it backfills an index: retry those too.
		if err != nil || res.resp.Status == http.StatusOK && active(res.decoded) ||
			res.resp.Status != http.StatusOK && res.resp.Status < 500 {
			return res, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: table not ACTIVE after a minute: %s", tg.name, res.resp.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func active(desc any) bool {
	if st, _ := lookup(desc, []string{"Table", "TableStatus"}); st != "ACTIVE" {
		return false
	}
	gsis, _ := lookup(desc, []string{"Table", "GlobalSecondaryIndexes"})
	list, _ := gsis.([]any)
	for _, g := range list {
		if st, _ := lookup(g, []string{"IndexStatus"}); st != "ACTIVE" {
			return false
		}
	}
	return true
}

// sendStep sends a step's request, waiting, paginating or polling when the
// step asks to.
func sendStep(ctx context.Context, tg *target, caseName string, s Step, body []byte, prev any) (*stepResult, error) {
	time.Sleep(time.Duration(s.SleepMillis) * time.Millisecond)
	switch {
	case s.Wait:
		return waitActive(ctx, tg, s, body, prev)
	case s.Paginate:
		return paginate(ctx, tg, s, body, prev)
	case s.PollSeconds > 0:
		return poll(ctx, tg, caseName, s, body, prev)
	}
	return send(ctx, tg, s.Op, body, prev)
}

// maxPages bounds the pages a Paginate step reads.
const maxPages = 1000

// paginate sends a Scan or Query and its following pages, and returns one
// response holding every page's items, Count and ScannedCount summed.
// Problems with the pages themselves are returned in the result's problems.
func paginate(ctx context.Context, tg *target, s Step, body []byte, prev any) (*stepResult, error) {
	var req map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("request is not JSON: %v", err)
	}
	req = substitutePrev(req, prev).(map[string]any)
	limit := -1
	if n, ok := req["Limit"].(json.Number); ok {
		if l, err := n.Int64(); err == nil {
			limit = int(l)
		}
	}
	items := []any{}
	var count, scanned int64
	var problems []string
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("%s: still a LastEvaluatedKey after %d pages", tg.name, maxPages)
		}
		res, err := send(ctx, tg, s.Op, mustJSON(req), nil)
		if err != nil || res.resp.Status != http.StatusOK {
			return res, err
		}
		m, _ := res.decoded.(map[string]any)
		got, _ := m["Items"].([]any)
		items = append(items, got...)
		c, _ := m["Count"].(json.Number).Int64()
		sc, _ := m["ScannedCount"].(json.Number).Int64()
		count, scanned = count+c, scanned+sc
		if limit >= 0 && sc > int64(limit) {
			problems = append(problems, fmt.Sprintf("%s: page %d scanned %d items, more than Limit %d", tg.name, page, sc, limit))
		}
		lek, ok := m["LastEvaluatedKey"]
		if !ok {
			break
		}
		req["ExclusiveStartKey"] = lek
	}
	merged := map[string]any{"Count": count, "ScannedCount": scanned}
	if sel, _ := req["Select"].(string); sel != "COUNT" {
		merged["Items"] = items
	}
	res := &stepResult{resp: response{Status: http.StatusOK, Body: mustJSON(merged)}, problems: problems}
	dec = json.NewDecoder(bytes.NewReader(res.resp.Body))
	dec.UseNumber()
	_ = dec.Decode(&res.decoded)
	return res, nil
}

// pollInterval is how often a PollSeconds step repeats its request.
const pollInterval = 100 * time.Millisecond

// poll repeats a request until its normalised answer equals the step's
// expect response or PollSeconds have passed, and returns the last answer.
func poll(ctx context.Context, tg *target, caseName string, s Step, body []byte, prev any) (*stepResult, error) {
	expect, err := normalizeExpect(caseName, s)
	if err != nil || expect == nil {
		return nil, fmt.Errorf("a pollSeconds step needs a JSON expect response (%v)", err)
	}
	deadline := time.Now().Add(time.Duration(s.PollSeconds) * time.Second)
	for {
		res, err := send(ctx, tg, s.Op, body, prev)
		if err != nil {
			return nil, err
		}
		got, err := normalize(s.Op, response{Status: res.resp.Status, Body: unbind(caseName, res.resp.Body)}, s.Compare)
		if err == nil && len(diff(got, expect, 1)) == 0 || time.Now().After(deadline) {
			return res, nil
		}
		time.Sleep(pollInterval)
	}
}

// send substitutes $prev references and sends the request.
func send(ctx context.Context, tg *target, op string, body []byte, prev any) (*stepResult, error) {
	if bytes.Contains(body, []byte(`"$prev.`)) || bytes.Contains(body, []byte(`"$step:`)) {
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("request is not JSON: %v", err)
		}
		v = substitutePrev(v, prev)
		body = mustJSON(v)
	}
	r, err := tg.do(ctx, op, body)
	if err != nil {
		return nil, err
	}
	res := &stepResult{resp: r}
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.UseNumber()
	_ = dec.Decode(&res.decoded)
	return res, nil
}

// substitutePrev replaces "$prev.A.B" strings by field A.B of the previous
// answer, and "$step:ID.A.B" by that field of the answer to step ID, both
// from the same target (answers, see caseRun; lookup reads the path); map
// entries whose reference is missing are dropped.
func substitutePrev(v, answers any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && (strings.HasPrefix(s, "$prev.") || strings.HasPrefix(s, "$step:")) {
				path := strings.Split(strings.TrimPrefix(strings.TrimPrefix(s, "$step:"), "$"), ".")
				if x, ok := lookup(answers, path); ok {
					v[k] = x
				} else {
					delete(v, k)
				}
				continue
			}
			v[k] = substitutePrev(e, answers)
		}
	case []any:
		for i, e := range v {
			v[i] = substitutePrev(e, answers)
		}
	}
	return v
}

// lookup returns the value at path in v: object keys, or array indexes
// ("Shards.0.ShardId").
func lookup(v any, path []string) (any, bool) {
	for _, p := range path {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[p]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// checkStep compares one step's answers and returns what is wrong. ref is
// DynamoDB Local's answer (live when live is true, else from the golden
// file); eng is the engine's, when it runs.
func checkStep(caseName string, s Step, div Divergence, ref, eng *stepResult, live bool) []string {
	s.Compare.Message = compareMessage(caseName, s, div)
	var msgs []string
	norm := func(who string, r *stepResult) any {
		v, err := normalize(s.Op, response{Status: r.resp.Status, Body: unbind(caseName, r.resp.Body)}, s.Compare)
		if err != nil {
			msgs = append(msgs, fmt.Sprintf("%s: %v", who, err))
		}
		return v
	}
	expect, err := normalizeExpect(caseName, s)
	if err != nil {
		return []string{err.Error()}
	}
	var refN, engN any
	if ref != nil {
		refN = norm("DynamoDB Local", ref)
		if live {
			if got := errorType(refN); got != s.Error && !div.valid() {
				msgs = append(msgs, fmt.Sprintf("case error: DynamoDB Local answered error %q, the case expects %q:\n%s", got, s.Error, ref.resp.Body))
			}
		}
	}
	if eng != nil {
		engN = norm("engine", eng)
		if got := errorType(engN); got != s.Error && (div.valid() || ref == nil) {
			msgs = append(msgs, fmt.Sprintf("engine answered error %q, want %q:\n%s", got, s.Error, eng.resp.Body))
		}
	}
	if s.Compare.Skip {
		return msgs
	}
	switch {
	case div.valid():
		if expect == nil {
			return append(msgs, "divergence registered but the step has no expect response")
		}
		if ref != nil && len(diff(refN, expect, 1)) == 0 {
			msgs = append(msgs, fmt.Sprintf("registered divergence %q no longer observed: DynamoDB Local now answers as documented; remove it from testdata/divergences.json", div.Summary))
		}
		if eng != nil {
			msgs = append(msgs, report("engine vs documented DynamoDB behaviour ("+div.Source+")", engN, expect)...)
		}
	default:
		if expect != nil && ref != nil && live {
			msgs = append(msgs, report("case error: DynamoDB Local vs the case's expect", refN, expect)...)
		}
		if eng != nil && ref != nil {
			msgs = append(msgs, report("engine vs DynamoDB Local", engN, refN)...)
		}
	}
	return msgs
}

func report(title string, got, want any) []string {
	d := diff(got, want, 20)
	if len(d) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s:\n  %s\ngot:  %s\nwant: %s", title, strings.Join(d, "\n  "), compact(got), compact(want))}
}

// normalizeExpect returns the normalised form of a step's expect response,
// or nil when it has none.
func normalizeExpect(caseName string, s Step) (any, error) {
	if len(s.Expect) == 0 {
		return nil, nil
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(bind(caseName, s.Expect)))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("expect is not JSON: %v", err)
	}
	status := http.StatusOK
	if m, ok := raw.(map[string]any); ok && m["__type"] != nil {
		status = http.StatusBadRequest
		if n, ok := m["__status"].(json.Number); ok {
			fmt.Sscan(n.String(), &status)
		}
	}
	return normalize(s.Op, response{Status: status, Body: unbind(caseName, mustJSON(raw))}, s.Compare)
}

// errorType is the __type of a normalised error response, or "".
func errorType(v any) string {
	if m, ok := v.(map[string]any); ok {
		if t, ok := m["__type"].(string); ok {
			return t
		}
	}
	return ""
}

func compactRaw(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}
