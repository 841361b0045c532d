package bench_test

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU starts counting the process's CPU time (user and system, the
// kernel's work for an fsync included) and returns the function that
// reports it per operation as cpu-µs/op. Client, HTTP and server share the
// process and the machine's cores, so where they are busy the ratio of two
// targets' throughputs follows their CPU per request, which moves less
// than wall time with what else the machine runs. DynamoDB Local runs in a
// process of its own: for its targets only the client's share is counted.
func reportCPU(b *testing.B) (stop func()) {
	start := processCPU()
	return func() {
		b.ReportMetric(float64((processCPU()-start).Microseconds())/float64(b.N), "cpu-µs/op")
	}
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
