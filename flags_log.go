package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/quickphotos/quickphotos/telemetry"
)

// logConfig is --log-level, which the long-running commands (serve, stream, lambda) share:
// their logs are JSON lines on stderr.
type logConfig struct{ level string }

func (c *logConfig) register(f *flags) {
	f.String(&c.level, "log-level", "info", "the lowest level logged: debug, info, warn or error")
}

// logger is the JSON logger on stderr at --log-level.
func (c *logConfig) logger(stderr io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", c.level)
	}
	return slog.New(telemetry.LogHandler(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))), nil
}
