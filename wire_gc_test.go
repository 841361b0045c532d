package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	for _, tc := range []struct {
		gogc string
		want int
	}{
		{"", serveGCPercent},
		{"100", 100},
		{"off", 100},
	} {
		t.Run("GOGC="+tc.gogc, func(t *testing.T) {
			before := debug.SetGCPercent(100)
			defer debug.SetGCPercent(before)
			applied := tuneGC(func(k string) string {
				if k == "GOGC" {
					return tc.gogc
				}
				return ""
			})
			if got := debug.SetGCPercent(100); got != tc.want || applied != (tc.gogc == "") {
				t.Errorf("GC percent %d (applied %v), want %d", got, applied, tc.want)
			}
		})
	}
}

// TestServers_TuneGC: both servers collect at serveGCPercent when GOGC is not set.
func TestServers_TuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	for name, args := range map[string][]string{
		"serve":    {"serve", "--addr", "127.0.0.1:0", "--in-memory"},
		"dynamodb": {"dynamodb", "--listen", "127.0.0.1:0", "--in-memory"},
	} {
		t.Run(name, func(t *testing.T) {
			before := debug.SetGCPercent(100)
			defer debug.SetGCPercent(before)
			_, stop := startStoppable(t, "http://127.0.0.1:", args...)
			stop()
			if got := debug.SetGCPercent(100); got != serveGCPercent {
				t.Errorf("GC percent %d after %s started, want %d", got, name, serveGCPercent)
			}
		})
	}
}

func TestTuneLambdaGC(t *testing.T) {
	for _, tc := range []struct {
		name               string
		memory, gomemlimit string
		want               int64
	}{
		{"512 MB", "512", "", 384 << 20},
		{"128 MB, Lambda's least", "128", "", 96 << 20},
		{"GOMEMLIMIT set", "512", "200MiB", 0},
		{"no memory size", "", "", 0},
		{"a memory size that is no number", "lots", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gcBefore, limitBefore := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
			defer func() { debug.SetGCPercent(gcBefore); debug.SetMemoryLimit(limitBefore) }()
			env := map[string]string{"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": tc.memory, "GOMEMLIMIT": tc.gomemlimit}
			got := tuneLambdaGC(func(k string) string { return env[k] })
			wantLimit := tc.want
			if wantLimit == 0 {
				wantLimit = math.MaxInt64 // untouched
			}
			if limit := debug.SetMemoryLimit(-1); got != tc.want || limit != wantLimit {
				t.Errorf("tuneLambdaGC = %d, memory limit %d, want %d and %d", got, limit, tc.want, wantLimit)
			}
			if percent := debug.SetGCPercent(100); percent != serveGCPercent {
				t.Errorf("GC percent %d, want %d", percent, serveGCPercent)
			}
		})
	}
}
