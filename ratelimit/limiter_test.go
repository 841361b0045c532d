package ratelimit_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quickphotos/quickphotos/internal/testkit/testtools"
	"github.com/quickphotos/quickphotos/ratelimit"
)

// clock is a Clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

var tenPerSecond = ratelimit.Limits{Capacity: 100, RefillPerSecond: 10}

// stores open each store of buckets once per test, and return how to make limiters on it:
// Redis gets a server of its own, in which prefix keeps the limiters' buckets apart.
var stores = map[string]func(t *testing.T) func(prefix string, l ratelimit.Limits, now ratelimit.Clock) ratelimit.Limiter{
	"memory": func(t *testing.T) func(string, ratelimit.Limits, ratelimit.Clock) ratelimit.Limiter {
		return func(_ string, l ratelimit.Limits, now ratelimit.Clock) ratelimit.Limiter {
			m, err := ratelimit.NewMemory(l, now)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
	},
	"redis": func(t *testing.T) func(string, ratelimit.Limits, ratelimit.Clock) ratelimit.Limiter {
		client := redisClient(t)
		return func(prefix string, l ratelimit.Limits, now ratelimit.Clock) ratelimit.Limiter {
			r, err := ratelimit.NewRedis(client, prefix, l, now)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
	},
}

func redisClient(t *testing.T) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(testtools.StartRedis(t))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

// step is one thing a scenario does: move the clock, charge, and ask.
type step struct {
	advance time.Duration
	charge  float64
	// want is what Admit says after the step: allowed, the bucket's level, and the wait.
	allowed    bool
	remaining  float64
	retryAfter time.Duration
}

func TestLimiter_Buckets(t *testing.T) {
	scenarios := []struct {
		name  string
		steps []step
	}{
		{"a new caller's bucket is full", []step{
			{allowed: true, remaining: 100},
		}},
		{"a charge takes units, and what is left admits", []step{
			{charge: 60, allowed: true, remaining: 40},
			{charge: 39.5, allowed: true, remaining: 0.5},
		}},
		{"an operation that costs more than is left runs, and leaves a debt", []step{
			{charge: 90, allowed: true, remaining: 10},
			{charge: 35, allowed: false, remaining: -25, retryAfter: 3 * time.Second},
		}},
		{"an empty bucket refuses until a fraction refills: a second", []step{
			{charge: 100, allowed: false, remaining: 0, retryAfter: time.Second},
			{advance: 50 * time.Millisecond, allowed: true, remaining: 0.5},
		}},
		{"a debt refills, and then the caller is admitted", []step{
			{charge: 130, allowed: false, remaining: -30, retryAfter: 4 * time.Second},
			{advance: 2 * time.Second, allowed: false, remaining: -10, retryAfter: 2 * time.Second},
			{advance: 1500 * time.Millisecond, allowed: true, remaining: 5},
		}},
		{"a bucket refills to its capacity, not past it", []step{
			{charge: 50, allowed: true, remaining: 50},
			{advance: time.Hour, allowed: true, remaining: 100},
		}},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			newLimiter := open(t)
			for i, sc := range scenarios {
				t.Run(sc.name, func(t *testing.T) {
					clk := newClock()
					l := newLimiter(fmt.Sprintf("scenario%d:", i), tenPerSecond, clk.Now)
					ctx := context.Background()
					for j, s := range sc.steps {
						clk.Advance(s.advance)
						if s.charge > 0 {
							if _, err := l.Charge(ctx, "alice", s.charge); err != nil {
								t.Fatal(err)
							}
						}
						d, err := l.Admit(ctx, "alice")
						if err != nil {
							t.Fatal(err)
						}
						if d.Allowed != s.allowed || !near(d.State.Remaining, s.remaining) || d.RetryAfter != s.retryAfter {
							t.Errorf("step %d: allowed %v, remaining %v, retry after %v; want %v, %v, %v",
								j+1, d.Allowed, d.State.Remaining, d.RetryAfter, s.allowed, s.remaining, s.retryAfter)
						}
						if d.State.Capacity != 100 || d.State.RefillPerSecond != 10 {
							t.Errorf("step %d: the state says %+v, not the limits", j+1, d.State)
						}
					}
				})
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestLimiter_CallersHaveTheirOwnBuckets: one caller's spending leaves another's bucket full.
func TestLimiter_CallersHaveTheirOwnBuckets(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			l := open(t)("own:", tenPerSecond, newClock().Now)
			ctx := context.Background()
			if _, err := l.Charge(ctx, "user:greedy", 500); err != nil {
				t.Fatal(err)
			}
			greedy, _ := l.Admit(ctx, "user:greedy")
			other, err := l.Admit(ctx, "user:other")
			if err != nil {
				t.Fatal(err)
			}
			if greedy.Allowed || !other.Allowed || other.State.Remaining != 100 {
				t.Errorf("greedy %+v, other %+v: want greedy refused, other full", greedy, other)
			}
		})
	}
}

// TestLimiter_RefusesABadCharge: buckets refill only with time.
func TestLimiter_RefusesABadCharge(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			l := open(t)("bad:", tenPerSecond, newClock().Now)
			for _, units := range []float64{-1, math.NaN(), math.Inf(1)} {
				if _, err := l.Charge(context.Background(), "alice", units); !errors.Is(err, ratelimit.ErrBadCharge) {
					t.Errorf("Charge(%v): %v, want ErrBadCharge", units, err)
				}
			}
			if d, _ := l.Admit(context.Background(), "alice"); d.State.Remaining != 100 {
				t.Errorf("after refused charges the bucket holds %v, want 100", d.State.Remaining)
			}
		})
	}
}

func TestLimits_Check(t *testing.T) {
	for _, l := range []ratelimit.Limits{{0, 1}, {1, 0}, {-1, 1}, {1, math.NaN()}, {math.Inf(1), 1}} {
		if err := l.Check(); err == nil {
			t.Errorf("%+v: no error", l)
		}
		if _, err := ratelimit.NewMemory(l, nil); err == nil {
			t.Errorf("NewMemory(%+v): no error", l)
		}
	}
	if err := tenPerSecond.Check(); err != nil {
		t.Error(err)
	}
}

// TestRedis_InstancesShareABucket: two limiters on one Redis, as two server instances, charge
// one bucket; many charges at once from both are all counted, none overwritten.
func TestRedis_InstancesShareABucket(t *testing.T) {
	client := redisClient(t)
	clk := newClock()
	limits := ratelimit.Limits{Capacity: 1000, RefillPerSecond: 1}
	one, _ := ratelimit.NewRedis(client, "shared:", limits, clk.Now)
	two, _ := ratelimit.NewRedis(client, "shared:", limits, clk.Now)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 400 {
		wg.Go(func() {
			l := one
			if i%2 == 1 {
				l = two
			}
			if _, err := l.Charge(ctx, "user:alice", 2.5); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for name, l := range map[string]*ratelimit.Redis{"one": one, "two": two} {
		d, err := l.Admit(ctx, "user:alice")
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed || !near(d.State.Remaining, 0) {
			t.Errorf("instance %s sees %+v, want all 1000 units spent and refused", name, d)
		}
	}
	other, _ := ratelimit.NewRedis(client, "elsewhere:", limits, clk.Now)
	if d, _ := other.Admit(ctx, "user:alice"); d.State.Remaining != 1000 {
		t.Errorf("another prefix sees %v units, want its own full bucket", d.State.Remaining)
	}
}

// TestRedis_AClockBehindRefillsNothing: an instance whose clock is behind the bucket's last
// charge neither refills it nor moves its time back, so a clock ahead cannot be used twice.
func TestRedis_AClockBehindRefillsNothing(t *testing.T) {
	client := redisClient(t)
	ahead, behind := newClock(), newClock()
	ahead.Advance(5 * time.Second)
	a, _ := ratelimit.NewRedis(client, "skew:", tenPerSecond, ahead.Now)
	b, _ := ratelimit.NewRedis(client, "skew:", tenPerSecond, behind.Now)
	ctx := context.Background()
	if _, err := a.Charge(ctx, "k", 100); err != nil {
		t.Fatal(err)
	}
	if s, _ := b.Charge(ctx, "k", 10); !near(s.Remaining, -10) {
		t.Errorf("charged with a clock behind: %v, want -10 (no refill)", s.Remaining)
	}
	behind.Advance(6 * time.Second) // one second past the bucket's time
	if d, _ := b.Admit(ctx, "k"); !near(d.State.Remaining, 0) {
		t.Errorf("a second past the bucket's time: %v, want 0 (10 refilled)", d.State.Remaining)
	}
}

// TestRedis_ABucketExpiresOnceFull: Redis drops a bucket once it would be full again, so
// callers seen once do not stay in memory; a millisecond-scale refill makes that short.
func TestRedis_ABucketExpiresOnceFull(t *testing.T) {
	client := redisClient(t)
	l, _ := ratelimit.NewRedis(client, "ttl:", ratelimit.Limits{Capacity: 10, RefillPerSecond: 10}, nil)
	if _, err := l.Charge(context.Background(), "k", 5); err != nil {
		t.Fatal(err)
	}
	ttl, err := client.PTTL(context.Background(), "ttl:k").Result()
	if err != nil {
		t.Fatal(err)
	}
	// Half a second to refill, plus the second of margin.
	if ttl <= 0 || ttl > 1500*time.Millisecond {
		t.Errorf("the bucket expires in %v, want within 1.5s", ttl)
	}
}

// TestMemory_DropsFullBuckets: buckets that have refilled are dropped at the next sweep, so
// many callers seen once do not stay in memory.
func TestMemory_DropsFullBuckets(t *testing.T) {
	clk := newClock()
	m, _ := ratelimit.NewMemory(tenPerSecond, clk.Now)
	ctx := context.Background()
	for i := range 100 {
		_, _ = m.Charge(ctx, fmt.Sprint("addr:", i), 5)
	}
	_, _ = m.Charge(ctx, "user:spender", 100)
	if m.Len() != 101 {
		t.Fatalf("%d buckets, want 101", m.Len())
	}
	clk.Advance(time.Minute)                   // each refilled within ten seconds
	_, _ = m.Charge(ctx, "user:spender", 1000) // a debt of 900 that takes 100s to refill
	if m.Len() != 1 {
		t.Errorf("after a minute, %d buckets, want only the one just charged", m.Len())
	}
	if d, _ := m.Admit(ctx, "addr:7"); d.State.Remaining != 100 {
		t.Errorf("a dropped bucket reads as %v, want full", d.State.Remaining)
	}
}
