package ddb

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// startServer serves env's engine on a free loopback port with opts until the test ends.
func startServer(t *testing.T, env *testEnv, opts ServerOptions) string {
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
	env.createTable("tbl", false)
	url := startServer(t, env, ServerOptions{})
	tests := []struct {
		name    string
		size    int
		chunked bool
		status  int
		typ     string
	}{
		{"OverTheLimit", MaxRequestBytes + 1, false, http.StatusRequestEntityTooLarge, "com.amazon.coral.service#RequestEntityTooLargeException"},
		{"OverTheLimitChunked", MaxRequestBytes + 1, true, http.StatusRequestEntityTooLarge, "com.amazon.coral.service#RequestEntityTooLargeException"},
		{"AtTheLimit", MaxRequestBytes, false, http.StatusBadRequest, errorNamespace + typeValidation}, // the item is over 400 KB
		{"AtTheLimitChunked", MaxRequestBytes, true, http.StatusBadRequest, errorNamespace + typeValidation},
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
			if !env.e.bodies.tryReserve(DefaultRequestMemory) {
				t.Fatal("the refused request still holds body memory")
			}
		})
	}
}

// TestServer_CutsSlowBodies: a client that sends headers and then its body slowly is cut off
// by the read timeout instead of holding its connection.
func TestServer_CutsSlowBodies(t *testing.T) {
	env := mustOpen(t)
	url := startServer(t, env, ServerOptions{ReadTimeout: 200 * time.Millisecond})
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

// TestBodyBudget: bodies in flight never hold more than the budget; a request waits for its
// share, gives up when its context ends, and every request gives its share back.
func TestBodyBudget(t *testing.T) {
	const budget = unknownLengthReserve // the smallest budget there is
	b := newBodyBudget(1)
	req := func(ctx context.Context, size int64) *http.Request {
		r, _ := http.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader(make([]byte, size)))
		return r
	}
	var releases []func()
	for _, size := range []int64{MaxRequestBytes, MaxRequestBytes, budget - 2*MaxRequestBytes} {
		_, release, err := b.read(httptest.NewRecorder(), req(context.Background(), size))
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	if b.tryReserve(1) {
		t.Fatal("bodies filling the budget left room")
	}

	// Another waits, and gives up with its context.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := b.read(httptest.NewRecorder(), req(ctx, 1)); err == nil {
		t.Fatal("a body was read beyond the budget")
	}

	// Once one is released, the waiting one gets its share.
	done := make(chan error, 1)
	go func() {
		_, release, err := b.read(httptest.NewRecorder(), req(context.Background(), MaxRequestBytes))
		if err == nil {
			release()
		}
		done <- err
	}()
	releases[0]()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	releases[1]()
	releases[2]()
	if !b.tryReserve(budget) {
		t.Fatal("shares were not given back")
	}
}

// TestBodyBudget_UnknownLength: a body of unknown length reserves what reading it may take,
// keeps only its own size once read, and is cut past the limit with everything given back.
func TestBodyBudget_UnknownLength(t *testing.T) {
	const budget = 2 * unknownLengthReserve
	b := newBodyBudget(budget)
	chunked := func(size int) *http.Request {
		r, _ := http.NewRequest(http.MethodPost, "/", io.MultiReader(bytes.NewReader(bytes.Repeat([]byte("a"), size))))
		r.ContentLength = -1
		return r
	}
	for _, size := range []int{0, 1, firstBlock, firstBlock + 1, 3*maxBlock + 7, MaxRequestBytes} {
		body, release, err := b.read(httptest.NewRecorder(), chunked(size))
		if err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		if len(body) != size || bytes.Count(body, []byte("a")) != size {
			t.Fatalf("%d bytes: read %d", size, len(body))
		}
		if held := int64(size); !b.tryReserve(budget-held) || b.tryReserve(budget-held+1) {
			t.Fatalf("%d bytes read: the budget does not hold exactly the body", size)
		}
		release()
	}
	_, _, err := b.read(httptest.NewRecorder(), chunked(MaxRequestBytes+1))
	var de *Error
	if !errors.As(err, &de) || de.Type != typeRequestTooLarge {
		t.Fatalf("a chunked body over the limit: %v, want %s", err, typeRequestTooLarge)
	}
	if !b.tryReserve(budget) {
		t.Fatal("the refused body still holds memory")
	}
}

// TestServeHTTP_GivesBodyMemoryBack: after requests that succeed and fail, the engine holds no
// body memory.
func TestServeHTTP_GivesBodyMemoryBack(t *testing.T) {
	env := mustOpen(t)
	env.createTable("tbl", false)
	env.put("tbl", item("PK", s("a")))
	if _, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("PK", n("1"))}); err == nil {
		t.Fatal("a key of the wrong type was accepted")
	}
	if !env.e.bodies.tryReserve(DefaultRequestMemory) {
		t.Fatal("requests that ended still hold body memory")
	}
}

// TestNewServer_Timeouts: every engine listener gets the header, body, write and idle timeouts,
// the defaults unless overridden: a server without them keeps slow clients forever.
func TestNewServer_Timeouts(t *testing.T) {
	env := mustOpen(t)
	got := func(srv *http.Server) ServerOptions {
		return ServerOptions{ReadHeaderTimeout: srv.ReadHeaderTimeout, ReadTimeout: srv.ReadTimeout, WriteTimeout: srv.WriteTimeout, IdleTimeout: srv.IdleTimeout}
	}
	d := DefaultServerOptions
	if d.ReadHeaderTimeout <= 0 || d.ReadTimeout <= 0 || d.WriteTimeout <= 0 || d.IdleTimeout <= 0 {
		t.Fatalf("a default timeout is unset: %+v", d)
	}
	if g := got(env.e.NewServer(ServerOptions{})); g != d {
		t.Errorf("defaults: %+v, want %+v", g, d)
	}
	want := d
	want.ReadTimeout = time.Second
	if g := got(env.e.NewServer(ServerOptions{ReadTimeout: time.Second})); g != want {
		t.Errorf("with ReadTimeout set: %+v, want %+v", g, want)
	}
}
