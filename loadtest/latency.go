package loadtest

import (
	"slices"
	"time"
)

// latencies keeps every duration it is given, to report exact percentiles: a run is bounded in
// time, so at most a few million durations (8 bytes each).
type latencies []time.Duration

// Percentile returns the duration below which p percent of the durations lie (nearest rank),
// 0 when there are none. It sorts l.
func (l latencies) Percentile(p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	slices.Sort(l)
	rank := int(p/100*float64(len(l))+0.5) - 1
	return l[min(max(rank, 0), len(l)-1)]
}

// Max is the longest duration, 0 when there are none.
func (l latencies) Max() time.Duration {
	if len(l) == 0 {
		return 0
	}
	return slices.Max(l)
}
