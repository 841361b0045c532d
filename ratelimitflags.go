package main

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/quickphotos/quickphotos/api"

	"github.com/quickphotos/quickphotos/ratelimit"
	"github.com/quickphotos/quickphotos/relay"
)

// rateLimitConfig is serve's per-caller rate limit: a bucket of DynamoDB capacity units per
// caller (package ratelimit). It is off unless --rate-limit-capacity is given: what a caller
// may spend depends on the table's provisioned or paid-for capacity and on how many callers
// share it, which only the operator knows; and on a server without authentication every caller
// is known only by its address, so callers behind one proxy or NAT would share a bucket.
type rateLimitConfig struct {
	capacity, refill float64
	redisURL         string
	trustedProxies   string
}

func (c *rateLimitConfig) register(f *flags) {
	f.Float(&c.capacity, "rate-limit-capacity", 0, "give every caller (user, or address when anonymous) a bucket of this many DynamoDB capacity units (read + write units), refused with 429 LIMIT_EXCEEDED while it is empty or in debt; an operation is charged what it consumed (0: no rate limit)")
	f.Float(&c.refill, "rate-limit-refill", 0, "with --rate-limit-capacity: the capacity units a bucket regains a second, a caller's sustained rate")
	f.String(&c.trustedProxies, "trusted-proxies", "", "comma-separated addresses and CIDR ranges of the reverse proxies and load balancers in front of serve, e.g. 10.0.0.0/8: an anonymous caller whose connection comes from one is known, for its rate-limit bucket, by the address X-Forwarded-For says the proxies were reached from (empty: none; the connection's address)")
	f.String(&c.redisURL, "rate-limit-redis", "", "with --rate-limit-capacity: keep the buckets in this Redis (redis://host:6379/0), shared by every instance using it (empty: the Redis of --changes-from when given, else this process's memory)")
}

// limiter returns the buckets the flags ask for, nil without a rate limit; with Redis, release
// closes its client. relayURL is --changes-from, whose Redis the buckets share by default;
// table names the deployment in the buckets' keys.
func (c *rateLimitConfig) limiter(relayURL, table string) (l ratelimit.Limiter, about string, release func(), err error) {
	release = func() {}
	if c.capacity == 0 {
		if c.refill != 0 || c.redisURL != "" || c.trustedProxies != "" {
			return nil, "", release, errors.New("--rate-limit-refill, --rate-limit-redis and --trusted-proxies need --rate-limit-capacity")
		}
		return nil, "off", release, nil
	}
	limits := ratelimit.Limits{Capacity: c.capacity, RefillPerSecond: c.refill}
	if c.refill == 0 {
		return nil, "", release, errors.New("--rate-limit-capacity needs --rate-limit-refill: the units a bucket regains a second")
	}
	if err := limits.Check(); err != nil {
		return nil, "", release, fmt.Errorf("--rate-limit-capacity/--rate-limit-refill: %w", err)
	}
	about = fmt.Sprintf("%g capacity units a caller, refilling %g a second", c.capacity, c.refill)
	if c.trustedProxies != "" {
		about += fmt.Sprintf(", anonymous callers behind %s known by X-Forwarded-For", strings.Join(splitList(c.trustedProxies), ", "))
	}
	url := c.redisURL
	if url == "" {
		url = relayURL
	}
	if url == "" {
		m, err := ratelimit.NewMemory(limits, nil)
		return m, about + ", in memory", release, err
	}
	client, err := relay.Open(url)
	if err != nil {
		return nil, "", release, fmt.Errorf("--rate-limit-redis: %w", err)
	}
	r, err := ratelimit.NewRedis(client, "quickphotos:"+table+":ratelimit:", limits, nil)
	if err != nil {
		client.Close()
		return nil, "", release, err
	}
	return r, about + ", shared in Redis", func() { _ = client.Close() }, nil
}

// proxies are the addresses --trusted-proxies lists.
func (c *rateLimitConfig) proxies() ([]netip.Prefix, error) {
	proxies, err := api.ParseTrustedProxies(splitList(c.trustedProxies))
	if err != nil {
		return nil, fmt.Errorf("--trusted-proxies: %w", err)
	}
	return proxies, nil
}
