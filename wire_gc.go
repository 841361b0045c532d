package main

import (
	"runtime/debug"
	"strconv"

	"github.com/KimMachineGun/automemlimit/memlimit"
)

// serveGCPercent is the garbage collector's target for the servers, serve and dynamodb
// (GOGC=800), unless the GOGC environment variable sets another. A server's live heap is
// small, about 6 MB under serve's load mix: the embedded engine's data lives in its file's
// memory map or, in memory, in a memory file, not on the Go heap, and a request's garbage dies
// with it. With the default 100, collection was about a sixth of the CPU of a GraphQL
// operation; 400 took 20–30% off, and at 800 serve collects half as often again (8 times a
// second under the mix instead of 16), for about 2% of its CPU, its heap peaking near 56 MB
// instead of 25 (docs/benchmarks.md). GOMEMLIMIT still caps the heap where memory is tight.
const serveGCPercent = 800

// tuneGC applies serveGCPercent unless getenv("GOGC") is set (the runtime has applied that),
// and reports whether it did.
func tuneGC(getenv func(string) string) bool {
	if getenv("GOGC") != "" {
		return false
	}
	debug.SetGCPercent(serveGCPercent)
	return true
}

// serverMemoryShare is the share of the memory limit of the container a server runs in (its
// cgroup's, as Docker, ECS and Kubernetes set it) that its heap may grow to before the
// collector works to stay under it, as lambdaMemoryShare is for a function: at serveGCPercent
// the heap may grow to nine times what is live, and one upload being made into images holds
// up to 6 bytes a pixel of --media-max-pixels (docs/uploads.md), so without a limit a
// collection ending during one could set a goal past the container's memory, and the kernel
// would kill the server.
const serverMemoryShare = 0.75

// containerMemory is where a server learns its container's memory limit: the cgroup it runs
// in (v1 or v2), memlimit.ErrNoLimit when there is none.
var containerMemory memlimit.Provider = memlimit.FromCgroup

// tuneServerGC is tuneGC for the servers, serve and dynamodb, with the heap limited to
// serverMemoryShare of the container's memory limit, unless the environment sets GOMEMLIMIT
// (the runtime has applied that) or AUTOMEMLIMIT (off, or another share: memlimit reads it).
// It returns the limit it set, 0 when it set none (no container limit, or an error reading it,
// which leaves the runtime's default: no limit).
func tuneServerGC(getenv func(string) string) int64 {
	tuneGC(getenv)
	limit, err := memlimit.SetGoMemLimitWithOpts(memlimit.WithRatio(serverMemoryShare), memlimit.WithProvider(containerMemory))
	if err != nil {
		return 0
	}
	return limit
}

// lambdaMemoryShare is the share of a Lambda function's memory that its heap may grow to
// before the collector works to stay under it (a soft limit, debug.SetMemoryLimit). At
// serveGCPercent the heap grows to about nine times what is live between collections, and a
// function's memory can be small (Lambda's least is 128 MB): the rest is for goroutine stacks,
// the runtime and the binary.
const lambdaMemoryShare = 0.75

// tuneLambdaGC is tuneGC for a Lambda function, whose instance serves one request at a time
// as a server serves many: the same collections spared, the same CPU billed less. Unless
// getenv("GOMEMLIMIT") is set (the runtime has applied that), it also limits the heap to
// lambdaMemoryShare of the function's memory, from AWS_LAMBDA_FUNCTION_MEMORY_SIZE (MB), and
// returns that limit in bytes; 0 when it set none.
func tuneLambdaGC(getenv func(string) string) int64 {
	tuneGC(getenv)
	if getenv("GOMEMLIMIT") != "" {
		return 0
	}
	mb, err := strconv.Atoi(getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"))
	if err != nil || mb <= 0 {
		return 0
	}
	limit := int64(float64(mb)*lambdaMemoryShare) << 20
	debug.SetMemoryLimit(limit)
	return limit
}
