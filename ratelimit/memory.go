package ratelimit

import (
	"context"
	"sync"
	"time"
)

// sweepEvery is how often Memory drops the buckets that have refilled: a full bucket is the
// same as none, and dropping them bounds the memory to the callers active in the last refill
// period, however many distinct addresses call.
const sweepEvery = time.Minute

// Memory keeps the buckets in this process: for a single instance, or for tests.
type Memory struct {
	limits Limits
	now    Clock

	mu        sync.Mutex
	buckets   map[string]bucket
	lastSweep time.Time
}

type bucket struct {
	level float64
	at    time.Time
}

var _ Limiter = (*Memory)(nil)

// NewMemory returns buckets of limits in memory, timed by now (time.Now when nil).
func NewMemory(limits Limits, now Clock) (*Memory, error) {
	if err := limits.Check(); err != nil {
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	return &Memory{limits: limits, now: now, buckets: map[string]bucket{}, lastSweep: now()}, nil
}

// Limits are the buckets' size.
func (m *Memory) Limits() Limits { return m.limits }

// Admit says whether key may run an operation now.
func (m *Memory) Admit(_ context.Context, key string) (Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.limits.decide(m.level(key, m.now())), nil
}

// Charge takes units from key's bucket.
func (m *Memory) Charge(_ context.Context, key string, units float64) (State, error) {
	if err := checkCharge(units); err != nil {
		return State{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	level := m.level(key, now) - units
	m.buckets[key] = bucket{level: level, at: now}
	m.sweep(now)
	return m.limits.state(level), nil
}

// Len is how many buckets are kept: those not refilled yet, and those refilled since the last
// sweep.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.buckets)
}

// level is key's bucket at now; m.mu is held.
func (m *Memory) level(key string, now time.Time) float64 {
	b, ok := m.buckets[key]
	if !ok {
		return m.limits.Capacity
	}
	return m.limits.refill(b.level, now.Sub(b.at))
}

// sweep drops the full buckets, once every sweepEvery; m.mu is held.
func (m *Memory) sweep(now time.Time) {
	if now.Sub(m.lastSweep) < sweepEvery {
		return
	}
	m.lastSweep = now
	for key, b := range m.buckets {
		if now.Sub(b.at) >= m.limits.fullAfter(b.level) {
			delete(m.buckets, key)
		}
	}
}
