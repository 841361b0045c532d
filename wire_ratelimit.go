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
