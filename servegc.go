package main

import "runtime/debug"

// serveGCPercent is the garbage collector's target for the servers, serve and dynamodb
// (GOGC=400), unless the GOGC environment variable sets another. The server's live heap is small: the embedded engine's
// data lives in its file's memory map or, in memory, in a memory file, not on the Go heap,
// and an operation's garbage dies with it. With the default 100, collection was about a
// sixth of the CPU of an operation; at 400, BenchmarkPatterns measures 20–30% less CPU per
// operation, for a heap that peaks at five times the live one instead of twice
// (docs/benchmarks.md); `quickphotos dynamodb`'s process spends about 10% less CPU per
// UpdateItem. GOMEMLIMIT still caps the heap where memory is tight.
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
