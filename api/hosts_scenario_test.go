package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/live"
)

// TestLocalHostsOnly_ARebindingPageIsRefused: a server open to this machine alone answers a
// request that names it by its address or localhost, and refuses one that names it otherwise,
// as a web page on a DNS name rebound to 127.0.0.1 would: its mutation writes nothing, and its
// WebSocket is not opened.
func TestLocalHostsOnly_ARebindingPageIsRefused(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) { c.LocalHostsOnly = true }))
	srv.MustCreateUser(t, "ann")
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	post := func(host, status string) (int, []byte) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"query": `mutation($s: String) { updateUser(username: "ann", input: {status: $s}) { status } }`, "variables": map[string]any{"s": status}})
		req, _ := http.NewRequest(http.MethodPost, srv.URL+api.Endpoint, bytes.NewReader(body))
		req.Host = host
		req.Header.Set("Origin", "http://"+host)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}

	evil := "attacker.example" + port
	if code, body := post(evil, "pwned"); code != http.StatusForbidden || !bytes.Contains(body, []byte(`"FORBIDDEN"`)) {
		t.Fatalf("Host %s: %d %s, want 403 FORBIDDEN", evil, code, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+api.Endpoint, &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"}, Host: evil, HTTPHeader: http.Header{"Origin": {"http://" + evil}}})
	if err == nil {
		conn.CloseNow()
		t.Fatalf("a WebSocket for Host %s was opened", evil)
	}
	if res == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("WebSocket for Host %s: %v, want 403", evil, err)
	}

	for _, host := range []string{"127.0.0.1" + port, "localhost" + port} {
		if code, body := post(host, "from "+host); code != http.StatusOK || !bytes.Contains(body, []byte(`"status":"from `+host)) {
			t.Errorf("Host %s: %d %s, want the update", host, code, body)
		}
	}
	if got := srv.Query(t, `{ user(username: "ann") { status } }`, nil); !bytes.Contains(got.Data, []byte(`"from localhost`)) {
		t.Fatalf("ann's status %s, want the last update from localhost", got.Data)
	}
}
