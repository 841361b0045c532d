package loadtest

import (
	"context"
	"sync/atomic"
	"time"
)

// pacer is the schedule of an open loop (Config.Rate): operation k of a round is due at
// start + k/rate, whether or not the ones before it have been answered, as the requests of a
// fleet of phones arrive whatever the server is doing. A closed loop, each client sending its
// next request on the last one's answer, slows down with the server it measures, so a server
// that answers more operations in the same time is also measured under more load; at one rate
// for every target, each target's latencies are under the same load.
type pacer struct {
	start time.Time
	rate  float64
	next  atomic.Int64
}

func newPacer(rate float64) *pacer { return &pacer{start: time.Now(), rate: rate} }

// due takes the next operation's slot and returns when it is due.
func (p *pacer) due() time.Time {
	k := p.next.Add(1) - 1
	return p.start.Add(time.Duration(float64(k) * float64(time.Second) / p.rate))
}

// scheduleSlack is how far behind its schedule an open loop may end a round and still count
// as having kept up: operations due in the last moments of a round may be cut off by its end,
// or by a pause of the machine, without the target having fallen behind. A target that could
// not keep up ends its rounds seconds behind.
const scheduleSlack = 100 * time.Millisecond

// backlog is how many operations were due by end but not yet taken: 0 while the clients kept
// up with the schedule.
func (p *pacer) backlog(end time.Time) int {
	due := int64(end.Sub(p.start).Seconds()*p.rate) + 1
	return int(max(due-p.next.Load(), 0))
}

// waitUntil waits until t, or for ctx to end first, which it reports with false.
func waitUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}
