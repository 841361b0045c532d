package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Case is a named sequence of steps run against a fresh set of tables.
type Case struct {
	// Name identifies the case; it must be unique and match caseNameRE.
	Name string `json:"name"`
	// Doc says what the case checks.
	Doc string `json:"doc,omitempty"`
	// Tables maps logical table names (written {{name}} in requests) to a
	// fixture (see fixtures.go) created, and compared, before the steps.
	Tables map[string]string `json:"tables,omitempty"`
	// Steps run in order.
	Steps []Step `json:"steps"`

	file string // where the case came from, for messages
}

// Step is one request and how to compare its responses.
type Step struct {
	// ID names the step within its case (default "#<index>"); divergences
	// refer to it.
	ID string `json:"id,omitempty"`
	// Op is the operation name, such as "PutItem".
	Op string `json:"op"`
	// Request is the raw JSON body. Strings may contain {{table}}
	// placeholders; a string value "$prev.Path.To.Field" is replaced by that
	// field of the previous step's response from the same target, and
	// "$step:ID.Path" by that field of step ID's (array elements by index:
	// "Shards.0.ShardId"). A step ID used so holds no '.'.
	Request json.RawMessage `json:"request"`
	// Error, when set, is the error type (the part after '#') every target
	// must return; when empty the step must succeed.
	Error string `json:"error,omitempty"`
	// Expect, when set, is the documented response (normalised form). It is
	// checked against DynamoDB Local, except for steps in the divergence
	// registry, where it is checked against the engine instead.
	Expect json.RawMessage `json:"expect,omitempty"`
	// Compare adjusts the comparison.
	Compare Compare `json:"compare,omitempty"`
	// Wait, on a DescribeTable step, repeats the request on each target
	// until the table and all its global secondary indexes are ACTIVE
	// (index creation is asynchronous), then compares the last answers.
	Wait bool `json:"wait,omitempty"`
	// Paginate, on a Scan or Query step, follows LastEvaluatedKey on each
	// target separately (page boundaries may differ) until the last page.
	// The response compared is {"Items": all pages' items in order,
	// "Count", "ScannedCount": their sums}; each page must hold at most
	// Limit items, and every page but the last a LastEvaluatedKey.
	Paginate bool `json:"paginate,omitempty"`
	// Collect adds the step's Items, on each target, to the named
	// collection (and its Count to the collection's count); an item that is
	// already in the collection is a failure. Parallel Scan segments use it
	// to check that no item is in two segments.
	Collect string `json:"collect,omitempty"`
	// Union names a collection that must hold, on each target, exactly the
	// step's Items (compared as sets) and whose counts must add up to the
	// step's Count: the union of a Scan's segments is the full Scan.
	Union string `json:"union,omitempty"`
	// PollSeconds repeats the request on each target, every 100 ms for at
	// most that many seconds, until its normalised response equals Expect
	// (which it requires), then compares the last answers as usual. It is
	// for asynchronous effects, such as the deletion of expired items.
	PollSeconds int `json:"pollSeconds,omitempty"`
	// SleepMillis waits that long before sending the step to each target,
	// for effects no request can observe (the engine's TTL sweeper deleting
	// an item it already hides).
	SleepMillis int `json:"sleepMillis,omitempty"`
}

// Compare options of a step. The defaults (defaultIgnore) always apply.
type Compare struct {
	// Ignore lists paths removed from both responses before comparing.
	// Segments are separated by '.', "[]" stands for every array element,
	// "*" for any one segment and "**" for any number of segments.
	Ignore []string `json:"ignore,omitempty"`
	// Unordered lists paths of arrays compared as multisets.
	Unordered []string `json:"unordered,omitempty"`
	// Mask lists paths whose values are replaced by "<present>" in both
	// responses: whether they are there is compared, not what they hold
	// (identities, sequence numbers, iterators). defaultMask always applies.
	Mask []string `json:"mask,omitempty"`
	// Message compares error messages too. Messages of error steps are
	// compared by default (see messageDefault in messages_test.go), except
	// for divergences and the steps listed in typeOnlyMessages.
	Message bool `json:"message,omitempty"`
	// ExactNumbers compares N values as strings rather than numbers.
	ExactNumbers bool `json:"exactNumbers,omitempty"`
	// Skip compares nothing: the step only needs to succeed or fail as
	// Error says (for steps whose response is not deterministic).
	Skip bool `json:"skip,omitempty"`
}

var caseNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,80}$`)

// generated holds the cases added by gen_*_test.go in init functions.
var generated []Case

// register adds generated cases.
func register(cs ...Case) { generated = append(generated, cs...) }

// caseFile is the shape of a testdata file: one case or a list of them.
type caseFile struct {
	Cases []Case `json:"cases"`
}

// loadCases reads testdata/*.json (except divergences.json) and adds the
// generated cases, checking names are unique and well formed.
func loadCases() ([]Case, error) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		return nil, err
	}
	var all []Case
	for _, f := range files {
		if filepath.Base(f) == "divergences.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var cf caseFile
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cf); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for i := range cf.Cases {
			cf.Cases[i].file = f
		}
		all = append(all, cf.Cases...)
	}
	for _, c := range generated {
		c.file = "generated"
		all = append(all, c)
	}
	seen := map[string]string{}
	for i, c := range all {
		if !caseNameRE.MatchString(c.Name) {
			return nil, fmt.Errorf("%s: bad case name %q", c.file, c.Name)
		}
		if prev, ok := seen[c.Name]; ok {
			return nil, fmt.Errorf("case %q defined twice (%s, %s)", c.Name, prev, c.file)
		}
		seen[c.Name] = c.file
		for j := range c.Steps {
			if all[i].Steps[j].ID == "" {
				all[i].Steps[j].ID = fmt.Sprintf("#%d", j)
			}
		}
		for name, fx := range c.Tables {
			if _, ok := fixtures[fx]; !ok {
				return nil, fmt.Errorf("case %q: table %q: unknown fixture %q", c.Name, name, fx)
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all, nil
}

// runs counts the runs of the cases in this process (TestConformance adds
// one). Each run's tables and client request tokens take names no earlier
// run used: DynamoDB Local, started once per process, keeps the streams of
// deleted tables and the tokens of the last ten minutes, so a second run
// (go test -count=2) on the first one's names would meet them.
var runs int

// tablePrefix begins every physical table name of the current run; the
// first run's is "cf.", as in the golden files.
func tablePrefix() string {
	if runs <= 1 {
		return "cf."
	}
	return fmt.Sprintf("cf%d.", runs)
}

// tokenRE matches a request's ClientRequestToken, its value in group 2.
var tokenRE = regexp.MustCompile(`("ClientRequestToken"\s*:\s*")([^"]*)"`)

// tableName is the physical name of a case's logical table.
func tableName(caseName, logical string) string {
	return tablePrefix() + caseName + "." + logical
}

// placeholderRE matches {{logical}} table placeholders.
var placeholderRE = regexp.MustCompile(`\{\{([A-Za-z0-9_-]+)\}\}`)

// bind replaces the table placeholders of a request and, after the first run,
// marks its client request token with the run.
func bind(caseName string, body []byte) []byte {
	body = placeholderRE.ReplaceAllFunc(body, func(m []byte) []byte {
		return []byte(tableName(caseName, string(placeholderRE.FindSubmatch(m)[1])))
	})
	if runs > 1 {
		body = tokenRE.ReplaceAll(body, []byte(fmt.Sprintf("${1}${2}.r%d\"", runs)))
	}
	return body
}

// unbind turns physical table names in a response back into placeholders, so
// responses can be compared with written expectations and golden files.
func unbind(caseName string, body []byte) []byte {
	re := regexp.MustCompile(regexp.QuoteMeta(tablePrefix()+caseName+".") + `([A-Za-z0-9_-]+)`)
	return re.ReplaceAll(body, []byte("{{$1}}"))
}

// allSteps returns the fixture CreateTable steps followed by the case's own.
func (c Case) allSteps() []Step {
	var names []string
	for n := range c.Tables {
		names = append(names, n)
	}
	sort.Strings(names)
	var steps []Step
	for _, n := range names {
		steps = append(steps, Step{
			ID:      "create:" + n,
			Op:      "CreateTable",
			Request: fixtures[c.Tables[n]](n),
		})
	}
	return append(steps, c.Steps...)
}
