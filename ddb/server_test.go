package ddb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// startServer serves env's engine on a free loopback port with opts until the test ends.
func startServer(t *testing.T, env *testEnv, opts wire.ServerOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := env.e.NewServer(opts)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// putItemBody is a PutItem request body of exactly size bytes (padding the item's x).
func putItemBody(size int) []byte {
	head := `{"TableName":"tbl","Item":{"PK":{"S":"big"},"x":{"S":"`
	tail := `"}}}`
	return []byte(head + strings.Repeat("a", size-len(head)-len(tail)) + tail)
}

// post sends a PutItem of body (size -1: chunked) and returns the status and the error body's
// __type and message.
func post(t *testing.T, url string, body io.Reader, size int64) (status int, typ, msg string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size // -1: chunked
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.PutItem")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	out, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(out, &e)
	return resp.StatusCode, e.Type, e.Message
}

// TestServer_RequestSizeLimit: a body over 16 MiB is refused with 413 whether its length is
// declared or not, and writes nothing; one of exactly 16 MiB is read and judged on its item.
func TestServer_RequestSizeLimit(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	url := startServer(t, env, wire.ServerOptions{})
	tests := []struct {
		name    string
		size    int
		chunked bool
		status  int
		typ     string
	}{
		{"OverTheLimit", MaxRequestBytes + 1, false, http.StatusRequestEntityTooLarge, "com.amazon.coral.service#RequestEntityTooLargeException"},
		{"OverTheLimitChunked", MaxRequestBytes + 1, true, http.StatusRequestEntityTooLarge, "com.amazon.coral.service#RequestEntityTooLargeException"},
		{"AtTheLimit", MaxRequestBytes, false, http.StatusBadRequest, wire.ErrorNamespace + engine.TypeValidation}, // the item is over 400 KB
		{"AtTheLimitChunked", MaxRequestBytes, true, http.StatusBadRequest, wire.ErrorNamespace + engine.TypeValidation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := putItemBody(tt.size)
			var r io.Reader = bytes.NewReader(body)
			size := int64(len(body))
			if tt.chunked {
				r, size = io.MultiReader(r), -1 // hides the length from net/http
			}
			status, typ, msg := post(t, url, r, size)
			if status != tt.status || typ != tt.typ {
				t.Fatalf("status %d %s, want %d %s", status, typ, tt.status, tt.typ)
			}
			if status == http.StatusRequestEntityTooLarge && !strings.Contains(msg, "maximum allowed size of 16777216 bytes") {
				t.Fatalf("message %q does not give the limit", msg)
			}
			out, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("PK", s("big"))})
			if err != nil || out.Item != nil {
				t.Fatalf("after a refused request: %v %v", out.Item, err)
			}
			if !env.e.wire.TryReserveBodies(DefaultRequestMemory) {
				t.Fatal("the refused request still holds body memory")
			}
		})
	}
}

// TestServer_CutsSlowBodies: a client that sends headers and then its body slowly is cut off
// by the read timeout instead of holding its connection.
func TestServer_CutsSlowBodies(t *testing.T) {
	env := mustOpen(t)
	url := startServer(t, env, wire.ServerOptions{ReadTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 1000\r\n\r\n{")
	// The server answers (an error for the cut body) and closes, or just closes; either way
	// the connection ends long before the bound below.
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err = io.ReadAll(bufio.NewReader(conn))
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server kept a slow body's connection open")
	}
}

// TestServeHTTP_GivesBodyMemoryBack: after requests that succeed and fail, the engine holds no
// body memory.
func TestServeHTTP_GivesBodyMemoryBack(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	env.Put("tbl", item("PK", s("a")))
	if _, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", n("1"))}); err == nil {
		t.Fatal("a key of the wrong type was accepted")
	}
	if !env.e.wire.TryReserveBodies(DefaultRequestMemory) {
		t.Fatal("requests that ended still hold body memory")
	}
}

// TestNewServer_Timeouts: every engine listener gets the header, body, write and idle timeouts,
// the defaults unless overridden: a server without them keeps slow clients forever.
func TestNewServer_Timeouts(t *testing.T) {
	env := mustOpen(t)
	got := func(srv *http.Server) wire.ServerOptions {
		return wire.ServerOptions{ReadHeaderTimeout: srv.ReadHeaderTimeout, ReadTimeout: srv.ReadTimeout, WriteTimeout: srv.WriteTimeout, IdleTimeout: srv.IdleTimeout}
	}
	d := wire.DefaultServerOptions
	if d.ReadHeaderTimeout <= 0 || d.ReadTimeout <= 0 || d.WriteTimeout <= 0 || d.IdleTimeout <= 0 {
		t.Fatalf("a default timeout is unset: %+v", d)
	}
	if g := got(env.e.NewServer(wire.ServerOptions{})); g != d {
		t.Errorf("defaults: %+v, want %+v", g, d)
	}
	want := d
	want.ReadTimeout = time.Second
	if g := got(env.e.NewServer(wire.ServerOptions{ReadTimeout: time.Second})); g != want {
		t.Errorf("with ReadTimeout set: %+v, want %+v", g, want)
	}
}
