package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/quickphotos/quickphotos/internal/testkit/jstools"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// The access keys of the keys file the tests' DynamoDB listeners are given.
type accessKey struct{ id, secret string }

var (
	writerKey  = accessKey{"AKIDQUICKWRITER", "writer-secret-0123456789abcdef"}
	readerKey  = accessKey{"AKIDQUICKREADER", "reader-secret-0123456789abcdef"}
	unknownKey = accessKey{"AKIDSTRANGER", writerKey.secret}
	wrongKey   = accessKey{writerKey.id, "not-the-writer-secret-0123456789"}
)

// writeKeysFile writes the writer's key and the reader's, read-only, to a file only its owner
// may read.
func writeKeysFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dynamodb-keys")
	text := fmt.Sprintf("# the tests' keys\n%s %s\n%s %s read-only\n", writerKey.id, writerKey.secret, readerKey.id, readerKey.secret)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startKeyedDynamoDB runs `quickphotos dynamodb` in memory with the keys file, on loopback
// (where keys, once given, are required as anywhere), and returns its endpoint.
func startKeyedDynamoDB(t *testing.T) string {
	t.Helper()
	lines := startCommand(t, "DynamoDB API at", "dynamodb", "--listen", "127.0.0.1:0", "--in-memory", "--dynamodb-keys", writeKeysFile(t))
	if !strings.Contains(lines[len(lines)-1], "signed by one of 2 access keys (1 read-only)") {
		t.Fatalf("the start-up line does not say how requests are authenticated: %q", lines)
	}
	return regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(lines[len(lines)-1])
}

// TestDynamoDBListen_RefusedWithoutKeys: the DynamoDB listener, alone or beside serve, does
// not start on an address other hosts reach without keys, nor with a keys file others may
// read, and says why.
func TestDynamoDBListen_RefusedWithoutKeys(t *testing.T) {
	open := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(open, []byte(writerKey.id+" "+writerKey.secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"dynamodb on every interface", []string{"dynamodb", "--in-memory", "--listen", "0.0.0.0:0"}, "refusing to serve the DynamoDB API on 0.0.0.0:0 (--listen) without authentication"},
		{"dynamodb on an unnamed host", []string{"dynamodb", "--in-memory", "--listen", ":0"}, "without authentication: give --dynamodb-keys"},
		{"serve's listener on every interface", []string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--dynamodb-listen", "0.0.0.0:0"}, "(--dynamodb-listen) without authentication"},
		{"serve's listener beside an authenticated API", []string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--jwt-secret", strings.Repeat("s", 32), "--dynamodb-listen", "[::]:0"}, "without authentication"},
		{"a keys file others may read", []string{"dynamodb", "--in-memory", "--listen", "127.0.0.1:0", "--dynamodb-keys", open}, "chmod 600"},
		{"keys without the listener", []string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--dynamodb-keys", writeKeysFile(t)}, "give both, or neither"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(t.Context(), tc.args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestDynamoDBListen_Keys: with --dynamodb-keys (or QUICKPHOTOS_DYNAMODB_KEYS), the listener
// of `quickphotos dynamodb` and of `serve --dynamodb-listen` serves the Go SDK signing with a
// configured key and refuses an unknown one.
func TestDynamoDBListen_Keys(t *testing.T) {
	alone := startKeyedDynamoDB(t)
	t.Setenv("QUICKPHOTOS_DYNAMODB_KEYS", writeKeysFile(t))
	lines := startCommand(t, "GraphiQL at", "serve", "--addr", "127.0.0.1:0", "--in-memory", "--dynamodb-listen", "127.0.0.1:0")
	beside := regexp.MustCompile(`DynamoDB API[^\n]* at (http://127\.0\.0\.1:\d+) \(requests signed by one of 2 access keys`).FindStringSubmatch(strings.Join(lines, ""))
	if beside == nil {
		t.Fatalf("serve does not say its DynamoDB listener checks signatures: %q", lines)
	}
	for name, endpoint := range map[string]string{"alone": alone, "beside serve": beside[1]} {
		if _, err := goClient(endpoint, writerKey).ListTables(t.Context(), &dynamodb.ListTablesInput{}); err != nil {
			t.Errorf("%s: ListTables with a configured key: %v", name, err)
		}
		_, err := goClient(endpoint, unknownKey).ListTables(t.Context(), &dynamodb.ListTablesInput{})
		if ae, ok := errors.AsType[smithy.APIError](err); !ok || ae.ErrorCode() != "UnrecognizedClientException" {
			t.Errorf("%s: ListTables with an unknown key: %v, want UnrecognizedClientException", name, err)
		}
	}
}

func goClient(endpoint string, key accessKey) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region: "eu-west-1", BaseEndpoint: &endpoint, RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider(key.id, key.secret, ""),
	})
}

// dynamoDBClient runs one operation (its API name, its input as the API's JSON) with a real
// client process signing with key, and returns the exception it reports ("" on success).
type dynamoDBClient func(t *testing.T, key accessKey, operation, input string) (exception string)

// checkClient runs the scenario every client goes through against the keyed listener at
// endpoint: the
// writer creates a table and writes, the read-only key reads and is refused a write, a wrong
// secret and an unknown key are refused; the table then holds the writer's one item.
func checkClient(t *testing.T, endpoint string, client dynamoDBClient) {
	const createTable = `{"TableName":"photos","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}]}`
	steps := []struct {
		name      string
		key       accessKey
		operation string
		input     string
		want      string
	}{
		{"the writer creates a table", writerKey, "CreateTable", createTable, ""},
		{"the writer writes", writerKey, "PutItem", `{"TableName":"photos","Item":{"PK":{"S":"p1"}}}`, ""},
		{"the reader reads", readerKey, "GetItem", `{"TableName":"photos","Key":{"PK":{"S":"p1"}}}`, ""},
		{"the reader may not write", readerKey, "PutItem", `{"TableName":"photos","Item":{"PK":{"S":"p2"}}}`, "AccessDeniedException"},
		{"a wrong secret", wrongKey, "PutItem", `{"TableName":"photos","Item":{"PK":{"S":"p3"}}}`, "InvalidSignatureException"},
		{"an unknown key", unknownKey, "PutItem", `{"TableName":"photos","Item":{"PK":{"S":"p4"}}}`, "UnrecognizedClientException"},
		{"the writer lists tables", writerKey, "ListTables", `{}`, ""},
	}
	for _, step := range steps {
		if got := client(t, step.key, step.operation, step.input); got != step.want {
			t.Fatalf("%s (%s): exception %q, want %q", step.name, step.operation, got, step.want)
		}
	}
	out, err := goClient(endpoint, writerKey).Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String("photos"), Select: types.SelectCount})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 1 {
		t.Fatalf("%d items in the table, want the writer's 1", out.Count)
	}
}

// clientEnv is the environment of a client process signing with key: the test's own, less
// every AWS_ and proxy variable, with the key, a region, no configuration files, no instance
// metadata service and no retries, so that the client contacts nothing but the endpoint it is
// given and fails at once.
func clientEnv(t *testing.T, key accessKey) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "AWS_") || strings.HasSuffix(strings.ToLower(name), "_proxy") {
			continue
		}
		env = append(env, kv)
	}
	none := filepath.Join(t.TempDir(), "none")
	return append(env,
		"AWS_ACCESS_KEY_ID="+key.id, "AWS_SECRET_ACCESS_KEY="+key.secret,
		"AWS_REGION=eu-west-1", "AWS_DEFAULT_REGION=eu-west-1",
		"AWS_CONFIG_FILE="+none, "AWS_SHARED_CREDENTIALS_FILE="+none,
		"AWS_EC2_METADATA_DISABLED=true", "AWS_MAX_ATTEMPTS=1", "AWS_RETRY_MODE=standard", "AWS_PAGER=",
		"NO_PROXY=*", "no_proxy=*")
}

// scriptClient runs tools/aws-clients' script with interpreter; the script prints
// {"error": exception} and exits 1 when refused.
func scriptClient(endpoint, interpreter, script string) dynamoDBClient {
	return func(t *testing.T, key accessKey, operation, input string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), interpreter, script, endpoint, operation, input)
		cmd.Env = clientEnv(t, key)
		out, err := cmd.Output()
		var result struct {
			Error string `json:"error"`
		}
		if jerr := json.Unmarshal(out, &result); jerr != nil {
			t.Fatalf("%s %s: %v, printed %q (%v)", filepath.Base(script), operation, err, out, stderrOf(err))
		}
		if (err == nil) != (result.Error == "") {
			t.Fatalf("%s %s: exit %v with %q", filepath.Base(script), operation, err, out)
		}
		return result.Error
	}
}

func stderrOf(err error) string {
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return string(ee.Stderr)
	}
	return ""
}

// awsClientsDir is tools/aws-clients in the module root (the package main tests run there).
const awsClientsDir = "tools/aws-clients"

// TestDynamoDBListen_AWSCLI: the AWS CLI, signing with the keys of its environment, against a
// keyed `quickphotos dynamodb`.
func TestDynamoDBListen_AWSCLI(t *testing.T) {
	const env, hint = "QUICKPHOTOS_REQUIRE_AWS_CLI", "apt-get install awscli"
	aws, err := exec.LookPath("aws")
	if err == nil {
		err = exec.Command(aws, "--version").Run()
	}
	if err != nil {
		testtools.Missing(t, env, "the AWS CLI", hint, err)
	}
	endpoint := startKeyedDynamoDB(t)
	kebab := regexp.MustCompile(`([a-z])([A-Z])`)
	checkClient(t, endpoint, func(t *testing.T, key accessKey, operation, input string) string {
		t.Helper()
		command := strings.ToLower(kebab.ReplaceAllString(operation, "$1-$2"))
		cmd := exec.CommandContext(t.Context(), aws, "dynamodb", command, "--cli-input-json", input,
			"--endpoint-url", endpoint, "--region", "eu-west-1", "--output", "json")
		cmd.Env = clientEnv(t, key)
		out, err := cmd.CombinedOutput()
		if err == nil {
			return ""
		}
		m := regexp.MustCompile(`An error occurred \((\w+)\) when calling the \w+ operation`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("aws dynamodb %s: %v\n%s", command, err, out)
		}
		return string(m[1])
	})
}

// TestDynamoDBListen_Boto3: boto3 (tools/aws-clients/dynamodb.py) against a keyed
// `quickphotos dynamodb`.
func TestDynamoDBListen_Boto3(t *testing.T) {
	python := testtools.Boto3Python(t)
	endpoint := startKeyedDynamoDB(t)
	checkClient(t, endpoint, scriptClient(endpoint, python, filepath.Join(awsClientsDir, "dynamodb.py")))
}

// TestDynamoDBListen_JavaScriptSDK: the AWS SDK for JavaScript v3 (tools/aws-clients/dynamodb.mjs)
// against a keyed `quickphotos dynamodb`.
func TestDynamoDBListen_JavaScriptSDK(t *testing.T) {
	node, script := jstools.AWSClients.Script(t, "dynamodb.mjs")
	endpoint := startKeyedDynamoDB(t)
	checkClient(t, endpoint, scriptClient(endpoint, node, script))
}
