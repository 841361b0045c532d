package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Limits are the size of every caller's bucket.
type Limits struct {
	// Capacity is the most units a bucket holds: what a caller who waited long enough may
	// spend in one burst.
	Capacity float64
	// RefillPerSecond is how many units a bucket regains a second: a caller's sustained rate.
	RefillPerSecond float64
}

// Check returns an error when the limits cannot make a bucket.
func (l Limits) Check() error {
	switch {
	case !(l.Capacity > 0) || math.IsInf(l.Capacity, 0):
		return fmt.Errorf("the capacity must be a positive number of units, not %v", l.Capacity)
	case !(l.RefillPerSecond > 0) || math.IsInf(l.RefillPerSecond, 0):
		return fmt.Errorf("the refill must be a positive number of units a second, not %v", l.RefillPerSecond)
	}
	return nil
}

// State is a bucket at one moment, as extensions.cost reports it.
type State struct {
	// Capacity and RefillPerSecond are the bucket's Limits.
	Capacity        float64 `json:"capacity"`
	RefillPerSecond float64 `json:"refillPerSecond"`
	// Remaining is the units in the bucket; below zero, the debt to refill before the caller
	// is admitted again.
	Remaining float64 `json:"remaining"`
}

// Decision is what Admit says.
type Decision struct {
	// Allowed: the bucket holds units, and the operation may run.
	Allowed bool
	// State is the bucket when it was asked.
	State State
	// RetryAfter, when the operation is refused, is how long until the bucket holds units
	// again, in whole seconds (as HTTP's Retry-After is), at least one.
	RetryAfter time.Duration
}

// Limiter keeps the buckets. Implementations are safe for concurrent use.
type Limiter interface {
	// Admit says whether the caller key may run an operation now. It spends nothing.
	Admit(ctx context.Context, key string) (Decision, error)
	// Charge takes units from key's bucket, which may go below zero, and returns the bucket
	// after the charge.
	Charge(ctx context.Context, key string, units float64) (State, error)
	// Limits are the bucket's size.
	Limits() Limits
}

// Clock is the time a limiter refills by; time.Now in production.
type Clock func() time.Time

// ErrBadCharge is returned for a charge that is negative or not a number: buckets refill only
// with time.
var ErrBadCharge = errors.New("ratelimit: a charge must be a number of units ≥ 0")

func checkCharge(units float64) error {
	if !(units >= 0) || math.IsInf(units, 0) {
		return ErrBadCharge
	}
	return nil
}

// refill is a bucket that held level units at the time elapsed ago, refilled since and capped
// at the capacity. An elapsed time below zero (another instance's clock a little ahead) refills
// nothing.
func (l Limits) refill(level float64, elapsed time.Duration) float64 {
	if elapsed > 0 {
		level += elapsed.Seconds() * l.RefillPerSecond
	}
	return math.Min(level, l.Capacity)
}

// decide is Admit's answer for a bucket holding level units.
func (l Limits) decide(level float64) Decision {
	d := Decision{Allowed: level > 0, State: State{Capacity: l.Capacity, RefillPerSecond: l.RefillPerSecond, Remaining: level}}
	if !d.Allowed {
		// A caller is admitted once the bucket holds more than nothing: the wait is the
		// whole seconds that refill the debt and then some (a debt that refills in exactly
		// two seconds leaves an empty bucket at two, so the answer is three).
		secs := math.Floor(-level/l.RefillPerSecond) + 1
		d.RetryAfter = time.Duration(secs) * time.Second
	}
	return d
}

func (l Limits) state(level float64) State {
	return State{Capacity: l.Capacity, RefillPerSecond: l.RefillPerSecond, Remaining: level}
}

// fullAfter is how long a bucket at level takes to be full again: after that it is as good as
// a bucket never used, and need not be kept.
func (l Limits) fullAfter(level float64) time.Duration {
	if level >= l.Capacity {
		return 0
	}
	return time.Duration((l.Capacity - level) / l.RefillPerSecond * float64(time.Second))
}

// Observer is told what the server decides, for its metrics. kind says whose bucket it was:
// CallerUser or CallerAddress.
type Observer interface {
	// Refused: an operation was refused because the bucket was empty or in debt.
	Refused(kind string)
	// Charged: units were taken from a bucket.
	Charged(kind string, units float64)
	// Failed: the buckets could not be read or charged (Redis unreachable); the operation ran
	// unmetered.
	Failed(kind string)
}

// The kinds of caller a bucket belongs to.
const (
	// CallerUser: an authenticated user, whichever address they call from.
	CallerUser = "user"
	// CallerAddress: a caller without a username (anonymous, or every caller of a server
	// without authentication), known by its network address.
	CallerAddress = "address"
)
