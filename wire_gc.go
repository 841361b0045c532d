package main

import "runtime/debug"

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
