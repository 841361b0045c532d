package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/dynamo/itemfile"
	"github.com/quickphotos/quickphotos/loaders"
	"github.com/quickphotos/quickphotos/stream"
)

func TestSample_Deterministic(t *testing.T) {
	a, b, c := runOK(t, "sample", "--users", "20", "--seed", "7"), runOK(t, "sample", "--users", "20", "--seed", "7"), runOK(t, "sample", "--users", "20", "--seed", "8")
	if a != b {
		t.Fatal("the same seed gave different datasets")
	}
	if a == c {
		t.Fatal("different seeds gave the same dataset")
	}
	if n := strings.Count(a, "\n"); n < 40 {
		t.Fatalf("only %d items for 20 users", n)
	}
}

func TestLoad_ThenServeReadsIt(t *testing.T) {
	dir := t.TempDir()
	items := filepath.Join(dir, "items.json")
	if err := os.WriteFile(items, []byte(runOK(t, "sample", "--users", "30")), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	out := runOK(t, "load", "--data", data, items)
	if !regexp.MustCompile(`^loaded \d+ items into quick-photos\n$`).MatchString(out) {
		t.Fatalf("load printed %q", out)
	}

	base := startServe(t, "--data", data, "--addr", "127.0.0.1:0")
	var got struct {
		Data struct {
			Users []*struct{ Username string }
		}
	}
	postJSON(t, base+"/graphql", `{"query":"{ users(usernames: [\"nobody\"]) { username } }"}`, &got)
	if len(got.Data.Users) != 1 || got.Data.Users[0] != nil {
		t.Fatalf("users %+v", got.Data.Users)
	}
	resp, err := http.Get(base + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("playground: %v %v", resp, err)
	}
	resp.Body.Close()
}

// TestLoad_KeepsTheTutorialsKeys loads items spelt as in the tutorial's items.json, whose
// timestamps have no zone: they are stored as they are, the API finds them by that spelling and
// by RFC 3339 with a zone, answers in the same form, and `check` finds nothing to report; an
// upload at the same instant is a conflict, not a second photo.
func TestLoad_KeepsTheTutorialsKeys(t *testing.T) {
	dir := t.TempDir()
	items := filepath.Join(dir, "items.json")
	tutorial := `{"PK": "USER#jacksonjason", "SK": "#METADATA#jacksonjason", "username": "jacksonjason", "name": "Jason", "followers": 0, "following": 1}
{"PK": "USER#ada", "SK": "#METADATA#ada", "username": "ada", "name": "Ada", "followers": 1, "following": 0}
{"PK": "USER#jacksonjason", "SK": "PHOTO#jacksonjason#2018-05-30T15:42:38", "username": "jacksonjason", "timestamp": "2018-05-30T15:42:38", "location": "https://example.com/1.jpg", "reactions": {"heart": 1}}
{"PK": "REACTION#ada#heart", "SK": "PHOTO#jacksonjason#2018-05-30T15:42:38", "reactingUser": "ada", "reactionType": "heart", "photo": "PHOTO#jacksonjason#2018-05-30T15:42:38", "timestamp": "2018-06-01T10:00:00"}
{"PK": "USER#ada", "SK": "#FRIEND#jacksonjason", "followedUser": "ada", "followingUser": "jacksonjason", "timestamp": "2018-06-02T10:00:00"}
`
	if err := os.WriteFile(items, []byte(tutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	runOK(t, "load", "--data", data, items)
	if out := runOK(t, "check", "--data", data); !strings.Contains(out, ": 0 problems") {
		t.Fatalf("check after loading the tutorial's items: %s", out)
	}
	base := startServe(t, "--data", data, "--addr", "127.0.0.1:0")

	for _, spelling := range []string{"2018-05-30T15:42:38", "2018-05-30T15:42:38Z", "2018-05-30T17:42:38+02:00"} {
		var got struct {
			Data struct {
				Photo *struct {
					Timestamp      string
					ReactionCounts struct{ Heart int }
					Reactions      struct {
						Edges []struct {
							Node struct {
								Timestamp string
								User      struct{ Username string }
							}
						}
					}
				}
			}
			Errors []any
		}
		query := `{ photo(owner: \"jacksonjason\", timestamp: \"` + spelling + `\") { timestamp reactionCounts { heart } reactions(first: 5) { edges { node { timestamp user { username } } } } } }`
		postJSON(t, base+"/graphql", `{"query":"`+query+`"}`, &got)
		p := got.Data.Photo
		if p == nil || len(got.Errors) > 0 {
			t.Fatalf("photo at %s: %+v %v", spelling, p, got.Errors)
		}
		if p.Timestamp != "2018-05-30T15:42:38" || p.ReactionCounts.Heart != 1 || len(p.Reactions.Edges) != 1 ||
			p.Reactions.Edges[0].Node.User.Username != "ada" || p.Reactions.Edges[0].Node.Timestamp != "2018-06-01T10:00:00" {
			t.Fatalf("photo at %s: %+v", spelling, p)
		}
	}

	var upload struct {
		Errors []struct {
			Extensions struct{ Code string }
		}
	}
	mutation := `mutation { uploadPhoto(input: {owner: \"jacksonjason\", url: \"https://example.com/2.jpg\", timestamp: \"2018-05-30T15:42:38Z\"}) { timestamp } }`
	postJSON(t, base+"/graphql", `{"query":"`+mutation+`"}`, &upload)
	if len(upload.Errors) != 1 || upload.Errors[0].Extensions.Code != "CONFLICT" {
		t.Fatalf("upload at the loaded photo's instant: %+v, want CONFLICT", upload.Errors)
	}
}

// TestMigrateTimestamps_EarlierReleasesTable: a table an earlier release wrote, its keys with a
// Z, fails `check`, naming the keys; `migrate timestamps` rewrites them, and a second run finds
// nothing to do; `check` then passes and the API reads the photo with its reaction.
func TestMigrateTimestamps_EarlierReleasesTable(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	engine, err := ddb.Open(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	store := dynamo.New(engine.API(), dynamo.DefaultTable)
	if err := store.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, item := range []string{
		`{"PK": "USER#ada", "SK": "#METADATA#ada", "username": "ada", "followers": 1, "following": 0}`,
		`{"PK": "USER#bob", "SK": "#METADATA#bob", "username": "bob", "followers": 0, "following": 1}`,
		`{"PK": "USER#ada", "SK": "PHOTO#ada#2019-03-03T18:20:10Z", "username": "ada", "timestamp": "2019-03-03T18:20:10Z", "location": "https://example.com/1.jpg", "reactions": {"heart": 1, "+1": 0, "smiley": 0, "sunglasses": 0}}`,
		`{"PK": "REACTION#bob#heart", "SK": "PHOTO#ada#2019-03-03T18:20:10Z", "reactingUser": "bob", "reactionType": "heart", "photo": "PHOTO#ada#2019-03-03T18:20:10Z", "timestamp": "2019-03-04T00:00:00Z"}`,
		`{"PK": "USER#ada", "SK": "#FRIEND#bob", "followedUser": "ada", "followingUser": "bob", "timestamp": "2019-03-01T00:00:00Z"}`,
	} {
		parsed, err := itemfile.NewItemReader(strings.NewReader(item)).Next()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.API().PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(dynamo.DefaultTable), Item: parsed}); err != nil {
			t.Fatal(err)
		}
	}
	if err := engine.Close(); err != nil {
		t.Fatal(err)
	}

	var stdout bytes.Buffer
	err = run(context.Background(), []string{"check", "--data", data}, &stdout, io.Discard)
	if err == nil || !strings.Contains(stdout.String(), "USER#ada PHOTO#ada#2019-03-03T18:20:10Z: key not in the canonical form") ||
		!strings.Contains(stdout.String(), "REACTION#bob#heart PHOTO#ada#2019-03-03T18:20:10Z: key not in the canonical form") ||
		!strings.Contains(stdout.String(), `USER#ada #FRIEND#bob: attribute timestamp "2019-03-01T00:00:00Z" not in the canonical form`) {
		t.Fatalf("check of an earlier release's table: %v\n%s", err, stdout.String())
	}
	if out := runOK(t, "migrate", "timestamps", "--data", data); !strings.Contains(out, "moved 1 friendships, 1 photos, 1 reactions; left 0") {
		t.Fatalf("migrate printed %q", out)
	}
	if out := runOK(t, "migrate", "timestamps", "--data", data); !strings.Contains(out, "moved nothing; left 0") {
		t.Fatalf("a second migrate printed %q", out)
	}
	if out := runOK(t, "check", "--data", data); !strings.Contains(out, ": 0 problems") {
		t.Fatalf("check after the migration: %s", out)
	}
	base := startServe(t, "--data", data, "--addr", "127.0.0.1:0")
	var got struct {
		Data struct {
			Photo *struct {
				Timestamp      string
				ReactionCounts struct{ Heart int }
			}
		}
	}
	postJSON(t, base+"/graphql", `{"query":"{ photo(owner: \"ada\", timestamp: \"2019-03-03T18:20:10Z\") { timestamp reactionCounts { heart } } }"}`, &got)
	if p := got.Data.Photo; p == nil || p.Timestamp != "2019-03-03T18:20:10" || p.ReactionCounts.Heart != 1 {
		t.Fatalf("the migrated photo: %+v", p)
	}
}

func TestLoad_BadLineSaysWhereAndHowMuchWasWritten(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "items.json")
	body := `{"PK": "USER#a", "SK": "#METADATA#a", "username": "a"}
{"PK": "USER#b", "SK": "#METADATA#b", "username": "b"}
{"PK": "USER#c", "SK": "#METADATA#c", "username": }
`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"load", "--data", filepath.Join(dir, "data"), file}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "2 items") {
		t.Fatalf("err %v, want line 3 and 2 items written", err)
	}
}

// TestLoad_RefusesWhatDynamoDBRefuses: items DynamoDB would refuse are refused at their own
// line, the items before them are written, and what was written reads back as it was loaded.
func TestLoad_RefusesWhatDynamoDBRefuses(t *testing.T) {
	good := `{"PK": "USER#a", "SK": "#METADATA#a", "username": "a"}
{"PK": {"S": "USER#b"}, "SK": {"S": "#METADATA#b"}, "tags": {"SS": ["x", "y"]}}
`
	for _, tc := range []struct{ name, bad, says string }{
		{"empty string set", `{"PK": {"S": "USER#c"}, "SK": {"S": "#METADATA#c"}, "tags": {"SS": []}}`, "may not be empty"},
		{"empty attribute name", `{"PK": "USER#c", "SK": "#METADATA#c", "": "x"}`, "Empty attribute name"},
		{"duplicate set members", `{"PK": {"S": "USER#c"}, "SK": {"S": "#METADATA#c"}, "n": {"NS": ["1", "1.00"]}}`, "duplicates"},
		{"number out of range", `{"PK": "USER#c", "SK": "#METADATA#c", "n": 1e200}`, "Number overflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "items.json")
			if err := os.WriteFile(file, []byte(good+tc.bad+"\n"+`{"PK": "USER#d", "SK": "#METADATA#d"}`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			data := filepath.Join(dir, "data")
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), []string{"load", "--data", data, file}, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), "line 3:") || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "2 items before it were written") {
				t.Fatalf("load: %v; want line 3 refused (%q) after 2 items written", err, tc.says)
			}
			exported := scanTable(t, data)
			want := `{"PK":"USER#a","SK":"#METADATA#a","username":"a"}
{"PK":{"S":"USER#b"},"SK":{"S":"#METADATA#b"},"tags":{"SS":["x","y"]}}
`
			if exported != want {
				t.Fatalf("the table holds\n%s\nwant\n%s", exported, want)
			}
		})
	}
}

// TestServe_SecondServerOnTheSameDataSaysWhy: a second server on a data directory that a
// running one holds stops at once, naming the file and the likely cause.
func TestServe_SecondServerOnTheSameDataSaysWhy(t *testing.T) {
	data := t.TempDir()
	startServe(t, "--data", data, "--addr", "127.0.0.1:0")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"serve", "--data", data, "--addr", "127.0.0.1:0"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(data, ddb.FileName)) || !strings.Contains(err.Error(), "another") {
		t.Fatalf("second serve: %v, want an error naming the data file and another process", err)
	}
}

// TestServe_SampleSaysWhatItDid: --sample loads the sample into an empty table and says so;
// on a table with data it says why it loaded nothing. The start-up line names the data
// directory in full.
func TestServe_SampleSaysWhatItDid(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	data := filepath.Join(dir, "data")
	serveSample := func() string {
		lines, stop := startStoppable(t, "GraphiQL at", "serve", "--data", "data", "--addr", "127.0.0.1:0", "--sample", "--sample-users", "5")
		stop()
		return strings.Join(lines, "")
	}
	first := serveSample()
	if !regexp.MustCompile(`loaded the sample dataset: \d+ items`).MatchString(first) {
		t.Errorf("first start printed %q, want the sample loaded", first)
	}
	if !strings.Contains(first, "(store: embedded, data in "+data+", table: quick-photos)") {
		t.Errorf("first start printed %q, want the data directory in full", first)
	}
	second := serveSample()
	if !strings.Contains(second, "has data already, so the sample was not loaded") {
		t.Errorf("second start printed %q, want why the sample was not loaded", second)
	}
}

func TestTableCreate_Idempotent(t *testing.T) {
	data := t.TempDir()
	for i := 0; i < 2; i++ {
		if out := runOK(t, "table", "create", "--data", data); !strings.Contains(out, "ready") {
			t.Fatalf("run %d printed %q", i, out)
		}
	}
}

// TestServe_DynamoDBStore runs serve against a DynamoDB endpoint (the engine over loopback
// HTTP): without the table it stops with a hint; with --create-table it creates it and serves.
func TestServe_DynamoDBStore(t *testing.T) {
	_, endpoint := dynamoDBEndpoint(t)

	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := run(ctx, []string{"serve", "--store", "dynamodb", "--endpoint-url", endpoint, "--addr", "127.0.0.1:0"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), "--create-table") {
		t.Fatalf("err %v: want a missing-table error with a hint", err)
	}

	t.Setenv("QUICKPHOTOS_ENDPOINT_URL", endpoint) // flags have environment variables
	base := startServe(t, "--store", "dynamodb", "--create-table", "--addr", "127.0.0.1:0")
	var got struct {
		Data struct {
			CreateUser struct{ Username string }
		}
	}
	postJSON(t, base+"/graphql", `{"query":"mutation { createUser(input: {username: \"zed\"}) { username } }"}`, &got)
	if got.Data.CreateUser.Username != "zed" {
		t.Fatalf("createUser %+v", got)
	}
}

func TestUnknownCommandAndBadEnv(t *testing.T) {
	if err := run(context.Background(), []string{"frobnicate"}, io.Discard, io.Discard); err == nil {
		t.Fatal("unknown command accepted")
	}
	for _, wait := range []string{"-5ms", "2s"} {
		err := run(context.Background(), []string{"serve", "--batch-wait", wait}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "--batch-wait") {
			t.Errorf("--batch-wait %s: err %v, want one naming --batch-wait", wait, err)
		}
	}
	t.Setenv("QUICKPHOTOS_SAMPLE", "maybe")
	err := run(context.Background(), []string{"serve"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "QUICKPHOTOS_SAMPLE") {
		t.Fatalf("err %v, want one naming QUICKPHOTOS_SAMPLE", err)
	}
}

// runOK runs a command and returns its standard output, failing the test on error.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("quickphotos %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// startServe runs `quickphotos serve args…` until the test ends and returns the base URL it
// printed for GraphiQL.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	lines := startCommand(t, "GraphiQL at", append([]string{"serve"}, args...)...)
	return regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(lines[len(lines)-1])
}

// startCommand runs a long-running command until the test ends and returns what it printed
// up to the line containing ready.
func startCommand(t *testing.T, ready string, args ...string) []string {
	t.Helper()
	lines, stop := startStoppable(t, ready, args...)
	t.Cleanup(stop)
	return lines
}

// startStoppable runs a long-running command until stop is called and returns what it
// printed up to the line containing ready. stop waits for the command to end and fails the
// test if it ended with an error.
func startStoppable(t *testing.T, ready string, args ...string) (lines []string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, pw, io.Discard)
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	stop = sync.OnceFunc(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", args[0], err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("%s did not stop", args[0])
		}
	})
	r := bufio.NewReader(pr)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			stop()
			t.Fatalf("%s stopped printing before %q: %v (printed %q)", args[0], ready, err, lines)
		}
		lines = append(lines, line)
		if strings.Contains(line, ready) {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return lines, stop
}

// TestDynamoDBEndpoints: the engine's DynamoDB API over HTTP, alone (`quickphotos dynamodb`) and
// beside the GraphQL server (`serve --dynamodb-listen`), answers an ordinary SDK client.
func TestDynamoDBEndpoints(t *testing.T) {
	alone := startCommand(t, "DynamoDB API at", "dynamodb", "--listen", "127.0.0.1:0", "--data", t.TempDir())
	beside := startCommand(t, "GraphiQL at", "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--dynamodb-listen", "127.0.0.1:0")
	for name, tc := range map[string]struct {
		line      string
		wantTable bool
	}{"alone": {alone[0], false}, "beside serve": {beside[0], true}} {
		endpoint := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(tc.line)
		client := dynamodb.New(dynamodb.Options{
			Region: "us-east-1", BaseEndpoint: &endpoint,
			Credentials: credentials.NewStaticCredentialsProvider("any", "any", ""),
		})
		out, err := client.ListTables(context.Background(), &dynamodb.ListTablesInput{})
		if err != nil {
			t.Fatalf("%s: ListTables at %q: %v", name, endpoint, err)
		}
		if got := len(out.TableNames) == 1 && out.TableNames[0] == "quick-photos"; got != tc.wantTable {
			t.Errorf("%s: tables %v", name, out.TableNames)
		}
	}
}

// TestInMemory: with --in-memory, `quickphotos dynamodb` and `serve` keep the engine's data in
// memory only: the API works, the sample data is there, and the data directory is never created.
func TestInMemory(t *testing.T) {
	for name, tc := range map[string]struct {
		ready string
		args  []string
	}{
		"dynamodb":     {"DynamoDB API", []string{"dynamodb", "--listen", "127.0.0.1:0", "--in-memory"}},
		"serve sample": {"GraphiQL at", []string{"serve", "--addr", "127.0.0.1:0", "--in-memory", "--sample", "--dynamodb-listen", "127.0.0.1:0"}},
	} {
		t.Run(name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			lines := strings.Join(startCommand(t, tc.ready, append(tc.args, "--data", data)...), "")
			if !strings.Contains(lines, "in memory only") {
				t.Errorf("start-up lines do not say the data is in memory only: %q", lines)
			}
			endpoint := regexp.MustCompile(`DynamoDB API[^\n]* at (http://127\.0\.0\.1:\d+)`).FindStringSubmatch(lines)[1]
			client := dynamodb.New(dynamodb.Options{
				Region: "us-east-1", BaseEndpoint: &endpoint,
				Credentials: credentials.NewStaticCredentialsProvider("any", "any", ""),
			})
			store := dynamo.New(client, dynamo.DefaultTable)
			if err := store.CreateTable(t.Context()); err != nil {
				t.Fatal(err)
			}
			out, err := client.Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String(dynamo.DefaultTable), Select: types.SelectCount})
			if err != nil {
				t.Fatal(err)
			}
			if wantSample := tc.args[0] == "serve"; (out.Count > 0) != wantSample {
				t.Errorf("%d items in the table; sample data expected: %v", out.Count, wantSample)
			}
			if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("--in-memory touched the data directory %s: %v", data, err)
			}
		})
	}
	err := run(t.Context(), []string{"serve", "--store", "dynamodb", "--in-memory", "--addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--in-memory") {
		t.Errorf("serve --store dynamodb --in-memory: err = %v, want one naming --in-memory", err)
	}
}

func postJSON(t *testing.T, url, body string, v any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// scanTable reads every item of the table in the embedded store at data and writes them as
// `quickphotos load` reads them, one a line, in the engine's key order.
func scanTable(t *testing.T, data string) string {
	t.Helper()
	engine, err := ddb.Open(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	out, err := engine.Client().Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String(dynamo.DefaultTable), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, item := range out.Items {
		if err := itemfile.WriteItemJSON(&buf, item); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

func TestBatchWait_ByStoreUnlessGiven(t *testing.T) {
	for _, tc := range []struct {
		flag time.Duration
		kind string
		want time.Duration
	}{
		{0, storeEmbedded, embeddedBatchWait},
		{0, storeDynamoDB, loaders.DefaultWait},
		{3 * time.Millisecond, storeEmbedded, 3 * time.Millisecond},
		{3 * time.Millisecond, storeDynamoDB, 3 * time.Millisecond},
	} {
		if got, err := batchWait(tc.flag, tc.kind); err != nil || got != tc.want {
			t.Errorf("batchWait(%s, %s) = %s, %v; want %s", tc.flag, tc.kind, got, err, tc.want)
		}
	}
}

func TestStreamPoll_ByStoreUnlessGiven(t *testing.T) {
	embedded, dynamoDB := &openedStore{engine: new(ddb.Engine)}, &openedStore{}
	for _, tc := range []struct {
		store *openedStore
		flag  time.Duration
		want  time.Duration
	}{
		{embedded, 0, embeddedStreamPoll},
		{dynamoDB, 0, stream.DefaultPoll},
		{embedded, time.Second, time.Second},
		{dynamoDB, 20 * time.Millisecond, 20 * time.Millisecond},
	} {
		if got := tc.store.pollOf(tc.flag); got != tc.want {
			t.Errorf("pollOf(%s) on engine %v = %s, want %s", tc.flag, tc.store.engine != nil, got, tc.want)
		}
	}
}
