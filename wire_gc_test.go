package main

import (
	"errors"
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/KimMachineGun/automemlimit/memlimit"
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

// unsetenv unsets the variables for the test; t.Setenv restores them when it ends.
func unsetenv(t *testing.T, keys ...string) {
	for _, k := range keys {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// inContainer makes the servers of this test see a container whose memory is limited as
// memory says.
func inContainer(t *testing.T, memory memlimit.Provider) {
	before := containerMemory
	containerMemory = memory
	t.Cleanup(func() { containerMemory = before })
}

func TestTuneServerGC(t *testing.T) {
	for _, tc := range []struct {
		name      string
		container memlimit.Provider
		env       map[string]string
		want      int64
	}{
		{"a container of 1 GiB", memlimit.Limit(1 << 30), nil, 768 << 20},
		{"a container of 512 MiB", memlimit.Limit(512 << 20), nil, 384 << 20},
		{"no container limit", func() (uint64, error) { return 0, memlimit.ErrNoLimit }, nil, 0},
		{"the limit unreadable", func() (uint64, error) { return 0, errors.New("no cgroup") }, nil, 0},
		{"GOMEMLIMIT set", memlimit.Limit(1 << 30), map[string]string{"GOMEMLIMIT": "200MiB"}, 0},
		{"AUTOMEMLIMIT=off", memlimit.Limit(1 << 30), map[string]string{"AUTOMEMLIMIT": "off"}, 0},
		{"AUTOMEMLIMIT=0.5", memlimit.Limit(1 << 30), map[string]string{"AUTOMEMLIMIT": "0.5"}, 512 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			unsetenv(t, "GOMEMLIMIT", "AUTOMEMLIMIT")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			inContainer(t, tc.container)
			gcBefore, limitBefore := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
			defer func() { debug.SetGCPercent(gcBefore); debug.SetMemoryLimit(limitBefore) }()
			got := tuneServerGC(func(string) string { return "" })
			wantLimit := tc.want
			if wantLimit == 0 {
				wantLimit = math.MaxInt64 // untouched
			}
			if limit := debug.SetMemoryLimit(-1); got != tc.want || limit != wantLimit {
				t.Errorf("tuneServerGC = %d, memory limit %d, want %d and %d", got, limit, tc.want, wantLimit)
			}
		})
	}
}

// TestServers_LimitTheHeapInAContainer: both servers limit their heap to three quarters of
// their container's memory.
func TestServers_LimitTheHeapInAContainer(t *testing.T) {
	unsetenv(t, "GOMEMLIMIT", "AUTOMEMLIMIT")
	inContainer(t, memlimit.Limit(2<<30))
	for name, args := range map[string][]string{
		"serve":    {"serve", "--addr", "127.0.0.1:0", "--in-memory"},
		"dynamodb": {"dynamodb", "--listen", "127.0.0.1:0", "--in-memory"},
	} {
		t.Run(name, func(t *testing.T) {
			gcBefore, limitBefore := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
			defer func() { debug.SetGCPercent(gcBefore); debug.SetMemoryLimit(limitBefore) }()
			_, stop := startStoppable(t, "http://127.0.0.1:", args...)
			stop()
			if got := debug.SetMemoryLimit(-1); got != 3<<29 {
				t.Errorf("memory limit %d after %s started in a container of 2 GiB, want %d", got, name, int64(3<<29))
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
