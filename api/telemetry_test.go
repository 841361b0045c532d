package api_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/api"
	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
	"github.com/quickphotos/quickphotos/internal/testkit/syncbuf"
	"github.com/quickphotos/quickphotos/telemetry"
)

func TestOperatorsSeeEachRequestInLogsAndMetrics(t *testing.T) {
	var logs syncbuf.Buffer
	tel := telemetry.New(telemetry.Options{Logger: slog.New(telemetry.LogHandler(slog.NewJSONHandler(&logs, nil)))})
	srv := apitest.NewServer(t, apitest.WithAuth(), apitest.WithStoreObserver(tel.Store()), apitest.WithConfig(func(c *api.Config) { c.Telemetry = tel }))
	srv.MustCreateUser(t, "alice")
	token := srv.Token(t, "alice")

	resp := srv.WithHeader("Authorization", "Bearer "+token).WithHeader(telemetry.RequestIDHeader, "req-42").
		Query(t, `query Profile { user(username: "alice") { name } }`, nil)
	if len(resp.Errors) > 0 {
		t.Fatalf("errors: %+v", resp.Errors)
	}

	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var entry map[string]any
		if json.Unmarshal([]byte(l), &entry) == nil && entry["request_id"] == "req-42" {
			line = entry
		}
	}
	if line == nil {
		t.Fatalf("no log line for request req-42 in:\n%s", logs.String())
	}
	if line["operation"] != "Profile" || line["status"] != float64(200) || line["dynamodb_requests"] != float64(1) {
		t.Errorf("log line %v: want operation Profile, status 200, 1 DynamoDB request", line)
	}
	if strings.Contains(logs.String(), token) {
		t.Error("the log holds the caller's token")
	}

	res, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	metrics, _ := io.ReadAll(res.Body)
	for _, want := range []string{
		`quickphotos_graphql_operations_total{operation="Profile",outcome="ok",type="query"} 1`,
		`quickphotos_dynamodb_requests_total{operation="GetItem",outcome="ok"`,
		`quickphotos_http_requests_total{method="POST",path="/graphql",status="200"}`,
		`quickphotos_dataloader_batch_size_count{loader="users"}`,
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
