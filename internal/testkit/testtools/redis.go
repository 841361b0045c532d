package testtools

import (
	"fmt"
	"net"
	"os/exec"
	"testing"
	"time"
)

// RedisRequiredEnv makes a missing redis-server a failure of the tests that need one instead
// of a skip; `make test`, and so CI (which installs it), sets it.
const RedisRequiredEnv = "QUICKPHOTOS_REQUIRE_REDIS"

// StartRedis runs a redis-server on a free 127.0.0.1 port, keeping nothing on disk, until the
// test ends, and returns its URL (redis://127.0.0.1:port/0).
func StartRedis(t testing.TB) string {
	t.Helper()
	server, err := exec.LookPath("redis-server")
	if err != nil {
		Missing(t, RedisRequiredEnv, "redis-server", "Debian: apt-get install redis-server", err)
	}
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(server, "--bind", "127.0.0.1", "--port", fmt.Sprint(port), "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			conn.Close()
			return fmt.Sprintf("redis://127.0.0.1:%d/0", port)
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not listen on port %d", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
