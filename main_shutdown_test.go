package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServe_ShutdownDelayAnswersNotReadyThenCloses: told to stop (its context ending, as
// SIGTERM does in main), serve with --shutdown-delay goes on serving: /readyz answers 503 at
// once, so that the load balancer stops sending it requests, while a request still gets its
// answer; after the delay the listener closes and serve stops. (It closed the listener at once,
// /readyz never answering 503.)
func TestServe_ShutdownDelayAnswersNotReadyThenCloses(t *testing.T) {
	const delay = 2 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--shutdown-delay", delay.String()}, pw, io.Discard)
		pw.Close()
	}()
	out := bufio.NewScanner(pr)
	var addr string
	for addr == "" && out.Scan() {
		if m := regexp.MustCompile(`GraphiQL at http://(127\.0\.0\.1:\d+)`).FindStringSubmatch(out.Text()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatal("serve stopped before printing its address")
	}
	printed := make(chan []string, 1)
	go func() {
		var rest []string
		for out.Scan() {
			rest = append(rest, out.Text())
		}
		printed <- rest
	}()
	base := "http://" + addr
	readyz := func() (int, string) {
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatalf("/readyz: %v", err)
		}
		defer resp.Body.Close()
		var body struct{ Reason string }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body.Reason
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if status, _ := readyz(); status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("/readyz never answered 200")
		}
	}

	stopped := time.Now()
	cancel() // SIGTERM, as main wires it
	// serve sees its context end a moment after cancel returns.
	for deadline := time.Now().Add(delay / 4); ; time.Sleep(5 * time.Millisecond) {
		status, reason := readyz()
		if status == http.StatusServiceUnavailable && reason == errShuttingDown.Error() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz once told to stop: %d %q, want 503 %q", status, reason, errShuttingDown)
		}
	}
	var got struct{ Errors []any }
	postJSON(t, base+"/graphql", `{"query":"mutation { createUser(input: {username: \"late\"}) { username } }"}`, &got)
	if len(got.Errors) > 0 {
		t.Fatalf("a request while draining: %v", got.Errors)
	}

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}
	if d := time.Since(stopped); d < delay {
		t.Errorf("serve stopped %s after it was told to, within its delay of %s", d, delay)
	}
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
		t.Error("the listener still accepts once serve stopped")
	}
	if rest := strings.Join(<-printed, "\n"); !regexp.MustCompile(`(?s)stopping in 2s.*stopped`).MatchString(rest) {
		t.Errorf("printed %q once told to stop, want it to say it drains, then that it stopped", rest)
	}
}

// TestServe_ShutdownDelayByAddress: --shutdown-delay auto drains only off loopback, where a
// load balancer may send requests; a duration is taken as given, anything else refused.
func TestServe_ShutdownDelayByAddress(t *testing.T) {
	for _, tc := range []struct {
		flag, addr string
		want       time.Duration
	}{
		{"auto", "127.0.0.1:8080", 0},
		{"auto", "[::1]:8080", 0},
		{"auto", ":8080", autoShutdownDelay},
		{"auto", "0.0.0.0:8080", autoShutdownDelay},
		{"auto", "10.0.0.7:8080", autoShutdownDelay},
		{"0s", "0.0.0.0:8080", 0},
		{"12s", "127.0.0.1:8080", 12 * time.Second},
	} {
		addr, err := net.ResolveTCPAddr("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		cfg := serveConfig{shutdownDelay: tc.flag}
		if got, err := cfg.drainDelay(addr); err != nil || got != tc.want {
			t.Errorf("--shutdown-delay %s on %s: %s, %v; want %s", tc.flag, tc.addr, got, err, tc.want)
		}
	}
	for _, bad := range []string{"soon", "-1s", "5"} {
		err := run(t.Context(), []string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--shutdown-delay", bad}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "--shutdown-delay") {
			t.Errorf("--shutdown-delay %s: %v, want it refused", bad, err)
		}
	}
	t.Setenv("QUICKPHOTOS_SHUTDOWN_DELAY", "later")
	err := run(t.Context(), []string{"serve", "--in-memory", "--addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--shutdown-delay") {
		t.Errorf("QUICKPHOTOS_SHUTDOWN_DELAY=later: %v, want it refused", err)
	}
}
