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
