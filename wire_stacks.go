package main

import "sync"

// gqlgen resolves each element of a list of objects, and each field with a resolver, in a
// goroutine of its own, and the work of one is deep: an edge, its node, the node's fields and
// their resolvers, the loaders and the engine under them. A goroutine starts with the stack
// size the runtime adapts at each collection: the average stack in use among the goroutines it
// scanned, rounded up to a power of two. Under serve's load most goroutines at a collection
// are connections waiting for their next request, with a few kilobytes each, so the resolvers'
// goroutines started small and nearly every one grew its stack once or twice, each time
// copying it and adjusting every frame: about 9% of serve's CPU under the load mix
// (docs/benchmarks.md).
//
// The stack ballast raises that average: stackBallast goroutines parked for the life of the
// process with ballastFrames frames of about a kilobyte in use, some 14 KB, which every
// collection scans. Goroutines then start with 16 KB, enough for a resolver's depth, at a
// cost of stackBallast × 16 KB (4 MB) of stacks. Its own average stays below 16 KB less the
// runtime's guard, so it never raises the start beyond 16 KB; among thousands of other
// goroutines (many subscribers' connections) its weight fades, and the start returns to the
// runtime's own.
const (
	stackBallast  = 256
	ballastFrames = 12
)

var ballastOnce sync.Once

// startStackBallast starts the stack ballast, once per process, and returns once all of it is
// parked: the next collection counts it.
func startStackBallast() {
	ballastOnce.Do(func() {
		var parked sync.WaitGroup
		parked.Add(stackBallast)
		for range stackBallast {
			go parkDeep(ballastFrames, &parked)
		}
		parked.Wait()
	})
}

// parkDeep parks forever under n frames of a kilobyte each, telling parked when it is there.
//
//go:noinline
func parkDeep(n int, parked *sync.WaitGroup) byte {
	var frame [1024]byte
	if n > 0 {
		frame[n] = parkDeep(n-1, parked)
		return frame[1]
	}
	parked.Done()
	select {} // forever
}
