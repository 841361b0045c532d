package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// bucketScript reads a bucket, refills it to now and, given a charge, takes the charge and
// stores it, all in one atomic step, so that the instances sharing a bucket never overwrite one
// another's charges. It is Limits.refill and Memory.Charge in Lua: a missing bucket is full;
// a time before the bucket's (another instance's clock ahead) refills nothing and leaves the
// bucket's time as it is; a stored bucket expires once it would be full again, since a full
// bucket is the same as none.
//
// KEYS[1]: the bucket, a hash of level and at (milliseconds since the Unix epoch).
// ARGV: capacity, refill per second, now in milliseconds, and the units to charge, if any.
// It returns the level, as a string (Redis turns a Lua number into an integer).
const bucketScript = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local stored = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = tonumber(stored[1])
local at = tonumber(stored[2])
if level == nil or at == nil then
  level, at = capacity, now
end
if now > at then
  level = level + (now - at) / 1000 * rate
  at = now
end
level = math.min(level, capacity)
if ARGV[4] ~= nil then
  level = level - tonumber(ARGV[4])
  redis.call('HSET', KEYS[1], 'level', string.format('%.17g', level), 'at', string.format('%d', at))
  local full = math.ceil((capacity - level) / rate * 1000) + (at - now)
  redis.call('PEXPIRE', KEYS[1], math.max(full, 1) + 1000)
end
return string.format('%.17g', level)
`

var script = redis.NewScript(bucketScript)

// Redis keeps the buckets in a Redis server that several instances share: a caller's spending
// through any of them comes out of one bucket.
type Redis struct {
	client redis.Scripter
	prefix string
	limits Limits
	now    Clock
}

var _ Limiter = (*Redis)(nil)

// NewRedis returns buckets of limits kept in client under keys that begin with prefix (which
// names the deployment, so that two sharing a Redis keep apart), timed by now (time.Now when
// nil). Every instance sharing the buckets should have the same limits: each refills and caps a
// bucket by its own.
func NewRedis(client redis.Scripter, prefix string, limits Limits, now Clock) (*Redis, error) {
	if err := limits.Check(); err != nil {
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	return &Redis{client: client, prefix: prefix, limits: limits, now: now}, nil
}

// Limits are the buckets' size.
func (r *Redis) Limits() Limits { return r.limits }

// Admit says whether key may run an operation now.
func (r *Redis) Admit(ctx context.Context, key string) (Decision, error) {
	level, err := r.run(ctx, key)
	if err != nil {
		return Decision{}, err
	}
	return r.limits.decide(level), nil
}

// Charge takes units from key's bucket.
func (r *Redis) Charge(ctx context.Context, key string, units float64) (State, error) {
	if err := checkCharge(units); err != nil {
		return State{}, err
	}
	level, err := r.run(ctx, key, strconv.FormatFloat(units, 'g', -1, 64))
	if err != nil {
		return State{}, err
	}
	return r.limits.state(level), nil
}

func (r *Redis) run(ctx context.Context, key string, charge ...any) (float64, error) {
	args := append([]any{
		strconv.FormatFloat(r.limits.Capacity, 'g', -1, 64),
		strconv.FormatFloat(r.limits.RefillPerSecond, 'g', -1, 64),
		r.now().UnixMilli(),
	}, charge...)
	out, err := script.Run(ctx, r.client, []string{r.prefix + key}, args...).Text()
	if err != nil {
		return 0, fmt.Errorf("ratelimit: the bucket of %s in Redis: %w", key, err)
	}
	level, err := strconv.ParseFloat(out, 64)
	if err != nil {
		return 0, fmt.Errorf("ratelimit: the bucket of %s in Redis: %q is not a level", key, out)
	}
	return level, nil
}
