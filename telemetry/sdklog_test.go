package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/aws/smithy-go/logging"
)

// TestSDKLogger: the AWS SDK's lines become records of the given logger at the SDK's level,
// with the request id of the call's context once the SDK binds it (WithContext).
func TestSDKLogger(t *testing.T) {
	for _, tc := range []struct {
		name      string
		class     logging.Classification
		min       slog.Level
		wantLevel string // "" when the line is below the logger's level
	}{
		{"warning", logging.Warn, slog.LevelInfo, "WARN"},
		{"debug line at debug", logging.Debug, slog.LevelDebug, "DEBUG"},
		{"debug line at info", logging.Debug, slog.LevelInfo, ""},
		{"warning at error", logging.Warn, slog.LevelError, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			base := SDKLogger(slog.New(LogHandler(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: tc.min}))))
			ctx := withRecord(context.Background(), &record{id: "REQ1"})
			base.(logging.ContextLogger).WithContext(ctx).Logf(tc.class, "failed to close HTTP response body: %v", "checksum")
			if tc.wantLevel == "" {
				if out.Len() > 0 {
					t.Fatalf("logged below the level: %s", &out)
				}
				return
			}
			var line struct{ Level, Msg string }
			if err := json.Unmarshal(out.Bytes(), &line); err != nil {
				t.Fatalf("not one JSON record: %q: %v", &out, err)
			}
			var ids struct {
				RequestID string `json:"request_id"`
			}
			_ = json.Unmarshal(out.Bytes(), &ids)
			if line.Level != tc.wantLevel || line.Msg != "aws sdk: failed to close HTTP response body: checksum" || ids.RequestID != "REQ1" {
				t.Errorf("logged %s", &out)
			}
		})
	}
}
