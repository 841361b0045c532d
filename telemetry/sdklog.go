package telemetry

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/aws/smithy-go/logging"
)

// SDKLogger routes the AWS SDK's log lines to log, so that they come out in the server's own
// format (JSON, with the request id of the request that sent the call) instead of the SDK's
// default plain text on stderr. Warnings stay warnings and debug lines stay debug; the SDK has
// no other classes. Give it as the Logger of the SDK clients' options.
func SDKLogger(log *slog.Logger) logging.Logger {
	return sdkLogger{log: log, ctx: context.Background()}
}

// sdkLogger implements logging.ContextLogger: the SDK asks it for a logger bound to each
// call's context, which carries the request id telemetry.LogHandler adds.
type sdkLogger struct {
	log *slog.Logger
	ctx context.Context
}

func (l sdkLogger) Logf(class logging.Classification, format string, v ...any) {
	level := slog.LevelInfo
	switch class {
	case logging.Warn:
		level = slog.LevelWarn
	case logging.Debug:
		level = slog.LevelDebug
	}
	if !l.log.Enabled(l.ctx, level) {
		return
	}
	l.log.Log(l.ctx, level, "aws sdk: "+fmt.Sprintf(format, v...))
}

func (l sdkLogger) WithContext(ctx context.Context) logging.Logger {
	return sdkLogger{log: l.log, ctx: ctx}
}
