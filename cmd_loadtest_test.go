package main

import "testing"

// The load tool leaves most of a shared machine to the servers it measures, unless told its
// cores by --procs or by GOMAXPROCS.
func TestLoadtestProcs(t *testing.T) {
	for _, tc := range []struct {
		procs      int
		gomaxprocs string
		cpus, want int
	}{
		{0, "", 2, 1},
		{0, "", 1, 1},
		{0, "", 8, 2},
		{0, "", 64, 16},
		{0, "2", 8, 0}, // the runtime has applied GOMAXPROCS
		{3, "", 2, 3},
		{3, "1", 8, 3}, // the flag over the environment
	} {
		getenv := func(k string) string {
			if k == "GOMAXPROCS" {
				return tc.gomaxprocs
			}
			return ""
		}
		if got := loadtestProcs(tc.procs, getenv, tc.cpus); got != tc.want {
			t.Errorf("--procs %d, GOMAXPROCS=%q, %d cores: %d, want %d", tc.procs, tc.gomaxprocs, tc.cpus, got, tc.want)
		}
	}
}
