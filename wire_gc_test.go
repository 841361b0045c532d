package main

import (
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
