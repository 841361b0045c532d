package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quickphotos/quickphotos/auth"
)

// TestRateLimit_InstancesShareBucketsInRedis: two `serve` instances with the same table name
// keep their callers' buckets in one Redis, so what a caller spends through one is gone on the
// other; another caller is served by both, and an instance keeping its buckets in memory does
// not see the spending.
func TestRateLimit_InstancesShareBucketsInRedis(t *testing.T) {
	const secret = "ratelimit-secret-ratelimit-secret-32"
	redis := startRedis(t)
	serve := func(extra ...string) string {
		args := append([]string{"--in-memory", "--addr", "127.0.0.1:0", "--sample", "--sample-users", "5", "--no-feed",
			"--jwt-secret", secret, "--rate-limit-capacity", "20", "--rate-limit-refill", "0.001"}, extra...)
		return startServe(t, args...)
	}
	one, two := serve("--rate-limit-redis", redis), serve("--rate-limit-redis", redis)
	alone := serve()

	token := func(user string) string {
		tok, err := auth.Mint([]byte(secret), user, time.Hour, auth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	ask := func(base, user string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(`{"query":"{ user(username: \"spender\") { username } }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token(user))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Retry-After") + " " + string(body)
	}

	spent := false
	for range 100 {
		if status, _ := ask(one, "spender"); status == http.StatusTooManyRequests {
			spent = true
			break
		}
	}
	if !spent {
		t.Fatal("100 reads through one instance were never refused")
	}
	if status, body := ask(two, "spender"); status != http.StatusTooManyRequests || !strings.Contains(body, "LIMIT_EXCEEDED") {
		t.Errorf("the spender through the other instance: %d %s, want 429 LIMIT_EXCEEDED", status, body)
	}
	if status, body := ask(two, "saver"); status != http.StatusOK {
		t.Errorf("another caller through the other instance: %d %s", status, body)
	}
	if status, body := ask(alone, "spender"); status != http.StatusOK {
		t.Errorf("the spender on an instance with buckets in memory: %d %s", status, body)
	}
}

func TestRateLimit_Flags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rate-limit-refill", "10"}, "need --rate-limit-capacity"},
		{[]string{"--rate-limit-redis", "redis://127.0.0.1:1/0"}, "need --rate-limit-capacity"},
		{[]string{"--rate-limit-capacity", "100"}, "needs --rate-limit-refill"},
		{[]string{"--rate-limit-capacity", "-1", "--rate-limit-refill", "1"}, "positive"},
		{[]string{"--rate-limit-capacity", "100", "--rate-limit-refill", "1", "--rate-limit-redis", "http://x"}, "--rate-limit-redis"},
		{[]string{"--trusted-proxies", "10.0.0.0/8"}, "need --rate-limit-capacity"},
		{[]string{"--rate-limit-capacity", "100", "--rate-limit-refill", "1", "--trusted-proxies", "10.0.0.0/8,lb.internal"}, `--trusted-proxies: "lb.internal" is neither an IP address nor a CIDR range`},
	} {
		args := append([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0"}, tc.args...)
		err := run(t.Context(), args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
}
