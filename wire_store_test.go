package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go/logging"

	"github.com/quickphotos/quickphotos/ddb"
	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/internal/testkit/procgroup"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
)

// TestStore_SDKClientsKeepTheirConnections: requests sent one after another to a DynamoDB
// endpoint on this machine share one connection per client, and the SDK has nothing to warn
// about. Go's transport closed the connection under nearly every response when the SDK's
// request body answered its last read with an error (see keepAliveClient): a new connection
// per request, and now and then the SDK's "failed to close HTTP response body … response did
// not match expected checksum" about a response cut short, in plain text among the JSON logs.
func TestStore_SDKClientsKeepTheirConnections(t *testing.T) {
	engine, err := ddb.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	var connections atomic.Int64
	srv := httptest.NewUnstartedServer(engine)
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			connections.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")

	var logs syncbuf.Buffer
	cfg := storeConfig{kind: storeDynamoDB, endpointURL: srv.URL, table: "keepalive",
		log: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	ctx := context.Background()
	opened, err := cfg.open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	store := dynamo.New(opened.client, cfg.table)
	if err := store.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	arn, err := store.StreamARN(ctx)
	if err != nil {
		t.Fatal(err)
	}
	connections.Store(0)

	const requests = 300
	for i := range requests {
		pk := &types.AttributeValueMemberS{Value: fmt.Sprintf("USER#u%d", i)}
		if _, err := opened.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: &cfg.table, Item: map[string]types.AttributeValue{
			"PK": pk, "SK": &types.AttributeValueMemberS{Value: "#METADATA#"}, "bio": &types.AttributeValueMemberS{Value: strings.Repeat("x", 2000)},
		}}); err != nil {
			t.Fatal(err)
		}
		if _, err := opened.client.Query(ctx, &dynamodb.QueryInput{TableName: &cfg.table,
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": pk},
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := opened.streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: &arn}); err != nil {
			t.Fatal(err)
		}
	}
	// One connection for the DynamoDB client and one for the Streams client, each kept.
	if n := connections.Load(); n > 2 {
		t.Errorf("%d requests in turn opened %d connections, want one per client (2)", 3*requests, n)
	}
	if strings.Contains(logs.String(), `"level":"WARN"`) {
		t.Errorf("the SDK warned:\n%s", logs.String())
	}
}

// TestStore_SDKLogsThroughTheServersLogger: the SDK clients of --store dynamodb log through the
// logger they are given, as JSON records at the SDK's level.
func TestStore_SDKLogsThroughTheServersLogger(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	var logs syncbuf.Buffer
	cfg := storeConfig{kind: storeDynamoDB, endpointURL: "http://127.0.0.1:1", table: "t",
		log: slog.New(slog.NewJSONHandler(&logs, nil))}
	opened, err := cfg.open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	loggers := map[string]logging.Logger{
		"dynamodb":        opened.client.(*dynamodb.Client).Options().Logger,
		"dynamodbstreams": opened.streams.(*dynamodbstreams.Client).Options().Logger,
	}
	for name, logger := range loggers {
		logger.Logf(logging.Warn, "failed to close HTTP response body: %s", name)
		lines := strings.Split(strings.TrimSuffix(logs.String(), "\n"), "\n")
		var record struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &record); err != nil {
			t.Fatalf("%s: the SDK's line is not a JSON record: %q (%v)", name, logs.String(), err)
		}
		if record.Level != "WARN" || record.Msg != "aws sdk: failed to close HTTP response body: "+name {
			t.Errorf("%s: logged %+v", name, record)
		}
	}
}

// TestStore_LoopbackEndpointStaysOnThisMachine runs commands whose AWS endpoints are all on
// loopback, `quickphotos check --store dynamodb --endpoint-url http://127.0.0.1:…` and `serve`
// with its photo files in an S3-compatible store at --media-endpoint-url or
// AWS_ENDPOINT_URL_S3 on loopback, with no AWS credentials or configuration at all, and
// AWS_EC2_METADATA_DISABLED unset, in a process whose HTTP traffic to anywhere but loopback
// goes through a proxy on loopback that records it: none may come. (The SDK's default
// credential chain ends with the EC2 instance metadata service, at 169.254.169.254; the proxy
// also keeps that request, should it come, from leaving the machine.) Under strace, the same
// run may connect() to no address but loopback, whether through the proxy or not.
func TestStore_LoopbackEndpointStaysOnThisMachine(t *testing.T) {
	_, endpoint := dynamoDBEndpoint(t)
	var mu sync.Mutex
	var attempted []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		attempted = append(attempted, r.Method+" "+r.Host+r.URL.Path)
		mu.Unlock()
		http.Error(w, "no traffic leaves this test", http.StatusBadGateway)
	}))
	t.Cleanup(proxy.Close)

	// run runs the command as a process of its own, under the command line wrap when given,
	// until it prints reached (check exits by itself; serve is stopped there).
	run := func(t *testing.T, command, reached string, env []string, wrap ...string) string {
		t.Helper()
		home := t.TempDir()
		args := append(wrap, os.Args[0], "-test.run=^$")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append([]string{
			"PATH=" + os.Getenv("PATH"),
			"HOME=" + home,
			"AWS_CONFIG_FILE=" + filepath.Join(home, "no-config"),
			"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(home, "no-credentials"),
			"HTTP_PROXY=" + proxy.URL, "HTTPS_PROXY=" + proxy.URL,
			runMainEnv + "=" + command,
		}, env...)
		// The whole group goes at the end: strace's tracee too.
		procgroup.Own(cmd)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var lines strings.Builder
		lineScanner := bufio.NewScanner(out)
		for lineScanner.Scan() {
			lines.WriteString(lineScanner.Text() + "\n")
			if strings.Contains(lineScanner.Text(), reached) {
				break
			}
		}
		cancel()
		_ = cmd.Wait()
		if !strings.Contains(lines.String(), reached) {
			t.Fatalf("%s did not get as far as %q: %s", command, reached, lines.String())
		}
		return lines.String()
	}
	serveS3 := "serve --in-memory --addr 127.0.0.1:0 --no-feed --media-store s3 --media-bucket photos"
	// Where the S3 endpoint listens does not matter: serve asks nothing of it before it
	// listens, but the SDK's credential chain runs first.
	s3Endpoint := "http://127.0.0.1:1"
	for _, tc := range []struct {
		name, command, reached string
		env                    []string
	}{
		// check's table is missing: only the traffic matters.
		{"flag", "check --store dynamodb --table missing --endpoint-url " + endpoint, "ResourceNotFoundException", nil},
		{"localhost", "check --store dynamodb --table missing --endpoint-url " + strings.Replace(endpoint, "127.0.0.1", "localhost", 1), "ResourceNotFoundException", nil},
		{"environment", "check --store dynamodb --table missing", "ResourceNotFoundException", []string{"AWS_ENDPOINT_URL_DYNAMODB=" + endpoint}},
		{"media-flag", serveS3 + " --media-endpoint-url " + s3Endpoint, "photo files: S3 bucket photos", nil},
		{"media-environment", serveS3, "photo files: S3 bucket photos", []string{"AWS_ENDPOINT_URL_S3=" + s3Endpoint}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := run(t, tc.command, tc.reached, tc.env)
			mu.Lock()
			defer mu.Unlock()
			if len(attempted) > 0 {
				t.Errorf("%s sent requests off this machine: %q (output: %s)", tc.command, attempted, out)
			}
			attempted = nil
		})
		t.Run(tc.name+"/connect", func(t *testing.T) {
			strace := testtools.Strace(t)
			trace := filepath.Join(t.TempDir(), "trace")
			run(t, tc.command, tc.reached, tc.env, strace, "-f", "-qq", "-e", "trace=connect", "-o", trace)
			data, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			connects := 0
			for _, m := range connectAddress.FindAllStringSubmatch(string(data), -1) {
				connects++
				a, err := netip.ParseAddr(m[1] + m[2])
				if err != nil || !a.Unmap().IsLoopback() {
					t.Errorf("%s connected to %s", tc.command, m[1]+m[2])
				}
			}
			if connects == 0 && strings.HasPrefix(tc.command, "check") {
				t.Fatalf("the trace shows no connect() to an IP address, not even the endpoint's:\n%s", data)
			}
		})
	}
}

// connectAddress finds the IP address of a connect() in strace's output:
// sin_addr=inet_addr("127.0.0.1") or inet_pton(AF_INET6, "::1", &sin6_addr).
var connectAddress = regexp.MustCompile(`inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"`)

func TestOnLoopback(t *testing.T) {
	for endpoint, want := range map[string]bool{
		"http://127.0.0.1:8000":  true,
		"http://127.1.2.3:8000":  true,
		"http://[::1]:8000":      true,
		"http://localhost:8000":  true,
		"http://LOCALHOST":       true,
		"":                       false,
		"127.0.0.1:8000":         false, // not a URL the SDK takes
		"http://10.0.0.5:8000":   false,
		"http://169.254.169.254": false,
		"https://dynamodb.us-east-1.amazonaws.com":      false,
		"http://localhost.example.com:8000":             false,
		"https://vpce-1a2b.dynamodb.us-east-1.vpce.aws": false,
	} {
		if got := onLoopback(endpoint); got != want {
			t.Errorf("onLoopback(%q) = %v, want %v", endpoint, got, want)
		}
	}
}
