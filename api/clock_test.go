package api_test

import (
	"sync/atomic"
	"time"
)

// testClock is a clock a test moves forward, so that expiries and refills need no sleeping.
type testClock struct{ now atomic.Int64 }

func newTestClock(start time.Time) *testClock {
	c := &testClock{}
	c.now.Store(start.UnixNano())
	return c
}

func (c *testClock) Now() time.Time          { return time.Unix(0, c.now.Load()) }
func (c *testClock) Advance(d time.Duration) { c.now.Add(int64(d)) }
