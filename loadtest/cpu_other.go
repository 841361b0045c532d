//go:build !unix

package loadtest

import "time"

// processCPU is the CPU time this process has used so far; ok is false where the system does
// not say, as here.
func processCPU() (cpu time.Duration, ok bool) { return 0, false }
