package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
)

// TestHealthcheck: `quickphotos healthcheck` succeeds against a running serve, reached through
// the address serve was given (an every-interface host included), and fails, saying why, when
// nothing answers or the address is unusable.
func TestHealthcheck(t *testing.T) {
	base := startServe(t, "--in-memory", "--addr", "127.0.0.1:0", "--no-feed")
	_, port, err := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	closed := closedLoopbackAddr(t)
	for _, tc := range []struct {
		name    string
		args    []string
		env     string
		wantErr string
	}{
		{name: "loopback", args: []string{"--addr", "127.0.0.1:" + port}},
		{name: "every interface", args: []string{"--addr", "0.0.0.0:" + port}},
		{name: "no host", args: []string{"--addr", ":" + port}},
		{name: "serve's variable", env: "127.0.0.1:" + port},
		{name: "nothing listening", args: []string{"--addr", closed}, wantErr: "connection refused"},
		{name: "no port", args: []string{"--addr", "127.0.0.1"}, wantErr: "missing port"},
		{name: "port zero", args: []string{"--addr", "127.0.0.1:0"}, wantErr: "give the port"},
		{name: "extra argument", args: []string{"--addr", "127.0.0.1:" + port, "now"}, wantErr: "no arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("QUICKPHOTOS_ADDR", tc.env)
			}
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"healthcheck"}, tc.args...), &stdout, &stderr)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("healthcheck: %v", err)
			case tc.wantErr == "" && !strings.Contains(stdout.String(), "healthy"):
				t.Errorf("stdout %q, want it to say healthy", stdout.String())
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("healthcheck: %v, want an error saying %q", err, tc.wantErr)
			}
		})
	}
}

// closedLoopbackAddr returns a loopback address nothing listens on.
func closedLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
