package main

import "runtime/debug"

// serveGCPercent is the garbage collector's target for the servers, serve and dynamodb
// (GOGC=400), unless the GOGC environment variable sets another. A server's live heap is
// small: the embedded engine's data lives in its file's memory map or, in memory, in a memory
// file, not on the Go heap, and a request's garbage dies with it. With the default 100,
// collection was about a sixth of the CPU of a GraphQL operation; at 400, BenchmarkPatterns
// measures 20–30% less CPU per operation, for a heap that peaks at five times the live one
// instead of twice, and `quickphotos dynamodb` spends about 10% less CPU per UpdateItem
// (docs/benchmarks.md). GOMEMLIMIT still caps the heap where memory is tight.
const serveGCPercent = 400

// tuneGC applies serveGCPercent unless getenv("GOGC") is set (the runtime has applied that),
// and reports whether it did.
func tuneGC(getenv func(string) string) bool {
	if getenv("GOGC") != "" {
		return false
	}
	debug.SetGCPercent(serveGCPercent)
	return true
}
