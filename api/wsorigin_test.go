package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/live"
)

// TestGraphQLWS_OriginIsTheCORSOrigin: a browser's WebSocket from a configured CORS origin is
// accepted, and one from any other origin is refused before the handshake, the scheme
// included: allowing https://app.example.com must not let a page served over plain http, which
// anyone on the path can alter, open a connection with the user's token.
func TestGraphQLWS_OriginIsTheCORSOrigin(t *testing.T) {
	srv := apitest.NewServer(t, apitest.WithLive(live.Config{}), apitest.WithConfig(func(c *api.Config) {
		c.CORSOrigins = []string{"https://app.example.com", "https://*.preview.example.com"}
	}))
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"https://app.example.com", true},
		{"https://pr-7.preview.example.com", true},
		{"", true}, // not a browser: no Origin header
		{"http://app.example.com", false},
		{"https://evil.example", false},
		{"https://app.example.com.evil.example", false},
		{"http://pr-7.preview.example.com", false},
	} {
		t.Run(tc.origin, func(t *testing.T) {
			header := http.Header{}
			if tc.origin != "" {
				header.Set("Origin", tc.origin)
			}
			ctx, cancel := context.WithTimeout(context.Background(), apitest.LiveTimeout)
			defer cancel()
			conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
				&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: header})
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				conn.Close(websocket.StatusNormalClosure, "")
				return
			}
			if err == nil {
				conn.Close(websocket.StatusNormalClosure, "")
				t.Fatal("accepted")
			}
			if resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("refused with %v, want 403", err)
			}
		})
	}
}
