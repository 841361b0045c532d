package deploy

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.yaml.in/yaml/v3"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/media"
)

// stagingPrefix is where the media service stages uploads, the prefix the bucket's lifecycle
// rule must expire.
const stagingPrefix = media.StagingPrefix

// functionRoots says, per value of a function's QUICKPHOTOS_LAMBDA_HANDLER, where the code that
// function runs starts: the walk in actions_test.go finds the AWS actions from there.
var functionRoots = map[string][]string{
	// The API: the HTTP handler serve and the Lambda adapter both serve.
	"api": {module + "/api.New"},
	// The fan-out: the stream event handler (the feed's fan-out, then the deleted photos' images).
	"fanout": {module + ".fanOutFunction"},
	// The sweep: the scheduled event handler (photo deletions cut short, expired uploads).
	"sweep": {module + ".sweepFunction"},
}

// eventSourceActions are what Lambda's event source mapping does with a stream function's role
// (the code never calls them: Lambda reads the stream and hands it the records).
var eventSourceActions = []string{"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"}

// node is a template value: map[string]any, []any, string, bool, int or float64, with the
// short forms of intrinsic functions (!Ref X, !GetAtt A.B, !Sub s, …) in their long form
// ({"Ref": "X"}, {"Fn::GetAtt": ["A", "B"]}, {"Fn::Sub": "s"}), as CloudFormation reads them.
type node = any

func loadTemplate(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile("template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	v, err := decode(doc.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func decode(n *yaml.Node) (node, error) {
	var v node
	switch n.Kind {
	case yaml.AliasNode:
		return decode(n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			val, err := decode(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = val
		}
		v = m
	case yaml.SequenceNode:
		s := []any{}
		for _, c := range n.Content {
			val, err := decode(c)
			if err != nil {
				return nil, err
			}
			s = append(s, val)
		}
		v = s
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!bool":
			v = n.Value == "true"
		case "!!int":
			i, err := strconv.Atoi(n.Value)
			if err != nil {
				return nil, err
			}
			v = i
		case "!!float":
			f, err := strconv.ParseFloat(n.Value, 64)
			if err != nil {
				return nil, err
			}
			v = f
		default:
			v = n.Value
		}
	default:
		return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	tag := n.Tag
	if !strings.HasPrefix(tag, "!") || strings.HasPrefix(tag, "!!") {
		return v, nil
	}
	switch name := strings.TrimPrefix(tag, "!"); name {
	case "Ref", "Condition":
		return map[string]any{name: v}, nil
	case "GetAtt":
		if s, ok := v.(string); ok {
			resource, attr, _ := strings.Cut(s, ".")
			v = []any{resource, attr}
		}
		return map[string]any{"Fn::GetAtt": v}, nil
	default:
		return map[string]any{"Fn::" + name: v}, nil
	}
}

// at follows path (map keys, or list indexes as numbers) from v; nil when it leads nowhere.
func at(v node, path ...any) node {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			s, ok := v.([]any)
			if !ok || k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

func list(v node) []any {
	if s, ok := v.([]any); ok {
		return s
	}
	if v == nil {
		return nil
	}
	return []any{v}
}

func getAtt(resource, attr string) node {
	return map[string]any{"Fn::GetAtt": []any{resource, attr}}
}

func ref(name string) node { return map[string]any{"Ref": name} }

// resourcesOfType returns the logical ids of the template's resources of type typ.
func resourcesOfType(tpl map[string]any, typ string) []string {
	var ids []string
	for id, r := range at(tpl, "Resources").(map[string]any) {
		if at(r, "Type") == typ {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// TestTemplate_Table: the template's table is the one `quickphotos table create` builds (the
// same keys, index, billing, stream view and TTL attribute, from dynamo.TableDefinition), with
// point-in-time recovery, and deletion protection unless the stack turns it off.
func TestTemplate_Table(t *testing.T) {
	tpl := loadTemplate(t)
	tables := resourcesOfType(tpl, "AWS::DynamoDB::Table")
	if len(tables) != 1 {
		t.Fatalf("want one table, got %v", tables)
	}
	id := tables[0]
	props := at(tpl, "Resources", id, "Properties")
	want := dynamo.TableDefinition(dynamo.DefaultTable)

	if name := at(props, "TableName"); !reflect.DeepEqual(name, ref("TableName")) {
		t.Errorf("TableName is %v, want the TableName parameter", name)
	}
	if def := at(tpl, "Parameters", "TableName", "Default"); def != aws.ToString(want.TableName) {
		t.Errorf("the TableName parameter defaults to %v, the code to %s", def, aws.ToString(want.TableName))
	}

	var wantAttrs, gotAttrs []string
	for _, a := range want.AttributeDefinitions {
		wantAttrs = append(wantAttrs, aws.ToString(a.AttributeName)+":"+string(a.AttributeType))
	}
	for _, a := range list(at(props, "AttributeDefinitions")) {
		gotAttrs = append(gotAttrs, fmt.Sprint(at(a, "AttributeName"), ":", at(a, "AttributeType")))
	}
	slices.Sort(wantAttrs)
	slices.Sort(gotAttrs)
	if !slices.Equal(gotAttrs, wantAttrs) {
		t.Errorf("AttributeDefinitions %v, the code defines %v", gotAttrs, wantAttrs)
	}

	if got, want := keySchema(at(props, "KeySchema")), codeKeySchema(want.KeySchema); got != want {
		t.Errorf("KeySchema %s, the code's %s", got, want)
	}
	if got := at(props, "BillingMode"); got != string(want.BillingMode) {
		t.Errorf("BillingMode %v, the code's %s", got, want.BillingMode)
	}

	gotIndexes := list(at(props, "GlobalSecondaryIndexes"))
	if len(gotIndexes) != len(want.GlobalSecondaryIndexes) {
		t.Fatalf("%d global secondary indexes, the code has %d", len(gotIndexes), len(want.GlobalSecondaryIndexes))
	}
	for i, w := range want.GlobalSecondaryIndexes {
		g := gotIndexes[i]
		if at(g, "IndexName") != aws.ToString(w.IndexName) {
			t.Errorf("index %d is %v, the code's %s", i, at(g, "IndexName"), aws.ToString(w.IndexName))
		}
		if got, want := keySchema(at(g, "KeySchema")), codeKeySchema(w.KeySchema); got != want {
			t.Errorf("index %s: KeySchema %s, the code's %s", aws.ToString(w.IndexName), got, want)
		}
		if got := at(g, "Projection", "ProjectionType"); got != string(w.Projection.ProjectionType) {
			t.Errorf("index %s: projection %v, the code's %s", aws.ToString(w.IndexName), got, w.Projection.ProjectionType)
		}
		if at(g, "Projection", "NonKeyAttributes") != nil || w.Projection.NonKeyAttributes != nil {
			t.Errorf("index %s: non-key attributes differ", aws.ToString(w.IndexName))
		}
	}

	if got := at(props, "StreamSpecification", "StreamViewType"); got != string(want.StreamSpecification.StreamViewType) || !aws.ToBool(want.StreamSpecification.StreamEnabled) {
		t.Errorf("stream view %v, the code's %s", got, want.StreamSpecification.StreamViewType)
	}
	if got := at(props, "TimeToLiveSpecification"); !reflect.DeepEqual(got, map[string]any{"AttributeName": dynamo.TTLAttribute, "Enabled": true}) {
		t.Errorf("TimeToLiveSpecification %v, want %s enabled", got, dynamo.TTLAttribute)
	}
	if got := at(props, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled"); got != true {
		t.Errorf("point-in-time recovery is %v, want true", got)
	}

	// Deletion protection: on when the parameter has its default, off only when it says so.
	protect := at(props, "DeletionProtectionEnabled")
	cond, ok := at(protect, "Fn::If", 0).(string)
	if !ok || at(protect, "Fn::If", 1) != true || at(protect, "Fn::If", 2) != false {
		t.Fatalf("DeletionProtectionEnabled is %v, want !If [condition, true, false]", protect)
	}
	equals := at(tpl, "Conditions", cond, "Fn::Equals")
	param, _ := at(equals, 0, "Ref").(string)
	if param == "" || at(equals, 1) != "true" || at(tpl, "Parameters", param, "Default") != "true" {
		t.Errorf("condition %s is %v: want the parameter it tests to default to \"true\"", cond, equals)
	}
	if at(tpl, "Resources", id, "DeletionPolicy") != "Retain" {
		t.Errorf("the table's DeletionPolicy is %v, want Retain", at(tpl, "Resources", id, "DeletionPolicy"))
	}
}

func keySchema(v node) string {
	var parts []string
	for _, k := range list(v) {
		parts = append(parts, fmt.Sprint(at(k, "AttributeName"), " ", at(k, "KeyType")))
	}
	return strings.Join(parts, ", ")
}

func codeKeySchema(ks []types.KeySchemaElement) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	return strings.Join(parts, ", ")
}

// statement is one Allow statement of a function's role.
type statement struct {
	actions   []string
	resources []node
}

// functionStatements returns the Allow statements of the inline policies of the function's role.
func functionStatements(t *testing.T, tpl map[string]any, fn string) []statement {
	t.Helper()
	if policies := at(tpl, "Resources", fn, "Properties", "Policies"); policies != nil {
		t.Errorf("%s: Policies %v: grant through its Role's inline policies only (SAM's policies add AWSLambdaBasicExecutionRole, whose resource is *)", fn, policies)
	}
	role := at(tpl, "Resources", fn, "Properties", "Role")
	roleID, _ := at(role, "Fn::GetAtt", 0).(string)
	if at(tpl, "Resources", roleID, "Type") != "AWS::IAM::Role" || at(role, "Fn::GetAtt", 1) != "Arn" {
		t.Fatalf("%s: Role %v, want !GetAtt of an AWS::IAM::Role's Arn", fn, role)
	}
	if m := at(tpl, "Resources", roleID, "Properties", "ManagedPolicyArns"); m != nil {
		t.Errorf("%s: managed policies %v: their resources are not this stack's", roleID, m)
	}
	var out []statement
	for _, p := range list(at(tpl, "Resources", roleID, "Properties", "Policies")) {
		for _, s := range list(at(p, "PolicyDocument", "Statement")) {
			if at(s, "Effect") != "Allow" {
				t.Errorf("%s: statement %v: only Allow statements are expected", roleID, s)
				continue
			}
			if at(s, "NotAction") != nil || at(s, "NotResource") != nil {
				t.Errorf("%s: statement %v: NotAction and NotResource grant what they do not name", roleID, s)
			}
			var st statement
			for _, a := range list(at(s, "Action")) {
				st.actions = append(st.actions, a.(string))
			}
			st.resources = list(at(s, "Resource"))
			out = append(out, st)
		}
	}
	return out
}

// TestTemplate_Policies: each function's role allows exactly the DynamoDB and S3 actions its
// code calls (found by walking the code from the function's entry, actions_test.go), plus the
// stream reads Lambda makes for a stream function; each on this stack's table, index, stream,
// queue or bucket, never on *.
func TestTemplate_Policies(t *testing.T) {
	tpl := loadTemplate(t)
	functions := resourcesOfType(tpl, "AWS::Serverless::Function")
	if len(functions) != len(functionRoots) {
		t.Errorf("functions %v; want one for each of %v", functions, sortedKeys(functionRoots))
	}
	table := resourcesOfType(tpl, "AWS::DynamoDB::Table")[0]
	buckets := resourcesOfType(tpl, "AWS::S3::Bucket")
	index := map[string]any{"Fn::Sub": "${" + table + ".Arn}/index/" + dynamo.InvertedIndexName}
	for _, fn := range functions {
		handler, _ := at(tpl, "Resources", fn, "Properties", "Environment", "Variables", "QUICKPHOTOS_LAMBDA_HANDLER").(string)
		roots, ok := functionRoots[handler]
		if !ok {
			t.Errorf("%s: QUICKPHOTOS_LAMBDA_HANDLER %q is none of %v", fn, handler, sortedKeys(functionRoots))
			continue
		}
		t.Run(fn, func(t *testing.T) {
			called := actionsReachedFrom(t, roots...)
			if len(called) == 0 {
				t.Fatalf("the walk from %v found no AWS action", roots)
			}
			streamFunction := streamEvent(tpl, fn) != nil
			if streamFunction {
				for _, a := range eventSourceActions {
					called[a] = "Lambda's event source mapping"
				}
			}

			granted := map[string]bool{}
			for _, st := range functionStatements(t, tpl, fn) {
				service := ""
				for _, a := range st.actions {
					s, op, _ := strings.Cut(a, ":")
					if strings.ContainsAny(op, "*?") {
						t.Errorf("action %s: a wildcard grants more than the code calls", a)
					}
					if service != "" && s != service {
						t.Errorf("statement %v mixes services", st.actions)
					}
					service = s
				}
				for _, r := range st.resources {
					if s, ok := r.(string); ok {
						t.Errorf("resource %q: want a reference to this stack's resource, not a literal", s)
					}
				}
				switch service {
				case "dynamodb", "s3":
					for _, a := range st.actions {
						granted[a] = true
						checkResources(t, a, st.resources, table, index, buckets)
					}
				case "logs":
					for _, r := range st.resources {
						id, _ := at(r, "Fn::GetAtt", 0).(string)
						if at(tpl, "Resources", id, "Type") != "AWS::Logs::LogGroup" {
							t.Errorf("%v on %v: want the function's log group", st.actions, r)
						}
					}
				case "sqs":
					if !slices.Equal(st.actions, []string{"sqs:SendMessage"}) || !streamFunction ||
						!reflect.DeepEqual(st.resources, []any{at(streamEvent(tpl, fn), "Properties", "DestinationConfig", "OnFailure", "Destination")}) {
						t.Errorf("%v on %v: only a stream function sends to its on-failure queue", st.actions, st.resources)
					}
				default:
					t.Errorf("statement %v: unexpected service", st.actions)
				}
			}
			for _, a := range sortedKeys(called) {
				if !granted[a] {
					t.Errorf("%s is not allowed, but the code needs it (in %s)", a, called[a])
				}
			}
			for _, a := range sortedKeys(granted) {
				if _, ok := called[a]; !ok {
					t.Errorf("%s is allowed, but the code never needs it", a)
				}
			}
		})
	}
}

// checkResources checks the resources one action is granted on: the table (and, for reads of
// many items, its index), its stream for the stream reads, the bucket and its objects for S3.
func checkResources(t *testing.T, action string, resources []node, table string, index node, buckets []string) {
	t.Helper()
	ok := func(r node) bool {
		switch {
		case action == "dynamodb:ListStreams":
			return reflect.DeepEqual(r, map[string]any{"Fn::Sub": "${" + table + ".Arn}/stream/*"})
		case slices.Contains(eventSourceActions, action):
			return reflect.DeepEqual(r, getAtt(table, "StreamArn"))
		case strings.HasPrefix(action, "dynamodb:"):
			if reflect.DeepEqual(r, index) {
				return action == "dynamodb:Query" || action == "dynamodb:Scan"
			}
			return reflect.DeepEqual(r, getAtt(table, "Arn"))
		case action == "s3:ListBucket":
			return slices.ContainsFunc(buckets, func(b string) bool { return reflect.DeepEqual(r, getAtt(b, "Arn")) })
		default: // object actions
			sub, _ := at(r, "Fn::Sub").(string)
			return slices.ContainsFunc(buckets, func(b string) bool { return strings.HasPrefix(sub, "${"+b+".Arn}/") })
		}
	}
	if len(resources) == 0 {
		t.Errorf("%s: no resource", action)
	}
	for _, r := range resources {
		if !ok(r) {
			t.Errorf("%s on %v: not this stack's table, index, stream or bucket as the action needs", action, r)
		}
	}
}

// streamEvent returns the function's DynamoDB stream event, nil when it has none.
func streamEvent(tpl map[string]any, fn string) node {
	events, _ := at(tpl, "Resources", fn, "Properties", "Events").(map[string]any)
	for _, e := range events {
		if at(e, "Type") == "DynamoDB" {
			return e
		}
	}
	return nil
}

// TestTemplate_FanOut: the fan-out reads the table's stream, reports the records it failed,
// halves failing batches, retries a bounded number of times and keeps what still fails in a
// queue: a poison record is kept, and the records behind it go on.
func TestTemplate_FanOut(t *testing.T) {
	tpl := loadTemplate(t)
	table := resourcesOfType(tpl, "AWS::DynamoDB::Table")[0]
	var found bool
	for _, fn := range resourcesOfType(tpl, "AWS::Serverless::Function") {
		e := streamEvent(tpl, fn)
		if e == nil {
			continue
		}
		found = true
		p := at(e, "Properties")
		if got := at(p, "Stream"); !reflect.DeepEqual(got, getAtt(table, "StreamArn")) {
			t.Errorf("%s reads %v, want the table's stream", fn, got)
		}
		if got := list(at(p, "FunctionResponseTypes")); !slices.Contains(got, any("ReportBatchItemFailures")) {
			t.Errorf("%s: FunctionResponseTypes %v, want ReportBatchItemFailures", fn, got)
		}
		if at(p, "BisectBatchOnFunctionError") != true {
			t.Errorf("%s: BisectBatchOnFunctionError %v, want true", fn, at(p, "BisectBatchOnFunctionError"))
		}
		if n, ok := at(p, "MaximumRetryAttempts").(int); !ok || n < 0 || n > 10 {
			t.Errorf("%s: MaximumRetryAttempts %v, want a bound of at most 10 (the default, -1, retries until the record expires)", fn, at(p, "MaximumRetryAttempts"))
		}
		dest := at(p, "DestinationConfig", "OnFailure")
		queue, _ := at(dest, "Destination", "Fn::GetAtt", 0).(string)
		if at(dest, "Type") != "SQS" || at(tpl, "Resources", queue, "Type") != "AWS::SQS::Queue" {
			t.Errorf("%s: on-failure destination %v, want an SQS queue of the stack", fn, dest)
		}
	}
	if !found {
		t.Fatal("no function reads the table's stream")
	}
}

// TestTemplate_API: the API function is behind an HTTP API (payload format 2.0), whose GraphQL
// URL is an output, and takes the auth issuer, audience and log level from the parameters.
func TestTemplate_API(t *testing.T) {
	tpl := loadTemplate(t)
	var api string
	for _, fn := range resourcesOfType(tpl, "AWS::Serverless::Function") {
		if at(tpl, "Resources", fn, "Properties", "Environment", "Variables", "QUICKPHOTOS_LAMBDA_HANDLER") == "api" {
			api = fn
		}
	}
	if api == "" {
		t.Fatal("no function serves the API")
	}
	var httpAPI string
	events, _ := at(tpl, "Resources", api, "Properties", "Events").(map[string]any)
	for _, e := range events {
		if at(e, "Type") == "HttpApi" {
			httpAPI, _ = at(e, "Properties", "ApiId", "Ref").(string)
			if v := at(e, "Properties", "PayloadFormatVersion"); v != "2.0" {
				t.Errorf("payload format %v, want 2.0", v)
			}
		}
	}
	if at(tpl, "Resources", httpAPI, "Type") != "AWS::Serverless::HttpApi" {
		t.Fatalf("%s has no HttpApi event on the stack's HTTP API", api)
	}
	url, _ := at(tpl, "Outputs", "ApiUrl", "Value", "Fn::Sub").(string)
	if !strings.Contains(url, "${"+httpAPI+"}") || !strings.HasSuffix(url, "/graphql") {
		t.Errorf("output ApiUrl %q: want the HTTP API's /graphql", url)
	}
	env := func(name string) node {
		if v := at(tpl, "Resources", api, "Properties", "Environment", "Variables", name); v != nil {
			return v
		}
		return at(tpl, "Globals", "Function", "Environment", "Variables", name)
	}
	for variable, param := range map[string]string{
		"QUICKPHOTOS_OIDC_ISSUER":   "AuthIssuer",
		"QUICKPHOTOS_OIDC_AUDIENCE": "AuthAudience",
		"QUICKPHOTOS_LOG_LEVEL":     "LogLevel",
	} {
		if got := env(variable); !reflect.DeepEqual(got, ref(param)) {
			t.Errorf("%s is %v, want the %s parameter", variable, got, param)
		}
		if at(tpl, "Parameters", param) == nil {
			t.Errorf("no %s parameter", param)
		}
	}
	if got := env("QUICKPHOTOS_TABLE"); !reflect.DeepEqual(got, ref(resourcesOfType(tpl, "AWS::DynamoDB::Table")[0])) {
		t.Errorf("QUICKPHOTOS_TABLE is %v, want the table", got)
	}
}

// functionFor returns the logical id of the function whose QUICKPHOTOS_LAMBDA_HANDLER is
// handler, "" when there is none.
func functionFor(tpl map[string]any, handler string) string {
	for _, fn := range resourcesOfType(tpl, "AWS::Serverless::Function") {
		if at(tpl, "Resources", fn, "Properties", "Environment", "Variables", "QUICKPHOTOS_LAMBDA_HANDLER") == handler {
			return fn
		}
	}
	return ""
}

// scheduleRate parses an EventBridge rate expression, rate(1 minute) or rate(5 minutes).
func scheduleRate(expr string) (time.Duration, bool) {
	m := regexp.MustCompile(`^rate\((\d+) (minute|hour|day)s?\)$`).FindStringSubmatch(expr)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	unit := map[string]time.Duration{"minute": time.Minute, "hour": time.Hour, "day": 24 * time.Hour}[m[2]]
	return time.Duration(n) * unit, n > 0
}

// TestTemplate_Sweep: the sweeps serve runs in the background run on Lambda from a schedule,
// as often as serve runs them (dynamo.DeletionSweepInterval, media.SweepInterval), each run
// ended by its timeout before the next begins; over the photos bucket, so that the images an
// unfinished upload left go too. The API's timeout is within the deletion lease, so the sweep
// never takes over a deletion an invocation of the API is still doing.
func TestTemplate_Sweep(t *testing.T) {
	tpl := loadTemplate(t)
	fn := functionFor(tpl, "sweep")
	if fn == "" {
		t.Fatal("no function runs the sweeps (QUICKPHOTOS_LAMBDA_HANDLER sweep)")
	}
	props := at(tpl, "Resources", fn, "Properties")
	var schedules []node
	events, _ := at(props, "Events").(map[string]any)
	for _, e := range events {
		if at(e, "Type") == "Schedule" {
			schedules = append(schedules, e)
		}
	}
	if len(schedules) != 1 || len(events) != 1 {
		t.Fatalf("%s: events %v, want one Schedule alone", fn, events)
	}
	expr, _ := at(schedules[0], "Properties", "Schedule").(string)
	every, ok := scheduleRate(expr)
	if !ok {
		t.Fatalf("%s: schedule %q, want a rate expression", fn, expr)
	}
	for sweep, interval := range map[string]time.Duration{"photo deletions": dynamo.DeletionSweepInterval, "expired uploads": media.SweepInterval} {
		if every != interval {
			t.Errorf("%s runs every %s; serve sweeps %s every %s", fn, every, sweep, interval)
		}
	}
	if enabled := at(schedules[0], "Properties", "Enabled"); enabled != nil && enabled != true {
		t.Errorf("%s: the schedule is not enabled (%v)", fn, enabled)
	}
	if timeout, _ := at(props, "Timeout").(int); timeout <= 10 || time.Duration(timeout)*time.Second >= every {
		t.Errorf("%s: timeout %v s, want more than 10 s and less than the schedule's %s", fn, at(props, "Timeout"), every)
	}
	if n := at(props, "EventInvokeConfig", "MaximumRetryAttempts"); n != 0 {
		t.Errorf("%s: MaximumRetryAttempts %v, want 0: the next run sweeps again", fn, n)
	}
	env := func(name string) node { return at(props, "Environment", "Variables", name) }
	bucket := resourcesOfType(tpl, "AWS::S3::Bucket")[0]
	if env("QUICKPHOTOS_MEDIA_STORE") != "s3" || !reflect.DeepEqual(env("QUICKPHOTOS_MEDIA_BUCKET"), ref(bucket)) {
		t.Errorf("%s: media store %v, bucket %v: want s3 and the photos bucket", fn, env("QUICKPHOTOS_MEDIA_STORE"), env("QUICKPHOTOS_MEDIA_BUCKET"))
	}
	api := functionFor(tpl, "api")
	if timeout, _ := at(tpl, "Resources", api, "Properties", "Timeout").(int); timeout == 0 || time.Duration(timeout)*time.Second >= dynamo.DeletionLease {
		t.Errorf("the API's timeout %v s is not within the deletion lease %s", at(tpl, "Resources", api, "Properties", "Timeout"), dynamo.DeletionLease)
	}
}

// TestTemplate_Bucket: the photos bucket is private and encrypted, browsers may POST uploads to
// it, and staged uploads expire.
func TestTemplate_Bucket(t *testing.T) {
	tpl := loadTemplate(t)
	buckets := resourcesOfType(tpl, "AWS::S3::Bucket")
	if len(buckets) != 1 {
		t.Fatalf("want one bucket, got %v", buckets)
	}
	p := at(tpl, "Resources", buckets[0], "Properties")
	for _, k := range []string{"BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"} {
		if at(p, "PublicAccessBlockConfiguration", k) != true {
			t.Errorf("PublicAccessBlockConfiguration.%s is %v, want true", k, at(p, "PublicAccessBlockConfiguration", k))
		}
	}
	if alg := at(p, "BucketEncryption", "ServerSideEncryptionConfiguration", 0, "ServerSideEncryptionByDefault", "SSEAlgorithm"); alg != "AES256" && alg != "aws:kms" {
		t.Errorf("encryption %v, want AES256 or aws:kms", alg)
	}
	var post bool
	for _, r := range list(at(p, "CorsConfiguration", "CorsRules")) {
		post = post || slices.Contains(list(at(r, "AllowedMethods")), any("POST"))
	}
	if !post {
		t.Errorf("CORS rules %v allow no browser POST", at(p, "CorsConfiguration"))
	}
	var expires bool
	for _, r := range list(at(p, "LifecycleConfiguration", "Rules")) {
		prefix := at(r, "Prefix")
		if prefix == nil {
			prefix = at(r, "Filter", "Prefix")
		}
		days, _ := at(r, "ExpirationInDays").(int)
		expires = expires || (at(r, "Status") == "Enabled" && prefix == stagingPrefix && days > 0)
	}
	if !expires {
		t.Errorf("no lifecycle rule expires %s: %v", stagingPrefix, at(p, "LifecycleConfiguration"))
	}
}

// TestTemplate_WebOriginsPattern: the origins parameter takes what both its readers read
// alike, the API (which trims spaces) and the bucket's CORS rule (which splits on commas and
// keeps them), and refuses a list with spaces. CloudFormation matches AllowedPattern against
// the whole value.
func TestTemplate_WebOriginsPattern(t *testing.T) {
	pattern, _ := at(loadTemplate(t), "Parameters", "WebOrigins", "AllowedPattern").(string)
	re, err := regexp.Compile("^(?:" + pattern + ")$")
	if err != nil || pattern == "" {
		t.Fatalf("WebOrigins' AllowedPattern %q: %v", pattern, err)
	}
	for value, want := range map[string]bool{
		"*":                       true,
		"https://app.example.com": true,
		"http://localhost:5173":   true,
		"https://a.example.com,https://b.example.com":  true,
		"https://a.example.com, https://b.example.com": false,
		" https://a.example.com":                       false,
		"https://a.example.com,":                       false,
		"app.example.com":                              false,
		"":                                             false,
	} {
		if got := re.MatchString(value); got != want {
			t.Errorf("WebOrigins %q accepted: %v, want %v", value, got, want)
		}
	}
}
