package dynamo

import "math/rand/v2"

// jitter returns a random duration in [max/2, max], so that clients retrying together spread out.
func jitter(max int64) int64 {
	if max <= 1 {
		return max
	}
	return max/2 + rand.Int64N(max/2+1)
}
